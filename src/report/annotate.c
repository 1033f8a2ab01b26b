/* winnow annotate and winnow site --report (report.h): the page as winnow
 * read it, written again as HTML with its verdicts on it.
 *
 * Safety: the page's own markup is written from winnow's DOM, never copied
 * from the input. What a browser could load or run is gone before that:
 * the parser drops scripts, styles, iframes, SVG, media, templates and
 * hidden elements (WN_TF_SKIP); here <link>, <meta>, <base> and every
 * other head element go, images and inputs become text placeholders,
 * element names outside a fixed list become <span>, and only a handful of
 * attributes that load nothing survive (colspan, rowspan, dir, lang, list
 * numbering), checked character by character. Text and attribute values
 * are escaped, written as valid UTF-8 without control characters. A
 * Content-Security-Policy <meta> allows only inline styles and the one
 * script carrying this report's random nonce, so even a mistake here could
 * neither load nor run anything.
 *
 * Structure: the DOM came from an HTML5 parser, so written out again with
 * the same tags it parses back to the same tree; the few tags mapped to
 * others (a <form> becomes a <div>, an unknown element a <span>) may let a
 * parser close an element a little earlier, never drop one: every block
 * candidate is in the report. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../doc.h"
#include "../pipeline/pipeline.h"
#include "../site/model.h"
#include "../site/site_api.h"
#include "../site/signals.h"

/* ---- output ---- */

typedef struct rout {
    wn_buf b;
    winnow_write_fn write;
    void *ctx;
    int failed;
} rout;

static void flush(rout *o, int force)
{
    if (o->failed || o->b.oom) return;
    if (!force && o->b.len < (64u << 10)) return;
    if (o->b.len && o->write(o->ctx, o->b.data, o->b.len) != 0) o->failed = 1;
    wn_buf_clear(&o->b);
}

static void puts_(rout *o, const char *s) { wn_buf_puts(&o->b, s); }

/* Valid UTF-8 of s[0..n) with &, <, > (and " in attributes) escaped;
 * invalid sequences, NUL and the other control characters but tab, line
 * feed, form feed and carriage return become U+FFFD. */
static void esc(rout *o, const char *s, size_t n, int attr)
{
    wn_buf *b = &o->b;
    static const char repl[] = "\xEF\xBF\xBD";
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, start = 0;
    while (i < n) {
        unsigned c = p[i];
        const char *rep = NULL;
        size_t len = 1;
        if (c < 0x80) {
            if (c == '&') rep = "&amp;";
            else if (c == '<') rep = "&lt;";
            else if (c == '>') rep = "&gt;";
            else if (c == '"' && attr) rep = "&quot;";
            else if ((c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r') || c == 0x7F) rep = repl;
        } else {
            /* the length of a well-formed sequence, 0 when it is not one */
            size_t need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            int ok = need && i + need <= n;
            for (size_t k = 1; ok && k < need; k++) ok = (p[i + k] & 0xC0) == 0x80;
            if (ok && need == 3) {
                unsigned c1 = p[i + 1];
                if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) ok = 0; /* overlong, surrogate */
            }
            if (ok && need == 4) {
                unsigned c1 = p[i + 1];
                if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) ok = 0; /* overlong, past U+10FFFF */
            }
            /* C1 controls (U+0080-U+009F) */
            if (ok && c == 0xC2 && p[i + 1] < 0xA0) rep = repl, len = 2;
            else if (ok) len = need;
            else rep = repl;
        }
        if (rep) {
            wn_buf_put(b, s + start, i - start);
            wn_buf_puts(b, rep);
            i += len;
            start = i;
        } else {
            i += len;
        }
    }
    wn_buf_put(b, s + start, i - start);
}

static void esc_s(rout *o, const char *s, int attr)
{
    if (s) esc(o, s, strlen(s), attr);
}

/* ---- the report's own parts ---- */

/* Verdict classes, in the legend's order. */
enum { V_CONTENT, V_TEMPLATE, V_COMMENTS, V_LINKLIST, V_BOILER, V_N };
static const char *const verdict_key[V_N] = {"content", "template", "comments", "linklist", "boilerplate"};
static const char *const verdict_name[V_N] = {"content", "template", "comments", "link list", "boilerplate"};
static const char *const verdict_text[V_N] = {
    "kept: the main content",
    "left out: outside the content block, or on many of the site's pages",
    "left out: reader comments, a class of their own (extract --comments shows them)",
    "left out: mostly links",
    "left out: a boilerplate name or landmark (nav, footer, share, related, ...), teasers, script text",
};

static int verdict_of_class(char cls)
{
    switch (cls) {
    case 'C': return V_CONTENT;
    case 'M': return V_COMMENTS;
    case 'L': return V_LINKLIST;
    case 'B': return V_BOILER;
    default: return V_TEMPLATE;
    }
}

