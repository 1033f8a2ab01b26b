#!/usr/bin/env python3
"""The reports of `winnow annotate` and `winnow site --report`, checked as
files and, in a real browser, as a person sees them.

usage: report_check.py static  WINNOW SRCDIR
       report_check.py browser WINNOW SRCDIR

static (no browser):
  - hostile pages (</script> and <!-- in text and attributes, quotes,
    scripts, event handlers, <base>, <meta refresh>, stylesheets, remote
    images, iframes, SVG, CSS url()s, javascript: links, control bytes,
    invalid UTF-8, names like the report's own attributes): the report has
    one script, the report's own with its nonce; no attribute that loads
    or runs anything; every hostile string is text;
  - every block candidate of `winnow blocks` is in the report once, with
    the verdict class that matches its "content" field, its DOM path and
    characters;
  - binary input fails cleanly with no file left behind; a huge page
    (several MB, thousands of blocks) and a page nested thousands deep
    give complete reports;
  - a page of a WARC chosen by record number and by URL; a site report on
    a generated site: template blocks with document frequencies, the
    fingerprint table, which page and why.
browser (Debian's chromium, headless; one launch per report):
  - Chromium renders each report (two real pages, the hostile page, the
    site report) to a screenshot and dumps the DOM after the script ran
    (--screenshot, --dump-dom, --window-size=1200,2000, the report opened
    at #content); its log (--enable-logging=stderr) has no console message:
    no error, no blocked load, no script of the page;
  - the dumped DOM lists every block with its verdict class, as `winnow
    blocks` says for the same page, and each block's box (data-wn-box,
    written by the report's script);
  - the screenshot's pixels in the box of the largest visible block of
    each verdict (less the boxes of blocks of other verdicts inside it)
    have that verdict's colour.
Without chromium the browser part prints a SKIP line and exits 77 (CTest's
SKIP_RETURN_CODE); scripts/install-deps.sh installs chromium, and CI runs it.
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngread  # noqa: E402

COLOURS = {  # the report's CSS: --c, --t, --m, --l, --b
    "content": (0xB9, 0xEF, 0xB9),
    "template": (0xD9, 0xD9, 0xD9),
    "comments": (0xC4, 0xDC, 0xFF),
    "linklist": (0xFF, 0xE0, 0x9A),
    "boilerplate": (0xFF, 0xC2, 0xC2),
}

failures = []
passed = 0


def ok(what):
    global passed
    passed += 1
    print(f"ok: {what}")


def bad(what):
    failures.append(what)
    print(f"FAIL: {what}")


def check(cond, what):
    (ok if cond else bad)(what)
    return cond


def run(args, **kw):
    return subprocess.run(args, capture_output=True, **kw)


class Report(html.parser.HTMLParser):
    """The elements of a report: blocks, scripts, attributes, text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks = {}     # data-wn-i -> attrs
        self.dup = 0
        self.scripts = []    # attrs of each <script>
        self.script_text = []
        self.attrs = []      # (tag, name, value) of every attribute
        self.tags = []
        self.root = {}
        self.text = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        for k, v in attrs:
            self.attrs.append((tag, k, v))
        if tag == "html":
            self.root = a
        if tag == "script":
            self.scripts.append(a)
            self.in_script = True
        if "data-wn-i" in a:
            i = int(a["data-wn-i"])
            self.dup += i in self.blocks
            self.blocks[i] = a

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        (self.script_text if self.in_script else self.text).append(data)


def parse(text):
    p = Report()
    p.feed(text)
    p.close()
    return p


def blocks_of(winnow, page, extra=()):
    r = run([winnow, "blocks", "-q", *extra, page])
    # (lines end at line feeds only: JSON strings may hold U+2028 and other separators)
    return [json.loads(line) for line in r.stdout.decode().split("\n") if line.strip()]


