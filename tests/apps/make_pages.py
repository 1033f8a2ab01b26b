#!/usr/bin/env python3
"""Pages for the dedup and index tests, built from real pages of
tests/data/pages: an article's text put into another page's template.

A template is a real page with its article cut out: from the block element
(h1-h6, p, div, header, article, section) that holds the first line of the
page's gold text to the end of the block that holds the last line. The
article put in its place is a gold text, as <h1> and <p> paragraphs; the
page's <title> becomes the article's first line.

usage: make_pages.py PAGES_DIR OUT_DIR
writes  OUT/a-art1.html  art1 (aljazeera's story) in aljazeera's template
        OUT/b-art1.html  art1 in thespacereview's template
        OUT/a-art2.html  art2 (the first 40 lines of thespacereview's story)
                         in aljazeera's template
        OUT/b-art2.html  art2 in thespacereview's template
"""
import html
import os
import re
import sys

OPEN = re.compile(rb"<(h[1-6]|p|div|header|article|section)[\s>]", re.I)
CLOSE = re.compile(rb"</(h[1-6]|p|div|article|section)\s*>", re.I)


def gold(pages, name):
    with open(os.path.join(pages, name + ".gold.txt"), encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip()]


def template(pages, name):
    with open(os.path.join(pages, name + ".html"), "rb") as f:
        raw = f.read()
    g = gold(pages, name)
    body = re.search(rb"<body[\s>]", raw, re.I)
    # the first gold line found in the page, and the last one after it:
    # six words, with markup, entities and punctuation allowed between them
    def words(line, last):
        w = re.findall(r"\w+", line)
        w = w[-6:] if last else w[:6]
        return re.compile(rb"(?:\s|<[^>]*>|&#?\w+;|[^\w<])*".join(re.escape(x.encode()) for x in w))
    a = next((m for m in (words(l, 0).search(raw, body.end()) for l in g) if m), None)
    b = next((m for m in (words(l, 1).search(raw, a.end()) for l in reversed(g)) if m), None) if a else None
    if not a or not b:
        sys.exit("make_pages.py: cannot find the article of %s" % name)
    pa = list(OPEN.finditer(raw, body.end(), a.start()))[-1].start()
    pb = CLOSE.search(raw, b.end()).end()
    return raw[:pa], raw[pb:]


def page(tpl, lines):
    pre, post = tpl
    body = ("<h1>%s</h1>\n" % html.escape(lines[0]) + "".join("<p>%s</p>\n" % html.escape(l) for l in lines[1:])).encode()
    out = pre + body + post
    return re.sub(rb"(?is)<title[^>]*>.*?</title>", lambda m: b"<title>" + html.escape(lines[0]).encode() + b"</title>",
                  out, count=1)


def main():
    pages, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    tpl = {"a": template(pages, "aeb-aljazeera.com"), "b": template(pages, "aeb-thespacereview.com")}
    art = {"art1": gold(pages, "aeb-aljazeera.com"), "art2": gold(pages, "aeb-thespacereview.com")[:40]}
    for t in tpl:
        for a in art:
            with open(os.path.join(out, "%s-%s.html" % (t, a)), "wb") as f:
                f.write(page(tpl[t], art[a]))


if __name__ == "__main__":
    main()