static const char css[] =
    ":root{--c:#b9efb9;--t:#d9d9d9;--m:#c4dcff;--l:#ffe09a;--b:#ffc2c2}\n"
    "html{background:#fff;height:100%}\n"
    "body{margin:0;height:100%;display:flex;flex-direction:column;font:15px/1.45 'DejaVu Sans',Arial,sans-serif;"
    "color:#111;background:#fff}\n"
    "[hidden]{display:none!important}\n"
    "#wn-bar{flex:none;max-height:45vh;overflow:auto;background:#f6f6f3;border-bottom:1px solid #999;"
    "padding:6px 12px;font-size:13px}\n"
    ".wn-view{flex:1 1 auto;min-height:0;overflow:auto}\n"
    "#wn-bar h1{font-size:15px;margin:0 0 2px}\n"
    "#wn-bar .wn-src,#wn-bar .wn-sum,#wn-bar .wn-note{margin:1px 0;color:#333;overflow-wrap:anywhere}\n"
    "#wn-legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:4px 0;padding:0;list-style:none}\n"
    "#wn-legend li{display:flex;align-items:center;gap:5px}\n"
    ".wn-sw{display:inline-block;width:22px;height:14px;border:1px solid #555}\n"
    "#wn-views button{font:inherit;padding:1px 10px;margin-right:4px;border:1px solid #777;background:#fff;"
    "border-radius:3px;cursor:pointer}\n"
    "#wn-views button[aria-pressed=true]{background:#333;color:#fff}\n"
    "#wn-bar details{margin-top:3px}\n"
    "#wn-reasons{border-collapse:collapse;font-size:12px;margin:4px 0}\n"
    "#wn-reasons td,#wn-reasons th,#wn-fp td,#wn-fp th{border:1px solid #bbb;padding:1px 5px;text-align:left;"
    "vertical-align:top}\n"
    ".wn-page{padding:8px 12px}\n"
    ".wn-page a.wn-a{color:#1a4fb0;text-decoration:underline}\n"
    ".wn-page .wn-b{outline:1px solid rgba(0,0,0,.22);outline-offset:-1px}\n"
    ".wn-v-content{background:var(--c)}\n"
    ".wn-v-template{background:var(--t)}\n"
    ".wn-v-comments{background:var(--m)}\n"
    ".wn-v-linklist{background:var(--l)}\n"
    ".wn-v-boilerplate{background:var(--b)}\n"
    ".wn-page .wn-x{color:#6b6b6b;text-decoration:line-through}\n"
    ".wn-page .wn-k{box-shadow:inset 4px 0 0 #1f8f1f}\n"
    ".wn-blk{display:block}\n"
    ".wn-img,.wn-ctl{display:inline-block;font:11px/1.3 monospace;color:#555;border:1px dashed #888;"
    "padding:0 3px;margin:1px}\n"
    ".wn-page .wn-hover{outline:2px solid #000;outline-offset:-2px}\n"
    ".wn-page [data-wn-badge]::before{content:attr(data-wn-badge);display:inline-block;font:bold 11px/1.4 "
    "monospace;background:#444;color:#fff;padding:0 4px;margin:0 4px 0 0}\n"
    "#wn-text,#wn-fps{padding:8px 16px}\n"
    "#wn-text pre{white-space:pre-wrap;overflow-wrap:anywhere;font:14px/1.5 'DejaVu Sans Mono',monospace}\n"
    "#wn-fp{border-collapse:collapse;font-size:13px}\n"
    "#wn-fp td.wn-num{text-align:right;white-space:nowrap}\n"
    "#wn-fp tr.wn-tmpl td:first-child{background:var(--t)}\n"
    "#wn-tip{position:fixed;z-index:9;max-width:520px;background:#fffef4;border:1px solid #555;padding:5px 8px;"
    "font:12px/1.4 'DejaVu Sans',Arial,sans-serif;box-shadow:2px 2px 6px rgba(0,0,0,.3);pointer-events:none;"
    "overflow-wrap:anywhere}\n"
    "#wn-tip .wn-tip-h{font-weight:bold;padding:1px 4px;margin-bottom:3px}\n";

/* The script: the switch between views, the hover box, and each block's
 * box for tools and the tests (data-wn-box: left top width height in CSS
 * pixels of the window as laid out when the report has loaded, scrolled to
 * the content with #content; data-wn-pane: the box of the scrolled pane
 * the page is shown in). It never reads the page's text as markup: the hover box is
 * built with textContent. */
static const char script[] =
    "(function(){'use strict';\n"
    "var root=document.documentElement;\n"
    "window.addEventListener('error',function(e){root.setAttribute('data-wn-error',String(e.message));});\n"
    "var views=document.querySelectorAll('#wn-views button');\n"
    "function view(name){for(var i=0;i<views.length;i++){var b=views[i],v=b.getAttribute('data-view'),"
    "s=document.getElementById(v);if(s)s.hidden=v!==name;b.setAttribute('aria-pressed',String(v===name));}"
    "tip.hidden=true;}\n"
    "for(var i=0;i<views.length;i++)views[i].addEventListener('click',function(){"
    "view(this.getAttribute('data-view'));});\n"
    "var page=document.getElementById('wn-page'),tip=document.getElementById('wn-tip'),reasons={};\n"
    "var rows=document.querySelectorAll('#wn-reasons tr[data-why]');\n"
    "for(var i=0;i<rows.length;i++)reasons[rows[i].getAttribute('data-why')]=rows[i];\n"
    "var fields=[['path','DOM path'],['chars','characters'],['ld','link density'],['hints','hint names'],"
    "['trusted','trusted hints'],['heur','heuristic value'],['value','final value'],"
    "['clf','classifier P(template)'],['smooth','smoothed P(template)'],['t','templateness'],"
    "['df','site document frequency']];\n"
    "function line(k,v){var d=document.createElement('div'),b=document.createElement('b');b.textContent=k+': ';"
    "d.appendChild(b);d.appendChild(document.createTextNode(v));tip.appendChild(d);}\n"
    "function show(el){tip.textContent='';var h=document.createElement('div'),v=el.getAttribute('data-wn-v');"
    "h.className='wn-tip-h wn-v-'+v;h.textContent='block '+el.getAttribute('data-wn-i')+': '+"
    "(v==='linklist'?'link list':v);tip.appendChild(h);\n"
    "for(var j=0;j<fields.length;j++){var x=el.getAttribute('data-wn-'+fields[j][0]);"
    "if(x!==null&&x!=='')line(fields[j][1],x);}\n"
    "var w=el.getAttribute('data-wn-why'),r=reasons[w];line('decided by',(el.getAttribute('data-wn-rule')||'-')+"
    "' ('+w+')');if(r)line('why',r.getAttribute('data-text'));}\n"
    "var cur=null;\n"
    "if(page){page.addEventListener('mouseover',function(e){var el=e.target.closest?"
    "e.target.closest('[data-wn-i]'):null;if(el===cur)return;if(cur)cur.classList.remove('wn-hover');cur=el;"
    "if(!el){tip.hidden=true;return;}el.classList.add('wn-hover');show(el);tip.hidden=false;});\n"
    "page.addEventListener('mousemove',function(e){var x=e.clientX+14,y=e.clientY+14,"
    "w=tip.offsetWidth,h=tip.offsetHeight;if(x+w>innerWidth-4)x=Math.max(4,e.clientX-w-14);"
    "if(y+h>innerHeight-4)y=Math.max(4,e.clientY-h-14);tip.style.left=x+'px';tip.style.top=y+'px';});\n"
    "page.addEventListener('mouseleave',function(){if(cur)cur.classList.remove('wn-hover');cur=null;"
    "tip.hidden=true;});}\n"
    "function jump(v){var c=null,n=-1,l=page?page.querySelectorAll('[data-wn-v='+v+']'):[];view('wn-page');"
    "for(var i=0;i<l.length;i++){var k=+l[i].getAttribute('data-wn-chars');"
    "if(k>n&&(v==='content'||!l[i].querySelector('[data-wn-v=content]'))){n=k;c=l[i];}}"
    "if(c)page.scrollTop=Math.max(0,c.getBoundingClientRect().top-page.getBoundingClientRect().top+"
    "page.scrollTop-8);}\n"
    "var jb=document.getElementById('wn-jump');if(jb)jb.addEventListener('click',function(){jump('content');});\n"
    "var hv=location.hash.slice(1);\n"
    "if(/^(content|template|comments|linklist|boilerplate)$/.test(hv))jump(hv);else if(hv==='text')view('wn-text');"
    "else if(location.hash==='#fingerprints'&&document.getElementById('wn-fps'))view('wn-fps');\n"
    "var blocks=document.querySelectorAll('[data-wn-i]');\n"
    "for(var i=0;i<blocks.length;i++){var r=blocks[i].getBoundingClientRect();"
    "blocks[i].setAttribute('data-wn-box',Math.round(r.left)+' '+Math.round(r.top)+' '+"
    "Math.round(r.width)+' '+Math.round(r.height));}\n"
    "if(page){var pr=page.getBoundingClientRect();root.setAttribute('data-wn-pane',Math.round(pr.left)+' '+"
    "Math.round(pr.top)+' '+Math.round(page.clientWidth)+' '+Math.round(page.clientHeight));}\n"
    "root.setAttribute('data-wn-ready',String(blocks.length));\n"
    "})();\n";