def check_blocks(rep, blocks, what):
    """Every block once, with the verdict class its content flag says."""
    if not check(len(blocks) > 0, f"{what}: winnow blocks lists blocks ({len(blocks)})"):
        return
    check(rep.dup == 0, f"{what}: no block appears twice in the report")
    wrong = []
    for b in blocks:
        a = rep.blocks.get(b["i"])
        if a is None:
            wrong.append(f"block {b['i']} missing")
            continue
        v = a.get("data-wn-v", "")
        cls = a.get("class", "").split()
        if f"wn-v-{v}" not in cls or v not in COLOURS:
            wrong.append(f"block {b['i']}: class {cls} does not carry verdict {v!r}")
        if (v == "content") != b["content"]:
            wrong.append(f"block {b['i']}: verdict {v}, winnow blocks says content={b['content']}")
        if a.get("data-wn-path") != b["path"] or a.get("data-wn-chars") != str(b["chars"]):
            wrong.append(f"block {b['i']}: path/chars {a.get('data-wn-path')}/{a.get('data-wn-chars')} != "
                         f"{b['path']}/{b['chars']}")
        if not a.get("data-wn-why") or "data-wn-rule" not in a:
            wrong.append(f"block {b['i']}: no deciding reason")
    extra = set(rep.blocks) - {b["i"] for b in blocks}
    if extra:
        wrong.append(f"blocks in the report that winnow blocks does not list: {sorted(extra)[:5]}")
    check(not wrong, f"{what}: all {len(blocks)} blocks with verdicts matching winnow blocks"
          + ("" if not wrong else ": " + "; ".join(wrong[:5])))


SAFE_ATTRS = {"class", "colspan", "rowspan", "span", "start", "value", "reversed", "type", "dir", "lang", "id",
              "hidden", "aria-pressed", "nonce", "charset", "http-equiv", "content", "name", "rel", "href"}


def check_safe(rep, what, nonce_required=True):
    """One script (the report's, with a nonce), nothing that loads or runs."""
    check(len(rep.scripts) == 1 and rep.scripts[0].get("nonce"), f"{what}: one <script>, the report's with a nonce")
    loads = []
    for tag, k, v in rep.attrs:
        if k.startswith("data-"):
            continue
        if k.startswith("on") or k in ("src", "srcset", "style", "action", "formaction", "background", "poster",
                                       "xlink:href", "ping", "srcdoc", "data"):
            loads.append(f"<{tag} {k}={v!r}>")
        elif k == "href" and not (tag == "link" and v == "data:,"):
            loads.append(f"<{tag} href={v!r}>")
        elif k not in SAFE_ATTRS:
            loads.append(f"<{tag} {k}>")
    check(not loads, f"{what}: no attribute that loads or runs anything" + ("" if not loads else f": {loads[:4]}"))
    tags = set(rep.tags) & {"iframe", "frame", "img", "embed", "video", "audio", "svg", "base", "form", "input",
                            "textarea", "select", "template", "math", "style", "picture", "source", "applet"}
    check(tags <= {"style"} and rep.tags.count("style") == 1, f"{what}: no element that loads or embeds ({sorted(tags)})")
    # an <object> stays for its fallback content (the parser's scope), with no attribute to load from
    objects = [k for t, k, v in rep.attrs if t == "object"]
    check(not objects, f"{what}: <object> elements carry no attribute ({objects[:3]})")
    metas = [v for t, k, v in rep.attrs if t == "meta" and k == "http-equiv"]
    check(metas == ["Content-Security-Policy"], f"{what}: the only http-equiv is the Content-Security-Policy")


