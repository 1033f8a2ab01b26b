/* The report's own parts around the page: the document head (the
 * Content-Security-Policy, the CSS, the script with its nonce), the legend
 * of verdicts, the table of reasons and rules, the switch between views
 * and the site's fingerprint table. Fixed text for the most part, kept
 * apart from the code that walks the page. */
#include "report_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static const char *const verdict_name[V_N] = { "content", "template", "comments", "link list", "boilerplate" };
static const char *const verdict_text[V_N] = {
    "kept: the main content",
    "left out: outside the content block, or on many of the site's pages",
    "left out: reader comments, a class of their own (extract --comments shows them)",
    "left out: mostly links",
    "left out: a boilerplate name or landmark (nav, footer, share, related, ...), teasers, script text",
};

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
void wn_report_make_nonce(char out[33])
{
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long x = (unsigned long long)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (unsigned long long)ts.tv_sec ^
                               ((unsigned long long)getpid() << 32);
        for (size_t i = 0; i < sizeof r; i++) {
            x ^= x >> 29;
            x *= 0xBF58476D1CE4E5B9ull;
            r[i] = (unsigned char)(x >> 56);
        }
    }
    for (size_t i = 0; i < sizeof r; i++) snprintf(out + 2 * i, 3, "%02x", r[i]);
}

void wn_report_head(rout *o, const char *title, const char *nonce)
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

void wn_report_tail(rout *o, const char *nonce)
{
    puts_(o, "<div id=\"wn-tip\" hidden></div>\n<script nonce=\"");
    puts_(o, nonce);
    puts_(o, "\">\n");
    puts_(o, script);
    puts_(o, "</script>\n</body></html>\n");
}

void wn_report_legend(rout *o, const unsigned *counts)
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
void wn_report_reasons_table(rout *o, const wn_rules *rules, const unsigned *count)
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
        wn_buf_printf(&o->b,
                      "\"><td>%s</td><td><span class=\"wn-sw wn-v-%s\"></span> %s</td><td>%s</td><td>%u</td><td>",
                      w->name, verdict_key[v], verdict_name[v], rule, count ? count[k] : 0);
        esc_s(o, w->text, 0);
        puts_(o, "</td></tr>\n");
    }
    puts_(o, "</table></details>\n");
}

void wn_report_views(rout *o, int fps)
{
    puts_(o,
          "<div id=\"wn-views\"><button type=\"button\" data-view=\"wn-page\" aria-pressed=\"true\">Annotated "
          "page</button><button type=\"button\" data-view=\"wn-text\" aria-pressed=\"false\">Extracted text</button>");
    if (fps) puts_(o, "<button type=\"button\" data-view=\"wn-fps\" aria-pressed=\"false\">Site fingerprints</button>");
    puts_(o, " <button type=\"button\" id=\"wn-jump\">Go to the content</button></div>\n");
}

void wn_report_fingerprints(rout *o, const wn_report_options *opt, double pages, int hidden)
{
    wn_buf_printf(&o->b,
                  "<section id=\"wn-fps\" class=\"wn-view\"%s>\n<h2>The site's most frequent fingerprints</h2>\n",
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