/* A fresh nonce for the script (getrandom; the clock and the process if
 * that fails): 32 hex digits. */
static void make_nonce(char out[33])
{
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long x = (unsigned long long)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^
                               (unsigned long long)ts.tv_sec ^ ((unsigned long long)getpid() << 32);
        for (size_t i = 0; i < sizeof r; i++) {
            x ^= x >> 29;
            x *= 0xBF58476D1CE4E5B9ull;
            r[i] = (unsigned char)(x >> 56);
        }
    }
    for (size_t i = 0; i < sizeof r; i++) snprintf(out + 2 * i, 3, "%02x", r[i]);
}

static void head(rout *o, const char *title, const char *nonce)
{
    puts_(o, "<!DOCTYPE html>\n<html lang=\"en\"><head>\n<meta charset=\"utf-8\">\n"
             "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
             "img-src data:; script-src 'nonce-");
    puts_(o, nonce);
    puts_(o, "'; base-uri 'none'; form-action 'none'\">\n"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
             "<meta name=\"referrer\" content=\"no-referrer\">\n");
    wn_buf_printf(&o->b, "<meta name=\"generator\" content=\"winnow %s\">\n", winnow_version());
    /* no request for a favicon */
    puts_(o, "<link rel=\"icon\" href=\"data:,\">\n<title>");
    esc_s(o, title, 0);
    puts_(o, "</title>\n<style>\n");
    puts_(o, css);
    puts_(o, "</style>\n</head>\n<body>\n");
}

static void tail(rout *o, const char *nonce)
{
    puts_(o, "<div id=\"wn-tip\" hidden></div>\n<script nonce=\"");
    puts_(o, nonce);
    puts_(o, "\">\n");
    puts_(o, script);
    puts_(o, "</script>\n</body></html>\n");
}

static void legend(rout *o, const unsigned *counts)
{
    puts_(o, "<ul id=\"wn-legend\">");
    for (int v = 0; v < V_N; v++) {
        wn_buf_printf(&o->b, "<li data-verdict=\"%s\"><span class=\"wn-sw wn-v-%s\"></span><b>%s</b>", verdict_key[v],
                      verdict_key[v], verdict_name[v]);
        if (counts) wn_buf_printf(&o->b, " (%u)", counts[v]);
        wn_buf_printf(&o->b, " <span>%s</span></li>", verdict_text[v]);
    }
    puts_(o, "</ul>\n");
}

/* The reasons a unit can be kept or left out for, with their rules and
 * the values in force; how many blocks each decided on this page. */
static void reasons_table(rout *o, const wn_rules *rules, const unsigned *count)
{
    puts_(o, "<details><summary>How winnow decides: the reasons and the rules that govern them</summary>\n"
             "<table id=\"wn-reasons\"><tr><th>reason</th><th>verdict</th><th>rule</th><th>blocks here</th>"
             "<th>meaning</th></tr>\n");
    for (int k = 1; k < WN_WHY_COUNT; k++) {
        const wn_why_def *w = &wn_why_defs[k];
        char rule[96] = "-";
        if (w->rule) {
            int r = wn_rule_find(w->rule);
            if (r >= 0) snprintf(rule, sizeof rule, "%s = %g", w->rule, rules ? rules->v[r] : wn_rule_defs[r].def);
        }
        int v = verdict_of_class(w->cls);
        wn_buf_printf(&o->b, "<tr data-why=\"%s\" data-text=\"", w->name);
        esc_s(o, w->text, 1);
        wn_buf_printf(&o->b, "\"><td>%s</td><td><span class=\"wn-sw wn-v-%s\"></span> %s</td><td>%s</td><td>%u</td><td>",
                      w->name, verdict_key[v], verdict_name[v], rule, count ? count[k] : 0);
        esc_s(o, w->text, 0);
        puts_(o, "</td></tr>\n");
    }
    puts_(o, "</table></details>\n");
}

static void views(rout *o, int fps)
{
    puts_(o, "<div id=\"wn-views\"><button type=\"button\" data-view=\"wn-page\" aria-pressed=\"true\">Annotated "
             "page</button><button type=\"button\" data-view=\"wn-text\" aria-pressed=\"false\">Extracted text</button>");
    if (fps)
        puts_(o, "<button type=\"button\" data-view=\"wn-fps\" aria-pressed=\"false\">Site fingerprints</button>");
    puts_(o, " <button type=\"button\" id=\"wn-jump\">Go to the content</button></div>\n");
}

static void fingerprints(rout *o, const wn_report_options *opt, double pages, int hidden)
{
    wn_buf_printf(&o->b, "<section id=\"wn-fps\" class=\"wn-view\"%s>\n<h2>The site's most frequent fingerprints</h2>\n",
                  hidden ? " hidden" : "");
    double threshold = opt->template_share * pages;
    if (pages >= 2.0 && threshold < 1.5) threshold = 1.5;
    wn_buf_printf(&o->b,
                  "<p>Document frequency: on how many of the site's pages (aged: weight %.2f) a fingerprint "
                  "occurs. Shaded rows are template (on at least %.0f%% of the pages and two pages: df &ge; "
                  "%.2f); block fingerprints are whole blocks' text, chunks the text between line-breaking "
                  "tags (fingerprints keyed on DOM paths keep no text and are not listed).</p>\n",
                  pages, 100.0 * opt->template_share, threshold);
    if (!opt->nfps) {
        puts_(o, "<p>The site has no fingerprint on two or more pages.</p>\n</section>\n");
        return;
    }
    puts_(o, "<table id=\"wn-fp\"><tr><th>df</th><th>share</th><th>kind</th><th>text</th></tr>\n");
    for (size_t k = 0; k < opt->nfps; k++) {
        const wn_report_fp *f = &opt->fps[k];
        int tmpl = f->df + 1e-9 >= threshold;
        wn_buf_printf(&o->b, "<tr%s><td class=\"wn-num\">%.1f</td><td class=\"wn-num\">%.0f%%</td><td>",
                      tmpl ? " class=\"wn-tmpl\"" : "", f->df, pages > 0 ? 100.0 * f->df / pages : 0.0);
        esc_s(o, f->kind, 0);
        puts_(o, "</td><td>");
        esc_s(o, f->sample, 0);
        puts_(o, "</td></tr>\n");
        flush(o, 0);
    }
    puts_(o, "</table>\n");
    if (opt->fps_more) wn_buf_printf(&o->b, "<p>%zu less frequent fingerprints are not listed.</p>\n", opt->fps_more);
    puts_(o, "</section>\n");
}