HOSTILE = (
    '<!DOCTYPE html><html><head><title>Hostile </title><script>document.documentElement.setAttribute("data-pwned","title")'
    '</script></title>\n'
    '<base href="http://203.0.113.9/">\n<meta http-equiv="refresh" content="0;url=http://203.0.113.9/">\n'
    '<link rel="stylesheet" href="http://203.0.113.9/a.css"><style>@import url(http://203.0.113.9/b.css);'
    'body{background:url(http://203.0.113.9/c.png)}</style>\n'
    '<script>document.documentElement.setAttribute("data-pwned","head")</script></head>\n'
    '<body onload="document.documentElement.setAttribute(\'data-pwned\',\'onload\')">\n'
    '<nav class="menu"><ul><li><a href="javascript:alert(1)">Home</a></li><li><a href="/news">News</a></li>'
    '<li><a href="/sport">Sport</a></li><li><a href="/weather">Weather and the long range outlook</a></li></ul></nav>\n'
    '<article><h1 data-wn-i="99" data-wn-v="content">The hostile page &lt;/script&gt; headline</h1>\n'
    '<p style="background:url(http://203.0.113.9/d.png)" onclick="x()" data-wn-box="0 0 1 1">Plain prose with a '
    'literal &lt;/script&gt;&lt;script&gt;alert("x")&lt;/script&gt; in it, a comment opener &lt;!-- and quotes '
    '" \' ` that must all stay text, as every sentence of this paragraph should, said the reporter today.</p>\n'
    '<p title="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;" class="x&quot; onmouseover=&quot;alert(3)">'
    'A second paragraph of running text, long enough to be kept by the scorer: it has commas, stops, and '
    'words, and it tells of the council meeting, the bridge repairs and the harbour festival.</p>\n'
    '<img src="http://203.0.113.9/e.png" alt="a &quot;photo&quot; </script>" onerror="alert(4)">'
    '<iframe src="http://203.0.113.9/f.html">iframe text</iframe>'
    '<svg><image href="http://203.0.113.9/g.png"/><script>alert(5)</script><text>svg text</text></svg>'
    '<object data="http://203.0.113.9/h.swf"><param name="movie" value="h.swf">Object fallback text for the '
    'video, which describes the player shown in its place.</object>'
    '<form action="http://203.0.113.9/post"><input type="image" src="http://203.0.113.9/i.png">'
    '<input name="q" value="&quot;&gt;&lt;b&gt;" onfocus="alert(6)"><button formaction="http://203.0.113.9/">Go</button>'
    '</form>\n'
    '<p>Control bytes \x01\x02\x0b\x7f and invalid UTF-8 \xff\xfe\xc3( and a lone surrogate \xed\xa0\x80 end here, '
    'in a paragraph that is otherwise ordinary running text with commas, stops and words.</p>\n'
    '<plaintext-like>not a plaintext element</plaintext-like><xmp><b>xmp is raw text</b></xmp>'
    '<noscript><img src="http://203.0.113.9/j.png"></noscript><template><img src="http://203.0.113.9/k.png">'
    '</template><video src="http://203.0.113.9/l.mp4" poster="http://203.0.113.9/m.png"></video>'
    '<div style="display:none">hidden text</div><marquee>moving text</marquee>'
    '<my-widget data-x="1" onclick="alert(7)">custom element text</my-widget>'
    '<table background="http://203.0.113.9/n.png"><tr><td colspan="2&quot; onclick=&quot;alert(8)">cell</td>'
    '<td colspan="3">three</td></tr></table>\n'
    '<!-- a comment </script><script>alert(9)</script> -->\n'
    '</article>\n<footer class="site-footer"><p>Copyright and the site\'s terms, privacy and cookies.</p>'
    '<a href="http://203.0.113.9/">About</a></footer>\n'
    '<script>document.documentElement.setAttribute("data-pwned","body")</script></body></html>\n'
).encode("latin-1")
HOSTILE_TEXTS = ['</script><script>alert("x")</script>', "<!--", "The hostile page </script> headline"]


def hostile_page(tmp):
    path = os.path.join(tmp, "hostile.html")
    with open(path, "wb") as f:
        f.write(HOSTILE)
    return path


def huge_page(tmp):
    """About 6 MB: 20,000 paragraphs in sections, and a branch nested 3,000 deep."""
    path = os.path.join(tmp, "huge.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html><html><head><title>Huge</title></head><body><nav class='menu'><ul>")
        f.write("".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(300)))
        f.write("</ul></nav><main>")
        for s in range(200):
            f.write(f"<section><h2>Part {s}</h2>")
            for k in range(100):
                f.write(f"<p>Paragraph {s}.{k}: the council met again, and the harbour works went on; "
                        f"residents said the bridge &amp; the ferry <b>must</b> stay open &lt;/p&gt;.</p>")
            f.write("</section>")
        f.write("<div>" * 3000 + "deep text at the bottom of a long nest, with words." + "</div>" * 3000)
        f.write("</main></body></html>")
    return path


def gen_site(src, tmp):
    out = os.path.join(tmp, "site.warc")
    r = run([sys.executable, os.path.join(src, "tests", "site", "gen_site.py"), out, "--pages", "12", "--seed", "14",
             "--format", "warc", "--host", "www.courier.example"])
    if r.returncode != 0:
        raise SystemExit(f"gen_site.py failed: {r.stderr.decode()}")
    return out


