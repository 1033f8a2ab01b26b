#!/usr/bin/env python3
"""Generate a synthetic but realistic multi-page site for the site-model tests.

Every page shares one template: a header with a nav menu, a "related
stories" box whose links change from page to page, a footer, and a note
that closes every article: a long sentence-like paragraph inside the
article's own container, with no boilerplate class name, so the page
scorer alone keeps it and only site evidence can tell it is template. The
article's headline and paragraphs come from a seeded random generator
(common words and made-up names), so they differ between pages.

usage: gen_site.py OUT --pages N [--start K] [--seed S] [--template A|B]
                       [--format dir|jsonl|warc] [--host HOST] [--truth DIR]
       gen_site.py --print-template A|B FIELD   (note, footer, nav, related)

  dir    OUT is a directory; page K is OUT/page-KKKKK.html
  jsonl  OUT is a .jsonl file of {"url", "html"} objects
  warc   OUT is an uncompressed .warc file of response records

--truth DIR writes DIR/page-KKKKK.txt: the headline and the article's
paragraphs, one per line, which a site-mode extraction must keep.

Page K is the same whatever --start and --pages are, so one site can be
written in several parts. --template B is a redesign: other nav, note,
footer and related box, same kind of articles.
"""
import argparse
import json
import random
import sys

WORDS = (
    "harbour river council budget school winter market railway station bridge village farmers "
    "teachers nurses engineers museum library garden orchard festival concert theatre season "
    "weather storm flood drought harvest ferry island coast valley mountain forest wildlife "
    "report survey study plan proposal decision meeting committee mayor residents visitors "
    "project funding repairs construction traffic parking cyclists walkers children parents "
    "students volunteers shop bakery cafe restaurant kitchen recipe bread cheese apples "
    "history archive letter photograph exhibition painting sculpture music choir band "
    "morning evening afternoon week month year decade century road street square harbourside"
).split()
VERBS = (
    "opened closed visited described reported approved rejected discussed welcomed planned "
    "repaired built painted measured counted recorded collected delivered followed crossed "
    "reached explained suggested announced celebrated remembered expected finished started"
).split()
ADJ = (
    "old new small large quiet busy early late local regional northern southern wooden stone "
    "bright dark careful patient famous modest heavy light narrow wide steep gentle"
).split()


def _lexicon():
    """Common words plus a few thousand made-up ones (names of people,
    places and things), so that pages differ in the terms they use."""
    rng = random.Random(7)
    onset = "b c d f g h j k l m n p r s t v w br cr dr fr gr pl st tr".split()
    vowel = "a e i o u ai ea ou".split()
    coda = ["", "", "n", "r", "l", "s", "th", "nd", "rk", "st"]
    made = set()
    while len(made) < 3000:
        w = "".join(rng.choice(onset) + rng.choice(vowel) + rng.choice(coda) for _ in range(rng.randint(1, 3)))
        if len(w) > 3:
            made.add(w)
    made = sorted(made)
    rng.shuffle(made)
    return made


LEXICON = _lexicon()


def word(rng):
    r = rng.random()
    if r < 0.45:
        return rng.choice(WORDS)
    if r < 0.6:
        return rng.choice(ADJ)
    # skewed: low ranks far more often than high ones
    return LEXICON[int(len(LEXICON) * rng.random() ** 2.5)]