/* ---- per block ---- */

typedef struct blockinfo {
    uint8_t verdict, why;
    uint8_t badge;          /* site report: an outermost template block */
    float heur, value;      /* sums over its units */
    double df;              /* block fingerprint's document frequency, < 0 without a site */
} blockinfo;

static const char *const hint_names[16] = {"nav",     "header",  "footer", "sidebar", "comment", "share",
                                           "related", "ad",      "overlay", "meta",   "content", "title",
                                           "site",    "mixed",   "gallery", "script"};

static void hint_list(rout *o, uint16_t h)
{
    int first = 1;
    for (int k = 0; k < 16; k++)
        if (h & (1u << k)) {
            wn_buf_printf(&o->b, "%s%s", first ? "" : " ", hint_names[k]);
            first = 0;
        }
}

/* Verdicts, reasons and sums of every block, bottom-up over the block
 * tree: a block's class is the one of the most characters among its
 * units with its keep state (kept: content; left out: the class of their
 * reasons), its reason that of the largest such unit. */
static blockinfo *block_infos(const winnow_doc *d, const wn_site_model *m, double threshold)
{
    const wn_dom *dom = &d->dom;
    const wn_explain *ex = d->explain;
    const wn_labels *lb = &d->labels;
    uint32_t n = dom->count, nb = d->nblocks;
    blockinfo *bi = calloc((size_t)nb + 1, sizeof *bi);
    int32_t *blk = malloc((size_t)n * sizeof *blk);
    /* per block and class: characters, and the largest unit */
    double *mass = calloc(((size_t)nb + 1) * V_N, sizeof *mass);
    uint32_t *top = malloc(((size_t)nb + 1) * V_N * sizeof *top);
    if (!bi || !blk || !mass || !top) {
        free(bi), free(blk), free(mass), free(top);
        return NULL;
    }
    for (size_t k = 0; k < ((size_t)nb + 1) * V_N; k++) top[k] = WN_NONE;
    uint32_t next = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (next < nb && d->blocks[next] == i) blk[i] = (int32_t)next++;
        else blk[i] = i ? blk[dom->nodes[i].parent] : -1;
    }
    for (uint32_t u = 0; u < n; u++) {
        if (lb->unit[u] != u || !ex || !ex->own || ex->own[u].chars == 0 || blk[u] < 0) continue;
        size_t k = (size_t)blk[u];
        int v = lb->keep[u] ? V_CONTENT : verdict_of_class(wn_why_defs[ex->why[u]].cls);
        size_t at = k * V_N + (size_t)v;
        mass[at] += ex->own[u].chars;
        if (top[at] == WN_NONE || ex->own[top[at]].chars < ex->own[u].chars) top[at] = u;
        bi[k].heur += ex->heur[u];
        bi[k].value += lb->value[u];
    }
    /* children before parents: blocks in reverse document order */
    for (uint32_t k = nb; k-- > 0;) {
        long p = d->block_parent[k];
        if (p < 0) continue;
        for (int s = 0; s < V_N; s++) {
            size_t a = (size_t)k * V_N + (size_t)s, b = (size_t)p * V_N + (size_t)s;
            mass[b] += mass[a];
            if (top[a] != WN_NONE && (top[b] == WN_NONE || ex->own[top[b]].chars < ex->own[top[a]].chars))
                top[b] = top[a];
        }
        bi[p].heur += bi[k].heur;
        bi[p].value += bi[k].value;
    }
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t i = d->blocks[k];
        const double *ms = mass + (size_t)k * V_N;
        const uint32_t *tp = top + (size_t)k * V_N;
        if (lb->templ[i] < 0.5) {
            bi[k].verdict = V_CONTENT;
            bi[k].why = tp[V_CONTENT] != WN_NONE && ex ? ex->why[tp[V_CONTENT]] : WN_WHY_BEST_BLOCK;
        } else {
            int best = V_TEMPLATE;
            for (int v = V_TEMPLATE; v < V_N; v++)
                if (ms[v] > ms[best]) best = v;
            bi[k].verdict = (uint8_t)best;
            /* a block whose units were all kept and yet scores 0.5 (a
             * headline the site model finds on other pages): the reason
             * its text was kept for */
            uint32_t u = tp[best] != WN_NONE ? tp[best] : tp[V_CONTENT];
            bi[k].why = u != WN_NONE && ex ? ex->why[u] : WN_WHY_OUTSIDE;
        }
        bi[k].df = -1.0;
        if (m && d->stats[i].fingerprint) {
            bi[k].df = wn_site_model_df(m, WN_KEY_BLOCK, d->stats[i].fingerprint);
            long p = d->block_parent[k];
            bi[k].badge = threshold > 0 && bi[k].df + 1e-9 >= threshold && (p < 0 || !bi[p].badge);
        } else if (m) {
            bi[k].df = 0.0;
        }
    }
    free(blk);
    free(mass);
    free(top);
    return bi;
}

/* ---- the page's markup ---- */

enum { E_DROP, E_ELEM, E_TRANSPARENT, E_IMG, E_INPUT };

typedef struct emit {
    int kind;
    const char *name;
    int blk;        /* a <span> standing for a line-breaking element */
    int is_void;
} emit;