# ---- static ----

def static(winnow, src):
    tmp = tempfile.mkdtemp(prefix="wn-report-")
    try:
        # hostile page
        page = hostile_page(tmp)
        out = os.path.join(tmp, "hostile-report.html")
        r = run([winnow, "annotate", page, "-o", out])
        if check(r.returncode == 0 and os.path.exists(out), f"annotate hostile page (exit {r.returncode})"):
            text = open(out, "rb").read()
            check(b"203.0.113.9" not in text.replace(b"http://203.0.113.9", b""), "hostile: no bare remote host")
            rep = parse(text.decode("utf-8"))
            check_safe(rep, "hostile")
            body_text = "".join(rep.text)
            for s in HOSTILE_TEXTS:
                check(s in body_text, f"hostile: {s!r} is text of the report")
            check("data-pwned" not in text.decode(), "hostile: no trace of the page's scripts")
            check(all(s not in "".join(rep.script_text) for s in ("alert", "pwned")), "hostile: the script is ours")
            check_blocks(rep, blocks_of(winnow, page), "hostile")
            check("\ufffd" in body_text, "hostile: invalid bytes and control characters became U+FFFD")
            bad_ctl = [c for c in body_text if ord(c) < 32 and c not in "\t\n\r\f"]
            check(not bad_ctl, f"hostile: no control characters in the text ({len(bad_ctl)})")
        # the same page on stdin, and as a WARC record chosen by number and by URL
        r = run([winnow, "annotate", "-"], input=HOSTILE)
        check(r.returncode == 0 and r.stdout.startswith(b"<!DOCTYPE html>"), "annotate - (stdin) to stdout")
        warc = gen_site(src, tmp)
        for sel, what in (("3", "record number"), ("https://www.courier.example/story-00005", "URL")):
            out = os.path.join(tmp, f"warc-{what[0]}.html")
            r = run([winnow, "annotate", warc, "--record", sel, "-o", out])
            if check(r.returncode == 0, f"annotate a WARC page by {what} (exit {r.returncode}: {r.stderr.decode()[:200]})"):
                rep = parse(open(out, encoding="utf-8").read())
                src_line = "".join(rep.text)
                want = "record 3" if what == "record number" else "story-00005"
                check(want in src_line, f"annotate by {what}: the report names the page ({want})")
        pages_dir = os.path.join(src, "tests", "data", "pages")
        out = os.path.join(tmp, "dir-pick.html")
        r = run([winnow, "annotate", pages_dir, "--record", "synthetic-caption.html", "-o", out])
        check(r.returncode == 0 and "synthetic-caption.html" in "".join(parse(open(out, encoding="utf-8").read()).text),
              "annotate a directory's file chosen by name")
        r = run([winnow, "annotate", warc, "--record", "999", "-o", os.path.join(tmp, "none.html")])
        check(r.returncode == 1 and b"record 999" in r.stderr and not os.path.exists(os.path.join(tmp, "none.html")),
              "annotate --record of a missing page: exit 1, a message, no file")
        r = run([winnow, "annotate", warc, "-o", os.path.join(tmp, "first.html")])
        check(r.returncode == 0 and b"several pages" in r.stderr, "annotate a WARC without --record: the first page, "
              "and a note saying so")
        # binary
        binp = os.path.join(tmp, "binary.html")
        with open(binp, "wb") as f:
            f.write(bytes(range(256)) * 64 + b"\x00" * 4096)
        bout = os.path.join(tmp, "binary-report.html")
        r = run([winnow, "annotate", binp, "-o", bout])
        left = [n for n in os.listdir(tmp) if n.startswith(".") or n.startswith("binary-report")]
        check(r.returncode == 1 and b"not HTML" in r.stderr and not left,
              f"binary input: exit 1, the reason, no file left (exit {r.returncode}, {left})")
        r = run([winnow, "annotate", os.path.join(tmp, "missing.html"), "-o", bout])
        check(r.returncode == 1 and not os.path.exists(bout), "missing input: exit 1, no file")
        r = run([winnow, "annotate"])
        check(r.returncode == 2, "annotate without a page: usage error (exit 2)")
        # huge and deep
        page = huge_page(tmp)
        out = os.path.join(tmp, "huge-report.html")
        r = run([winnow, "annotate", page, "-o", out])
        if check(r.returncode == 0, f"annotate a {os.path.getsize(page) >> 20} MB page nested 3000 deep"):
            rep = parse(open(out, encoding="utf-8").read())
            check_blocks(rep, blocks_of(winnow, page), "huge")
        # site report
        db = os.path.join(tmp, "site.db")
        r = run([winnow, "learn", "-q", warc, "--db", db])
        check(r.returncode == 0, "learn the generated site")
        out = os.path.join(tmp, "site-report.html")
        r = run([winnow, "site", "courier.example", "--db", db, "--report", warc, "-o", out])
        if check(r.returncode == 0, f"site --report (exit {r.returncode}: {r.stderr.decode()[:300]})"):
            text = open(out, encoding="utf-8").read()
            rep = parse(text)
            check_safe(rep, "site report")
            badges = [a for a in rep.blocks.values() if a.get("data-wn-badge")]
            check(badges and all(a["data-wn-badge"].startswith("df ") for a in badges),
                  f"site report: template blocks carry their document frequency ({len(badges)})")
            check(all(a.get("data-wn-df") for a in rep.blocks.values()), "site report: every block has its df")
            check('id="wn-fp"' in text and text.count("<tr") > 10, "site report: the fingerprint table")
            check("Shown on record" in text and "template block fingerprints" in text,
                  "site report: says which page it shows and why")
        r = run([winnow, "site", "courier.example", "--db", db, "--report", "-o", os.path.join(tmp, "only.html")])
        check(r.returncode == 0 and "No page was given" in open(os.path.join(tmp, "only.html"), encoding="utf-8").read(),
              "site --report without pages: the table, and a note")
        r = run([winnow, "site", "courier.example", "--db", db, warc])
        check(r.returncode == 2, "site NAME PAGES without --report: usage error")
        # annotate with the site model: document frequencies
        out = os.path.join(tmp, "annotate-db.html")
        r = run([winnow, "annotate", warc, "--record", "2", "--db", db, "-o", out])
        if check(r.returncode == 0, "annotate --db"):
            rep = parse(open(out, encoding="utf-8").read())
            check(rep.blocks and all("pages (" in a.get("data-wn-df", "") for a in rep.blocks.values()),
                  "annotate --db: every block shows its site document frequency")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---- browser ----