def sentence(rng):
    n = rng.randint(9, 22)
    words = []
    for i in range(n):
        if i % 5 == 2:
            words.append(rng.choice(VERBS))
        elif rng.random() < 0.1:
            words.append(rng.choice(("the", "a", "of", "and", "in", "with", "for")))
        else:
            words.append(word(rng))
    if n > 12 and rng.random() < 0.5:
        words[n // 2] += ","
    s = " ".join(words)
    return s[0].upper() + s[1:] + "."


def paragraph(rng):
    return " ".join(sentence(rng) for _ in range(rng.randint(3, 6)))


def headline(rng):
    w = [rng.choice(ADJ), rng.choice(WORDS), rng.choice(VERBS), "by", "the", rng.choice(WORDS)]
    s = " ".join(w)
    return s[0].upper() + s[1:]


TEMPLATES = {
    "A": {
        "name": "The Millbrook Courier",
        "nav": ["Home", "Local news", "Politics", "Business", "Culture", "Sport", "Weather", "Opinion"],
        "related_title": "Related stories",
        # a long sentence-like paragraph, no boilerplate class or landmark:
        # the page scorer alone keeps it
        "note": (
            "The Millbrook Courier has been written, edited and printed by a small cooperative of "
            "reporters in the old mill on Water Street since 1921, and every story on these pages "
            "is checked twice before it reaches our readers in the valley and beyond."
        ),
        "footer": "Copyright 2024 The Millbrook Courier. All rights reserved.",
        "footer_links": ["About us", "Contact", "Advertise", "Privacy policy", "Terms of use"],
        "related_seed": 1,
    },
    "B": {
        "name": "Courier Online",
        "nav": ["Front page", "Region", "Economy", "Arts and books", "Games", "Climate", "Letters"],
        "related_title": "More from the newsroom",
        "note": (
            "Courier Online is supported by readers who pay what they can each month, which lets "
            "our newsroom stay independent of advertisers and keep every article free to read "
            "for everyone who lives, works or studies along the river."
        ),
        "footer": "Courier Online, 12 Quay Road, Millbrook. Registered charity 40213.",
        "footer_links": ["Our team", "Write to us", "Subscriptions", "Cookies", "Accessibility"],
        "related_seed": 2,
    },
}


def related_pool(t):
    rng = random.Random(1000 + t["related_seed"])
    return [headline(rng) for _ in range(40)]


def article(k, seed, tname):
    """Headline and paragraphs of page k."""
    rng = random.Random(seed * 1000003 + k)
    title = headline(rng)
    paras = [paragraph(rng) for _ in range(rng.randint(4, 7))]
    return rng, title, paras


def page(k, seed, tname):
    t = TEMPLATES[tname]
    rng, title, paras = article(k, seed, tname)
    pool = related_pool(t)
    related = rng.sample(range(len(pool)), 5)
    slug = "story-%05d" % k
    out = []
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
    out.append("<title>%s | %s</title>\n" % (title, t["name"]))
    out.append("<link rel=\"stylesheet\" href=\"/static/site.css\">\n</head>\n<body>\n")
    out.append("<div class=\"top\">\n<a class=\"brand\" href=\"/\">%s</a>\n" % t["name"])
    out.append("<ul class=\"menu\">%s</ul>\n</div>\n" % "".join(
        "<li><a href=\"/%s\">%s</a></li>" % (n.lower().replace(" ", "-"), n) for n in t["nav"]))
    out.append("<div class=\"wrap\">\n<div class=\"story\">\n<h1>%s</h1>\n" % title)
    for p in paras:
        out.append("<p>%s</p>\n" % p)
    out.append("<p>%s</p>\n" % t["note"])
    out.append("</div>\n")
    out.append("<div class=\"box\"><h3>%s</h3><ul>%s</ul></div>\n" % (t["related_title"], "".join(
        "<li><a href=\"/story-%05d\">%s</a></li>" % (i, pool[i]) for i in related)))
    out.append("</div>\n")
    out.append("<div class=\"bottom\"><p>%s</p><p>%s</p></div>\n" % (t["footer"], " | ".join(
        "<a href=\"/%s\">%s</a>" % (n.lower().replace(" ", "-"), n) for n in t["footer_links"])))
    out.append("</body>\n</html>\n")
    return slug, "".join(out)


def print_template(tname, field):
    t = TEMPLATES[tname]
    if field == "nav":
        print("\n".join(t["nav"]))
    elif field == "related":
        print("\n".join([t["related_title"]] + related_pool(t)))
    elif field == "footer":
        print("\n".join([t["footer"]] + t["footer_links"]))
    else:
        print(t[field])


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--print-template":
        print_template(sys.argv[2], sys.argv[3])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--truth")
    ap.add_argument("--pages", type=int, required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--template", default="A", choices=sorted(TEMPLATES))
    ap.add_argument("--format", default="dir", choices=("dir", "jsonl", "warc"))
    ap.add_argument("--host", default="courier.example")
    a = ap.parse_args()
    pages = [page(k, a.seed, a.template) for k in range(a.start, a.start + a.pages)]
    if a.truth:
        import os
        os.makedirs(a.truth, exist_ok=True)
        for k in range(a.start, a.start + a.pages):
            _, title, paras = article(k, a.seed, a.template)
            with open(os.path.join(a.truth, "page-%05d.txt" % k), "w", encoding="utf-8") as f:
                f.write("\n".join([title] + paras) + "\n")
    if a.format == "dir":
        import os
        os.makedirs(a.out, exist_ok=True)
        for k, (slug, html) in zip(range(a.start, a.start + a.pages), pages):
            with open(os.path.join(a.out, "page-%05d.html" % k), "w", encoding="utf-8") as f:
                f.write(html)
    elif a.format == "jsonl":
        with open(a.out, "w", encoding="utf-8") as f:
            for slug, html in pages:
                f.write(json.dumps({"url": "https://%s/%s" % (a.host, slug), "html": html}) + "\n")
    else:
        with open(a.out, "wb") as f:
            for n, (slug, html) in enumerate(pages):
                body = html.encode("utf-8")
                http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                        b"Content-Length: %d\r\n\r\n" % len(body)) + body
                head = ("WARC/1.0\r\nWARC-Type: response\r\n"
                        "WARC-Target-URI: https://%s/%s\r\n"
                        "WARC-Date: 2024-01-01T00:00:00Z\r\n"
                        "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n"
                        "Content-Type: application/http; msgtype=response\r\n"
                        "Content-Length: %d\r\n\r\n" % (a.host, slug, n, len(http))).encode("ascii")
                f.write(head + http + b"\r\n\r\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