static emit map_element(const wn_node *x)
{
    switch (x->tag) {
    case WN_TAG_A: case WN_TAG_ABBR: case WN_TAG_ADDRESS: case WN_TAG_ARTICLE: case WN_TAG_ASIDE: case WN_TAG_B:
    case WN_TAG_BDI: case WN_TAG_BDO: case WN_TAG_BLOCKQUOTE: case WN_TAG_BUTTON: case WN_TAG_CAPTION:
    case WN_TAG_CENTER: case WN_TAG_CITE: case WN_TAG_CODE: case WN_TAG_COLGROUP: case WN_TAG_DATA: case WN_TAG_DD:
    case WN_TAG_DEL: case WN_TAG_DFN: case WN_TAG_DIR: case WN_TAG_DIV: case WN_TAG_DL: case WN_TAG_DT:
    case WN_TAG_EM: case WN_TAG_FIELDSET: case WN_TAG_FIGCAPTION: case WN_TAG_FIGURE: case WN_TAG_FONT:
    case WN_TAG_FOOTER: case WN_TAG_H1: case WN_TAG_H2: case WN_TAG_H3: case WN_TAG_H4: case WN_TAG_H5:
    case WN_TAG_H6: case WN_TAG_HEADER: case WN_TAG_HGROUP: case WN_TAG_I: case WN_TAG_INS: case WN_TAG_KBD:
    case WN_TAG_LABEL: case WN_TAG_LEGEND: case WN_TAG_LI: case WN_TAG_MAIN: case WN_TAG_MARK: case WN_TAG_MENU:
    case WN_TAG_NAV: case WN_TAG_OBJECT: case WN_TAG_OL: case WN_TAG_P: case WN_TAG_PRE: case WN_TAG_Q:
    case WN_TAG_RP: case WN_TAG_RT: case WN_TAG_RUBY: case WN_TAG_S: case WN_TAG_SAMP: case WN_TAG_SECTION:
    case WN_TAG_SMALL: case WN_TAG_SPAN: case WN_TAG_STRIKE: case WN_TAG_STRONG: case WN_TAG_SUB: case WN_TAG_SUP:
    case WN_TAG_TABLE: case WN_TAG_TBODY: case WN_TAG_TD: case WN_TAG_TFOOT: case WN_TAG_TH: case WN_TAG_THEAD:
    case WN_TAG_TIME: case WN_TAG_TR: case WN_TAG_TT: case WN_TAG_U: case WN_TAG_UL: case WN_TAG_VAR:
        return (emit){E_ELEM, wn_tag_names[x->tag], 0, 0};
    case WN_TAG_BR: case WN_TAG_COL: case WN_TAG_HR: case WN_TAG_WBR:
        return (emit){E_ELEM, wn_tag_names[x->tag], 0, 1};
    /* a form would submit, a dialog or details hide what winnow read */
    case WN_TAG_FORM: case WN_TAG_DETAILS: case WN_TAG_SUMMARY: case WN_TAG_DIALOG: case WN_TAG_FRAMESET:
        return (emit){E_ELEM, "div", 0, 0};
    /* raw-text elements in a browser: their text, as the parser read it */
    case WN_TAG_XMP: case WN_TAG_LISTING: case WN_TAG_PLAINTEXT:
        return (emit){E_ELEM, "pre", 0, 0};
    case WN_TAG_NOFRAMES:
        return (emit){E_ELEM, "span", 1, 0};
    case WN_TAG_HTML: case WN_TAG_BODY:
        return (emit){E_TRANSPARENT, NULL, 0, 0};
    case WN_TAG_IMG: return (emit){E_IMG, "span", 0, 0};
    case WN_TAG_INPUT: return (emit){E_INPUT, "span", 0, 0}; /* (type=hidden: dropped by the writer) */
    case WN_TAG_HEAD: case WN_TAG_TITLE: case WN_TAG_BASE: case WN_TAG_LINK: case WN_TAG_META: case WN_TAG_AREA:
    case WN_TAG_FRAME: case WN_TAG_SCRIPT: case WN_TAG_STYLE: case WN_TAG_IFRAME: case WN_TAG_TEMPLATE:
    case WN_TAG_NOSCRIPT: case WN_TAG_NOEMBED: case WN_TAG_SVG: case WN_TAG_EMBED: case WN_TAG_PARAM:
    case WN_TAG_SOURCE: case WN_TAG_TRACK: case WN_TAG_AUDIO: case WN_TAG_VIDEO: case WN_TAG_CANVAS:
    case WN_TAG_SELECT: case WN_TAG_TEXTAREA: case WN_TAG_DATALIST:
        return (emit){E_DROP, NULL, 0, 0};
    default:
        /* anything else (option, meter, math, custom elements, names
         * winnow does not know): a span, a line of its own where winnow
         * breaks lines */
        return (emit){E_ELEM, "span", wn_tag_has(x->tag, WN_TF_BREAK), 0};
    }
}

/* Attribute values that load and run nothing, character by character. */
static int digits_only(const char *v, size_t n, size_t max)
{
    if (!n || n > max) return 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] < '0' || v[i] > '9') return 0;
    return 1;
}

static int lang_like(const char *v, size_t n)
{
    if (!n || n > 35) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) return 0;
    }
    return 1;
}

static void safe_attrs(rout *o, const wn_dom *dom, const wn_node *x)
{
    for (uint32_t a = x->attr_begin; a < x->attr_begin + x->attr_count && a < dom->attr_count; a++) {
        const wn_attr *at = &dom->attrs[a];
        const char *k = at->name, *v = at->value;
        size_t n = at->value_len;
        int ok = 0;
        if (!strcmp(k, "colspan") || !strcmp(k, "rowspan"))
            ok = (x->tag == WN_TAG_TD || x->tag == WN_TAG_TH) && digits_only(v, n, 4);
        else if (!strcmp(k, "span")) ok = (x->tag == WN_TAG_COL || x->tag == WN_TAG_COLGROUP) && digits_only(v, n, 4);
        else if (!strcmp(k, "start")) ok = x->tag == WN_TAG_OL && digits_only(v, n, 9);
        else if (!strcmp(k, "value")) ok = x->tag == WN_TAG_LI && digits_only(v, n, 9);
        else if (!strcmp(k, "reversed")) ok = x->tag == WN_TAG_OL, n = 0;
        else if (!strcmp(k, "type"))
            ok = (x->tag == WN_TAG_OL || x->tag == WN_TAG_LI) && n == 1 && v[0] && strchr("1aAiI", v[0]);
        else if (!strcmp(k, "dir")) ok = !strcmp(v, "ltr") || !strcmp(v, "rtl") || !strcmp(v, "auto");
        else if (!strcmp(k, "lang")) ok = lang_like(v, n);
        if (!ok) continue;
        wn_buf_printf(&o->b, " %s=\"", k);
        esc(o, v, n, 1);
        wn_buf_putc(&o->b, '"');
    }
}

/* A short bit of an attribute for a placeholder: at most max bytes, cut
 * at a character boundary. */