def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def render(chromium, report, tmp, fragment="#content"):
    """One launch: the screenshot, the DOM after the script ran, the log."""
    png = report + ".png"
    profile = tempfile.mkdtemp(prefix="wn-chromium-", dir=tmp)
    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1200,2000", "--hide-scrollbars",
            f"--user-data-dir={profile}", "--no-first-run", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--enable-logging=stderr", "--v=0",
            f"--screenshot={png}", "--dump-dom", "file://" + os.path.abspath(report) + fragment]
    r = run(args, timeout=240)
    return r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace"), png


def pixel_checks(rep, png, what):
    pane = [int(v) for v in rep.root.get("data-wn-pane", "0 0 0 0").split()]
    img = pngread.read_png(png, max_rows=pane[1] + pane[3])
    scale = img.width / 1200.0
    boxes = []
    for i, a in rep.blocks.items():
        b = [int(v) for v in a.get("data-wn-box", "0 0 0 0").split()]
        boxes.append((i, a.get("data-wn-v"), b))
    px0, py0, pw, ph = pane

    def visible(b):
        x0, y0 = max(b[0], px0), max(b[1], py0)
        x1, y1 = min(b[0] + b[2], px0 + pw), min(b[1] + b[3], py0 + ph)
        return (x0, y0, x1, y1) if x1 - x0 > 8 and y1 - y0 > 8 else None

    for verdict, colour in COLOURS.items():
        best, best_area = None, 0
        for i, v, b in boxes:
            if v != verdict:
                continue
            vis = visible(b)
            if vis and (vis[2] - vis[0]) * (vis[3] - vis[1]) > best_area:
                best, best_area = (i, vis), (vis[2] - vis[0]) * (vis[3] - vis[1])
        if not best:
            if verdict == "content":
                bad(f"{what}: no content block in the window after #content")
            continue
        i, (x0, y0, x1, y1) = best
        # blocks of other verdicts inside it are left out
        holes = [vis for j, v, b in boxes if v != verdict and (vis := visible(b))
                 and vis[0] >= x0 and vis[1] >= y0 and vis[2] <= x1 and vis[3] <= y1]
        same = total = 0
        for y in range(y0 + 3, y1 - 3, 3):
            for x in range(x0 + 3, x1 - 3, 3):
                if any(h[0] <= x < h[2] and h[1] <= y < h[3] for h in holes):
                    continue
                p = img.pixel(int(x * scale), int(y * scale))
                total += 1
                same += all(abs(p[k] - colour[k]) <= 3 for k in range(3))
        if total < 20:
            if verdict == "content":
                bad(f"{what}: content block {i} shows too few pixels of its own ({total})")
            continue
        share = same / total
        check(share >= 0.5, f"{what}: {verdict} block {i}: {share:.0%} of {total} pixels in its box "
              f"are the {verdict} colour #{''.join(f'{c:02x}' for c in colour)}")