static void attr_snip(rout *o, const wn_dom *dom, const wn_node *x, const char *name, size_t max)
{
    size_t n = 0;
    const char *v = wn_node_attr(dom, x, name, &n);
    if (!v || !n) return;
    size_t cut = n;
    if (cut > max) {
        cut = max;
        while (cut > 0 && ((unsigned char)v[cut] & 0xC0) == 0x80) cut--;
    }
    esc(o, v, cut, 0);
    if (cut < n) puts_(o, "\xE2\x80\xA6");
}

static void fmt_num(char *out, size_t cap, const char *fmt, double v)
{
    if (!isfinite(v)) snprintf(out, cap, "-");
    else snprintf(out, cap, fmt, v);
}

static void block_attrs(rout *o, const winnow_doc *d, uint32_t k, const blockinfo *b, double pages)
{
    uint32_t i = d->blocks[k];
    const wn_stats *s = &d->stats[i];
    const wn_why_def *w = &wn_why_defs[b->why];
    char num[64];
    wn_buf_printf(&o->b, " data-wn-i=\"%u\" data-wn-v=\"%s\" data-wn-why=\"%s\" data-wn-rule=\"%s\" data-wn-path=\"",
                  k, verdict_key[b->verdict], w->name, w->rule ? w->rule : "");
    esc_s(o, d->block_path[k], 1);
    wn_buf_printf(&o->b, "\" data-wn-chars=\"%u\" data-wn-ld=\"%.2f\" data-wn-hints=\"", s->chars,
                  s->chars ? (double)s->link_chars / s->chars : 0.0);
    hint_list(o, d->explain && d->explain->self_hint ? d->explain->self_hint[i] : s->hints);
    puts_(o, "\" data-wn-trusted=\"");
    if (d->explain && d->explain->boiler) hint_list(o, d->explain->boiler[i]);
    fmt_num(num, sizeof num, "%.1f", b->heur);
    wn_buf_printf(&o->b, "\" data-wn-heur=\"%s\"", num);
    fmt_num(num, sizeof num, "%.1f", b->value);
    wn_buf_printf(&o->b, " data-wn-value=\"%s\"", num);
    const wn_labels *lb = &d->labels;
    if (lb->clf && lb->clf[i] >= 0) wn_buf_printf(&o->b, " data-wn-clf=\"%.3f\"", lb->clf[i]);
    else wn_buf_printf(&o->b, " data-wn-clf=\"%s\"", lb->clf ? "not scored" : "no classifier ran");
    if (lb->smoothed) wn_buf_printf(&o->b, " data-wn-smooth=\"%.3f\"", lb->smoothed[i]);
    wn_buf_printf(&o->b, " data-wn-t=\"%.3f\"", lb->templ[i]);
    if (b->df >= 0)
        wn_buf_printf(&o->b, " data-wn-df=\"%.1f of %.1f pages (%.0f%%)\"", b->df, pages,
                      pages > 0 ? 100.0 * b->df / pages : 0.0);
    if (b->badge)
        wn_buf_printf(&o->b, " data-wn-badge=\"df %.1f \xC2\xB7 %.0f%%\"", b->df, pages > 0 ? 100.0 * b->df / pages : 0.0);
}

typedef struct page_ctx {
    const winnow_doc *d;
    const blockinfo *bi;
    int32_t *nearest;   /* per node: the nearest enclosing block, -1 when none */
    double pages;
} page_ctx;

/* Opens element i (mapped by e). */
static void open_element(rout *o, const page_ctx *pc, uint32_t i, const emit *e, long k)
{
    const winnow_doc *d = pc->d;
    const wn_dom *dom = &d->dom;
    const wn_node *x = &dom->nodes[i];
    wn_buf_printf(&o->b, "<%s", e->name);
    /* classes: the block's verdict, a unit kept or left out against its
     * block's verdict, a span standing for a block, a link */
    char cls[160] = "";
    size_t cl = 0;
    if (k >= 0) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-b wn-v-%s", verdict_key[pc->bi[k].verdict]);
    const wn_labels *lb = &d->labels;
    if (lb->unit[i] == i && d->explain && d->explain->own && d->explain->own[i].chars) {
        long nb = pc->nearest[i];
        int block_content = nb >= 0 && pc->bi[nb].verdict == V_CONTENT;
        if (block_content && !lb->keep[i]) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-x");
        if (nb >= 0 && !block_content && lb->keep[i]) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-k");
    }
    if (e->blk) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-blk");
    if (x->tag == WN_TAG_A && (x->flags & WN_NF_LINK)) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-a");
    if (e->kind == E_IMG) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-img");
    if (e->kind == E_INPUT) cl += (size_t)snprintf(cls + cl, sizeof cls - cl, " wn-ctl");
    if (cl) wn_buf_printf(&o->b, " class=\"%s\"", cls + 1);
    if (e->kind == E_ELEM) safe_attrs(o, dom, x);
    if (x->tag == WN_TAG_BUTTON) puts_(o, " type=\"button\"");
    if (k >= 0) block_attrs(o, d, (uint32_t)k, &pc->bi[k], pc->pages);
    wn_buf_putc(&o->b, '>');
    if (e->kind == E_IMG) {
        puts_(o, "image");
        size_t n = 0;
        if (wn_node_attr(dom, x, "alt", &n) && n) {
            puts_(o, ": ");
            attr_snip(o, dom, x, "alt", 80);
        }
    } else if (e->kind == E_INPUT) {
        size_t n = 0;
        const char *t = wn_node_attr(dom, x, "type", &n);
        puts_(o, "input");
        if (t && n) {
            puts_(o, " ");
            attr_snip(o, dom, x, "type", 20);
        }
        if (wn_node_attr(dom, x, "value", &n) && n) {
            puts_(o, ": ");
            attr_snip(o, dom, x, "value", 40);
        } else if (wn_node_attr(dom, x, "placeholder", &n) && n) {
            puts_(o, ": ");
            attr_snip(o, dom, x, "placeholder", 40);
        }
    }
}

/* The page from its root's children on, pre-order with an explicit stack
 * (no recursion, whatever the depth). */
static int write_page(rout *o, const page_ctx *pc)
{
    const winnow_doc *d = pc->d;
    const wn_dom *dom = &d->dom;
    uint32_t root = dom->body;
    uint32_t end = root + dom->nodes[root].size;
    uint32_t *stack = malloc(((size_t)dom->count + 1) * sizeof *stack);
    const char **names = malloc(((size_t)dom->count + 1) * sizeof *names);
    if (!stack || !names) {
        free(stack);
        free(names);
        return -1;
    }
    size_t depth = 0;
    uint32_t next_block = 0;
    while (next_block < d->nblocks && d->blocks[next_block] <= root) next_block++;
    for (uint32_t i = root + 1; i < end;) {
        const wn_node *x = &dom->nodes[i];
        while (depth && i >= stack[depth - 1] + dom->nodes[stack[depth - 1]].size) {
            depth--;
            if (names[depth]) wn_buf_printf(&o->b, "</%s>", names[depth]);
        }
        if (x->tag == WN_TAG_TEXT) {
            /* the line break a parser drops after <pre> is doubled */
            uint32_t p = x->parent;
            unsigned pt = dom->nodes[p].tag;
            if (x->text_len && dom->text[x->text_begin] == '\n' && dom->nodes[p].first_child == i &&
                (pt == WN_TAG_PRE || pt == WN_TAG_LISTING || pt == WN_TAG_XMP || pt == WN_TAG_PLAINTEXT))
                wn_buf_putc(&o->b, '\n');
            esc(o, dom->text + x->text_begin, x->text_len, 0);
            i++;
            flush(o, 0);
            continue;
        }
        emit e = map_element(x);
        long k = -1;
        while (next_block < d->nblocks && d->blocks[next_block] < i) next_block++;
        if (next_block < d->nblocks && d->blocks[next_block] == i) k = next_block;
        if (e.kind == E_INPUT) {
            const char *t = wn_node_attr(dom, x, "type", NULL);
            if (t && !strcasecmp(t, "hidden")) e.kind = E_DROP;
        }
        if (e.kind == E_DROP || (x->flags & WN_NF_HIDDEN)) {
            i += x->size ? x->size : 1;
            continue;
        }
        if (e.kind == E_TRANSPARENT) {
            stack[depth] = i;
            names[depth++] = NULL;
            i++;
            continue;
        }
        open_element(o, pc, i, &e, k);
        if (e.kind == E_IMG || e.kind == E_INPUT) {
            wn_buf_printf(&o->b, "</%s>", e.name);
            i += x->size ? x->size : 1;
            continue;
        }
        if (e.is_void) {
            i += x->size ? x->size : 1;
            continue;
        }
        stack[depth] = i;
        names[depth++] = e.name;
        i++;
    }
    while (depth) {
        depth--;
        if (names[depth]) wn_buf_printf(&o->b, "</%s>", names[depth]);
    }
    free(stack);
    free(names);
    return 0;
}

/* ---- the whole report ---- */

static void source_line(rout *o, const winnow_doc *d)
{
    puts_(o, "<p class=\"wn-src\">");
    int any = 0;
    if (d->src_file) {
        puts_(o, "source: ");
        esc_s(o, d->src_file, 0);
        if (d->src_record >= 0) wn_buf_printf(&o->b, ", record %lld", d->src_record);
        any = 1;
    }
    const char *url = d->src_url ? d->src_url : d->meta.field[WINNOW_META_URL];
    if (url && *url) {
        puts_(o, any ? " &middot; URL: " : "URL: ");
        esc_s(o, url, 0);
        any = 1;
    }
    if (!any) puts_(o, "source: (not given)");
    puts_(o, "</p>\n");
}

static winnow_status finish(rout *o)
{
    flush(o, 1);
    winnow_status st = o->b.oom ? WINNOW_E_NOMEM : o->failed ? WINNOW_E_IO : WINNOW_OK;
    wn_buf_free(&o->b);
    return st;
}

static double template_threshold(const wn_site_model *m, double share)
{
    double pages = wn_site_model_pages(m);
    double t = share * pages;
    if (pages >= 2.0 && t < 1.5) t = 1.5;
    return t;
}