def browser(winnow, src):
    chromium = find_chromium()
    if not chromium:
        print("SKIP: chromium is not installed: the reports were not rendered in a browser "
              "(scripts/install-deps.sh installs Debian's chromium; CI runs this test)")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="wn-report-browser-")
    try:
        pages_dir = os.path.join(src, "tests", "data", "pages")
        warc = gen_site(src, tmp)
        db = os.path.join(tmp, "site.db")
        run([winnow, "learn", "-q", warc, "--db", db])
        jobs = []
        for name in ("aeb-aljazeera.com.html", "aeb-thespacereview.com.html"):
            jobs.append((name, os.path.join(pages_dir, name), ["annotate"], []))
        jobs.append(("hostile", hostile_page(tmp), ["annotate"], []))
        jobs.append(("site report", warc, ["site", "courier.example", "--db", db, "--report"], ["--db", db]))
        for what, page, cmd, bflags in jobs:
            out = os.path.join(tmp, what.replace(" ", "-") + ".report.html")
            r = run([winnow, *cmd, page, "-o", out])
            if not check(r.returncode == 0, f"{what}: {' '.join(cmd)} (exit {r.returncode})"):
                continue
            dom, log, png = render(chromium, out, tmp)
            console = [line for line in log.splitlines() if ":CONSOLE" in line]
            check(not console, f"{what}: no console message in chromium's log" +
                  ("" if not console else ": " + console[0][:300]))
            rep = parse(dom)
            check(rep.root.get("data-wn-ready") == str(len(rep.blocks)) and "data-wn-error" not in rep.root,
                  f"{what}: the report's script ran to its end ({rep.root.get('data-wn-ready')} blocks boxed)")
            check("data-pwned" not in rep.root, f"{what}: no script of the page ran")
            if cmd[0] == "annotate":
                blocks = blocks_of(winnow, page, bflags)
            else:
                # the page the site report chose: its record number, from the header
                text = "".join(rep.text)
                at = text.find("record ")
                rec = text[at + 7:].split()[0].strip(",") if at >= 0 else "0"
                blocks = blocks_for_record(winnow, page, rec, db, tmp)
            check_blocks(rep, blocks, what)
            boxed = [a for a in rep.blocks.values() if len(a.get("data-wn-box", "").split()) == 4]
            check(len(boxed) == len(rep.blocks), f"{what}: every block has its box")
            if os.path.exists(png):
                pixel_checks(rep, png, what)
            else:
                bad(f"{what}: chromium wrote no screenshot")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def blocks_for_record(winnow, warc, rec, db, tmp):
    """winnow blocks of one record of a WARC, with the site model."""
    outdir = os.path.join(tmp, "blocks-" + rec)
    r = run([winnow, "blocks", "-q", "--db", db, warc, "-o", outdir + "/"])
    name = None
    for line in open(os.path.join(outdir, "manifest.tsv"), encoding="utf-8").read().splitlines()[1:]:
        f = line.split("\t")
        if f[2] == rec:
            name = f[0]
    if r.returncode != 0 or not name:
        return []
    return [json.loads(x) for x in open(os.path.join(outdir, name), encoding="utf-8").read().split("\n") if x.strip()]


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("static", "browser"):
        raise SystemExit(__doc__)
    mode, winnow, src = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    (static if mode == "static" else browser)(winnow, src)
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