winnow_status wn_report_page(winnow_engine *e, const winnow_input *in, const wn_report_options *opt,
                             winnow_write_fn write, void *ctx)
{
    if (!e || !in || !opt || !write) return WINNOW_E_ARG;
    winnow_site_options so;
    winnow_site_options_default(&so, sizeof so);
    const winnow_site_options *sop = opt->site_opt ? opt->site_opt : &so;
    const wn_site_model *m = opt->site ? wn_site_unwrap(opt->site) : NULL;
    site_hook hook = {m, sop, NULL, NULL, NULL};
    winnow_doc *d = NULL;
    winnow_status st = wn_pipeline_run(e, WN_RUN_EXPLAIN, in, m && sop->mode != WINNOW_MODE_PAGE ? &hook : NULL, &d);
    if (WINNOW_FAILED(st)) return st;

    double pages = m ? wn_site_model_pages(m) : 0.0;
    double threshold = m && opt->site_report ? template_threshold(m, opt->template_share) : 0.0;
    blockinfo *bi = block_infos(d, m, threshold);
    int32_t *nearest = malloc(((size_t)d->dom.count + 1) * sizeof *nearest);
    char *text = NULL;
    size_t text_len = 0;
    if (!bi || !nearest || winnow_render_alloc(d, WINNOW_FORMAT_TEXT, &text, &text_len) != WINNOW_OK) {
        free(bi);
        free(nearest);
        free(text);
        winnow_doc_free(d);
        return WINNOW_E_NOMEM;
    }
    {
        uint32_t next = 0;
        for (uint32_t i = 0; i < d->dom.count; i++) {
            if (next < d->nblocks && d->blocks[next] == i) nearest[i] = (int32_t)next++;
            else nearest[i] = i ? nearest[d->dom.nodes[i].parent] : -1;
        }
    }
    unsigned counts[V_N] = {0}, why_count[WN_WHY_COUNT] = {0};
    unsigned badges = 0;
    for (uint32_t k = 0; k < d->nblocks; k++) {
        counts[bi[k].verdict]++;
        why_count[bi[k].why]++;
        badges += bi[k].badge;
    }

    rout o = {.write = write, .ctx = ctx};
    wn_buf_init(&o.b);
    char nonce[33];
    make_nonce(nonce);
    const char *title = d->meta.field[WINNOW_META_TITLE] && *d->meta.field[WINNOW_META_TITLE]
                            ? d->meta.field[WINNOW_META_TITLE]
                            : d->dom.title;
    char head_title[512];
    snprintf(head_title, sizeof head_title, "%s: %s", opt->command ? opt->command : "winnow annotate",
             title && *title ? title : "(untitled page)");
    head(&o, head_title, nonce);

    puts_(&o, "<header id=\"wn-bar\">\n<h1>");
    esc_s(&o, opt->command ? opt->command : "winnow annotate", 0);
    if (opt->site_name) {
        puts_(&o, " ");
        esc_s(&o, opt->site_name, 0);
    }
    puts_(&o, ": ");
    esc_s(&o, title && *title ? title : "(untitled page)", 0);
    puts_(&o, "</h1>\n");
    source_line(&o, d);
    if (opt->page_note) {
        puts_(&o, "<p class=\"wn-note\">");
        esc_s(&o, opt->page_note, 0);
        puts_(&o, "</p>\n");
    }
    uint64_t kept = wn_kept_chars(d);
    wn_buf_printf(&o.b, "<p class=\"wn-sum\" data-status=\"%s\">%s, content chosen by %s: %llu of %u characters kept; "
                        "%u blocks",
                  winnow_status_name(d->status), winnow_status_name(d->status), winnow_doc_source(d),
                  (unsigned long long)kept, d->stats[0].chars, d->nblocks);
    if (m) {
        wn_buf_printf(&o.b, "; site model %s (weight %.2f)", d->site_pages > 0 ? "applied" : "not applied", pages);
        if (!(d->site_pages > 0))
            puts_(&o, sop->mode == WINNOW_MODE_PAGE ? " in page mode" : ": too few pages for --mode auto");
        if (opt->site_report)
            wn_buf_printf(&o.b, "; %u template blocks (block fingerprint on at least %.0f%% of the site's pages) marked "
                                "with their document frequency",
                          badges, 100.0 * opt->template_share);
    } else {
        wn_buf_printf(&o.b, "; page mode%s", d->labels.clf ? ", node classifier" : ", heuristic scorer alone");
    }
    /* the kind of page, as judged or forced (reported only: the content
     * is chosen the same way whatever the kind) */
    wn_buf_printf(&o.b, "; page type %s (confidence %.2f)", winnow_page_type_name((winnow_page_type)d->page_type),
                  (double)d->page_type_conf);
    if (d->warning[0]) {
        puts_(&o, "; warning: ");
        esc_s(&o, d->warning, 0);
    }
    puts_(&o, "</p>\n");
    legend(&o, counts);
    views(&o, opt->site_report);
    reasons_table(&o, d->rules, why_count);
    puts_(&o, "</header>\n");

    /* the page, with the page's language */
    puts_(&o, "<main id=\"wn-page\" class=\"wn-view wn-page\"");
    if (d->dom.lang && lang_like(d->dom.lang, strlen(d->dom.lang))) {
        puts_(&o, " lang=\"");
        esc_s(&o, d->dom.lang, 1);
        puts_(&o, "\"");
    }
    puts_(&o, ">\n");
    page_ctx pc = {d, bi, nearest, pages};
    int rc = write_page(&o, &pc);
    puts_(&o, "\n</main>\n");

    /* the extracted text, and the comments found */
    puts_(&o, "<section id=\"wn-text\" class=\"wn-view\" hidden>\n<h2>Extracted text</h2>\n<pre>");
    esc(&o, text, text_len, 0);
    puts_(&o, "</pre>\n");
    size_t nc = winnow_doc_comment_count(d);
    if (nc) {
        wn_buf_printf(&o.b, "<h2>Reader comments (%zu)</h2>\n", nc);
        for (size_t k = 0; k < nc; k++) {
            winnow_comment c = {sizeof c};
            if (winnow_doc_comment(d, k, &c) != WINNOW_OK) continue;
            puts_(&o, "<pre>-- ");
            esc_s(&o, *c.author ? c.author : "(no author)", 0);
            if (*c.date) {
                puts_(&o, ", ");
                esc_s(&o, c.date, 0);
            }
            puts_(&o, "\n");
            esc_s(&o, c.text, 0);
            puts_(&o, "</pre>\n");
            flush(&o, 0);
        }
    }
    puts_(&o, "</section>\n");
    if (opt->site_report) fingerprints(&o, opt, pages, 1);
    tail(&o, nonce);
    free(text);
    free(bi);
    free(nearest);
    winnow_doc_free(d);
    if (rc != 0) {
        wn_buf_free(&o.b);
        return WINNOW_E_NOMEM;
    }
    return finish(&o);
}

winnow_status wn_report_site_only(const wn_report_options *opt, winnow_write_fn write, void *ctx)
{
    if (!opt || !write || !opt->site) return WINNOW_E_ARG;
    const wn_site_model *m = wn_site_unwrap(opt->site);
    rout o = {.write = write, .ctx = ctx};
    wn_buf_init(&o.b);
    char nonce[33];
    make_nonce(nonce);
    char title[512];
    snprintf(title, sizeof title, "%s %s", opt->command ? opt->command : "winnow site --report",
             opt->site_name ? opt->site_name : "");
    head(&o, title, nonce);
    puts_(&o, "<header id=\"wn-bar\">\n<h1>");
    esc_s(&o, title, 0);
    puts_(&o, "</h1>\n");
    if (opt->page_note) {
        puts_(&o, "<p class=\"wn-note\">");
        esc_s(&o, opt->page_note, 0);
        puts_(&o, "</p>\n");
    }
    puts_(&o, "</header>\n");
    fingerprints(&o, opt, wn_site_model_pages(m), 0);
    tail(&o, nonce);
    return finish(&o);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

winnow_status wn_report_coverage(winnow_engine *e, const winnow_input *in, const winnow_site *site, double share,
                                 size_t *fingerprints_out, size_t *chars_out)
{
    *fingerprints_out = 0;
    *chars_out = 0;
    const wn_site_model *m = wn_site_unwrap(site);
    if (!m) return WINNOW_E_ARG;
    winnow_doc *d = NULL;
    winnow_status st = winnow_extract(e, in, &d);
    if (WINNOW_FAILED(st)) return st;
    double threshold = template_threshold(m, share);
    /* distinct fingerprints: sorted copies */
    uint64_t *fp = malloc(((size_t)d->nblocks + 1) * sizeof *fp);
    uint8_t *tmpl = calloc((size_t)d->nblocks + 1, 1);
    if (!fp || !tmpl) {
        free(fp);
        free(tmpl);
        winnow_doc_free(d);
        return WINNOW_E_NOMEM;
    }
    size_t nfp = 0, chars = 0;
    for (uint32_t k = 0; k < d->nblocks; k++) {
        uint64_t f = d->stats[d->blocks[k]].fingerprint;
        if (!f || wn_site_model_df(m, WN_KEY_BLOCK, f) + 1e-9 < threshold) continue;
        tmpl[k] = 1;
        fp[nfp++] = f;
        long p = d->block_parent[k];
        if (p < 0 || !tmpl[p]) chars += d->stats[d->blocks[k]].chars;
    }
    qsort(fp, nfp, sizeof *fp, cmp_u64);
    size_t distinct = 0;
    for (size_t a = 0; a < nfp; a++) distinct += a == 0 || fp[a] != fp[a - 1];
    free(fp);
    free(tmpl);
    winnow_doc_free(d);
    *fingerprints_out = distinct;
    *chars_out = chars;
    return WINNOW_OK;
}
