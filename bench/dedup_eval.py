#!/usr/bin/env python3
"""Near-duplicate detection with and without template removal (issue 13),
in the spirit of Chakrabarti, Kumar & Punera's section 6.2 (LYRICS: the same
text under different templates are duplicates, different texts under one
template are not).

Pairs, from real pages with gold text (../shared/bench):
  - same-site pairs: every pair of pages of one site (big9's SITE@YEAR
    groups, cleanportaleval's portals, and the sites of l3s-gn1 and chaos that
    have several pages). Their gold texts decide: 6-word-shingle Jaccard
    resemblance < 0.2 is a non-duplicate (different texts, one template),
    >= 0.5 a duplicate, in between left out as unclear.
  - cross-site duplicates: pages of different sites (chaos, l3s-gn1) whose
    gold texts have a resemblance >= 0.5: syndicated stories (an agency's
    story on two papers' sites), the same text under different templates.
    Found by comparing the gold texts of every page with every other.
  - the unlabelled corpus (../shared/corpus/sites, no gold): up to 40 random
    pairs of pages of each site, taken as non-duplicates (the corpus has no
    byte-identical pages, but tag and paging pages can be near-duplicates
    for real: the pairs every setting flags are counted apart).
  - constructed (the LYRICS design on real templates): 20 chaos pages of
    distinct sites serve as templates. In each, the stretch of HTML from the
    block element holding the first gold line to the end of the one holding
    the last gold line is the article (kept only when its visible words are
    0.8 to 1.3 times the gold's, so that the cut took the article and little
    else); it is replaced by another chaos page's gold text as <h1> + <p>
    paragraphs, and <title> by that text's first line. 30 articles (gold
    texts of >= 150 words from other pages) x 20 templates = 600 pages:
    the same article under two templates is a duplicate (5,700 pairs), two
    articles under one template a non-duplicate (8,700 pairs).
Each setting runs `winnow dedup --pairs` over all the pages at once and a pair
is judged a duplicate when it is in the output:
  full text   -f fulltext (every visible text, nothing removed)
  page        winnow page mode (the default)
  site        winnow site mode: `winnow learn` of every site (a corpus page's
              site is its group), then `dedup --db --mode site --exclude-self`
              (leave-one-out: a page is not judged by a model that counted it);
              a site of one page is left with no evidence and goes as page mode.
usage: bench/dedup_eval.py [--sketch K --min-matches T] [--no-corpus]
"""
import argparse
import html
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCH = os.environ.get("BENCH_DIR", os.path.join(ROOT, "..", "shared", "bench"))
CORPUS = os.environ.get("CORPUS_DIR", os.path.join(ROOT, "..", "shared", "corpus", "sites"))
WINNOW = os.environ.get("WINNOW", os.path.join(ROOT, "build", "winnow"))

SAME_SITE = ["big9", "cleanportaleval", "l3s-gn1", "chaos"]
CROSS_SITE = ["chaos", "l3s-gn1"]
DUP, NONDUP = 0.5, 0.2


def shingles(text):
    w = re.findall(r"[a-z0-9]+", text.lower())
    if len(w) < 6:
        return {tuple(w)} if w else set()
    return {tuple(w[i:i + 6]) for i in range(len(w) - 5)}


def resemblance(a, b):
    return len(a & b) / len(a | b) if a and b else 0.0


def host(group):
    return re.sub(r"[^a-z0-9.-]", "-", group.lower())


def load_bench():
    pages = []  # (corpus, id, group)
    gold = {}
    for c in sorted(set(SAME_SITE + CROSS_SITE)):
        rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(BENCH, c, "manifest.tsv"), encoding="utf-8")][1:]
        for r in rows:
            pages.append((c, r[0], r[2]))
            with open(os.path.join(BENCH, c, "gold", r[0] + ".txt"), encoding="utf-8", errors="replace") as f:
                gold[(c, r[0])] = shingles(f.read())
    return pages, gold


def bench_pairs(pages, gold):
    """(url_a, url_b) -> label (1 duplicate, 0 not), kind."""
    pairs = {}
    url = {(c, i): "http://%s/%s/%s" % (host(g), c, i) for c, i, g in pages}
    by_group = {}
    for c, i, g in pages:
        if c in SAME_SITE:
            by_group.setdefault((c, g), []).append((c, i))
    unclear = 0
    for members in by_group.values():
        for a, b in itertools.combinations(members, 2):
            r = resemblance(gold[a], gold[b])
            if r >= DUP:
                pairs[(url[a], url[b])] = (1, "same-site")
            elif r < NONDUP:
                pairs[(url[a], url[b])] = (0, "same-site")
            else:
                unclear += 1
    # cross-site: candidates share a gold shingle (an inverted index), then resemblance
    inv = {}
    cross = [(c, i, g) for c, i, g in pages if c in CROSS_SITE]
    for k, (c, i, g) in enumerate(cross):
        for s in gold[(c, i)]:
            inv.setdefault(s, []).append(k)
    cand = set()
    for ks in inv.values():
        if len(ks) < 50:
            cand.update(itertools.combinations(ks, 2))
    found = []
    for x, y in cand:
        a, b = cross[x], cross[y]
        if a[2] == b[2]:
            continue
        r = resemblance(gold[a[:2]], gold[b[:2]])
        if r >= DUP:
            pairs[(url[a[:2]], url[b[:2]])] = (1, "cross-site")
            found.append((r, a, b))
    return pairs, url, unclear, sorted(found, reverse=True)


def write_warc(path, pages, url):
    """The pages as WARC response records (the bytes as they are), under
    made-up URLs whose host is the page's group: the site dedup and learn see."""
    with open(path, "wb") as out:
        for c, i, g in pages:
            with open(os.path.join(BENCH, c, "html", i + ".html"), "rb") as f:
                html = f.read()
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(html) + html
            head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
                    "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
                    % (url[(c, i)], len(http))).encode()
            out.write(head + http + b"\r\n\r\n")

TAG_OPEN = re.compile(rb"<(h[1-6]|p|div|header|article|section)[\s>]", re.I)
TAG_CLOSE = re.compile(rb"</(h[1-6]|p|div|article|section)\s*>", re.I)


def visible_words(b):
    b = re.sub(rb"(?is)<(script|style)\b.*?</\1\s*>", b" ", b)
    b = re.sub(rb"(?s)<[^>]*>", b" ", b)
    return len(re.findall(r"\w+", html.unescape(b.decode("utf-8", "replace"))))


def gold_lines(c, i):
    with open(os.path.join(BENCH, c, "gold", i + ".txt"), encoding="utf-8", errors="replace") as f:
        return [l.strip() for l in f if l.strip()]


def template_cut(i):
    """(prefix, suffix) of chaos page i around its article, or None."""
    with open(os.path.join(BENCH, "chaos", "html", i + ".html"), "rb") as f:
        raw = f.read()
    gold = gold_lines("chaos", i)
    body = re.search(rb"<body[\s>]", raw, re.I)
    if len(gold) < 3 or not body:
        return None
    first, last = gold[0][:40].encode(), gold[-1][-40:].encode()
    a = raw.find(first, body.end())
    b = raw.find(last, a) if a >= 0 else -1
    if b < 0:
        return None
    opens = list(TAG_OPEN.finditer(raw, body.end(), a))
    close = TAG_CLOSE.search(raw, b + len(last))
    if not opens or not close:
        return None
    pa, pb = opens[-1].start(), close.end()
    gw = len(re.findall(r"\w+", " ".join(gold)))
    if not 0.8 <= visible_words(raw[pa:pb]) / gw <= 1.3:
        return None
    return raw[:pa], raw[pb:]


def constructed(rng):
    """600 pages: 30 articles x 20 templates; their URLs and pair labels."""
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(BENCH, "chaos", "manifest.tsv"), encoding="utf-8")][1:]
    rng.shuffle(rows)
    templates, sites = [], set()
    for r in rows:
        if len(templates) < 20 and r[2] not in sites and not r[2].startswith("unknown"):
            cut = template_cut(r[0])
            if cut:
                templates.append((r[0], r[2], cut))
                sites.add(r[2])
    used = {t[0] for t in templates}
    articles = []
    for r in rows:
        if len(articles) < 30 and r[0] not in used:
            g = gold_lines("chaos", r[0])
            if len(" ".join(g).split()) >= 150:
                articles.append((r[0], g))
    pages = []  # (url, html bytes)
    for t, site, (pre, post) in templates:
        for a, g in articles:
            body = ("<h1>%s</h1>\n" % html.escape(g[0]) + "".join("<p>%s</p>\n" % html.escape(l) for l in g[1:])).encode()
            page = pre + body + post
            page = re.sub(rb"(?is)<title[^>]*>.*?</title>", lambda m: b"<title>" + html.escape(g[0]).encode() + b"</title>",
                          page, count=1)
            pages.append(("http://%s/synthetic/%s" % (host(site), a), page))
    pairs = {}
    for (t, site, _), (t2, site2, _) in itertools.combinations(templates, 2):
        for a, _ in articles:
            pairs[("http://%s/synthetic/%s" % (host(site), a), "http://%s/synthetic/%s" % (host(site2), a))] = (1, "constructed")
    for t, site, _ in templates:
        for (a, _), (b, _) in itertools.combinations(articles, 2):
            pairs[("http://%s/synthetic/%s" % (host(site), a), "http://%s/synthetic/%s" % (host(site), b))] = (0, "constructed")
    return pages, pairs, [t[0] for t in templates]


def write_warc_pages(path, pages):
    with open(path, "wb") as out:
        for u, page in pages:
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(page) + page
            head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
                    "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
                    % (u, len(http))).encode()
            out.write(head + http + b"\r\n\r\n")


def evaluate(label, pairs, warc, db, sk, show_kinds=()):
    run(["learn", "-q", "--db", db, warc])
    settings = [("full text", ["-f", "fulltext"]), ("page", []),
                ("site", ["--db", db, "--mode", "site", "--exclude-self"])]
    results, found = {}, {}
    for name, extra in settings:
        out, err, secs = run(["dedup", "-q", "--pairs"] + sk + extra + [warc])
        found[name] = dup_pairs(out)
        results[name] = score(pairs, found[name])
    ndup = sum(1 for l, _ in pairs.values() if l)
    print("%s: %d duplicate pairs, %d non-duplicate pairs" % (label, ndup, len(pairs) - ndup))
    print("%-10s %6s %6s %6s  %-18s %-18s  %s" % ("setting", "P", "R", "F1", "dup found", "non-dup kept", "tp fp fn tn"))
    for name, _ in settings:
        s = results[name]
        print("%-10s %6.3f %6.3f %6.3f  %5d/%-5d %5.1f%%  %5d/%-5d %5.1f%%  %d %d %d %d"
              % (name, s["p"], s["r"], s["f1"], s["tp"], s["tp"] + s["fn"], 100 * s["dup"],
                 s["tn"], s["tn"] + s["fp"], 100 * s["nondup"], s["tp"], s["fp"], s["fn"], s["tn"]))
    for kind in show_kinds:
        sub = {k: v for k, v in pairs.items() if v[1] == kind and v[0]}
        print("  recall on %s duplicates (%d): %s" % (kind, len(sub), ", ".join(
            "%s %.3f" % (name, score(sub, found[name])["r"]) for name, _ in settings)))
    return results


def run(args, quiet=True):
    t = time.time()
    p = subprocess.run([WINNOW] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1, 3):
        sys.exit("winnow %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return p.stdout, p.stderr, time.time() - t


def dup_pairs(out):
    s = set()
    for line in out.splitlines():
        o = json.loads(line)
        a, b = o["a"]["url"], o["b"]["url"]
        s.add((a, b))
        s.add((b, a))
    return s


def score(pairs, found):
    tp = fp = fn = tn = 0
    for (a, b), (label, _) in pairs.items():
        d = (a, b) in found
        if label and d: tp += 1
        elif label: fn += 1
        elif d: fp += 1
        else: tn += 1
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return dict(tp=tp, fp=fp, fn=fn, tn=tn, p=p, r=r, f1=f1,
                dup=tp / (tp + fn) if tp + fn else 0.0, nondup=tn / (tn + fp) if tn + fp else 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sketch", type=int, default=8)
    ap.add_argument("--min-matches", type=int, default=4)
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--show-cross", action="store_true", help="list the cross-site duplicate pairs found")
    a = ap.parse_args()
    sk = ["--sketch", str(a.sketch), "--min-matches", str(a.min_matches)]
    pages, gold = load_bench()
    pairs, url, unclear, cross = bench_pairs(pages, gold)
    ndup = sum(1 for l, _ in pairs.values() if l)
    print("bench pairs: %d duplicates (%d same-site, %d cross-site), %d non-duplicates, %d unclear left out"
          % (ndup, sum(1 for l, k in pairs.values() if l and k == "same-site"),
             sum(1 for l, k in pairs.values() if l and k == "cross-site"),
             len(pairs) - ndup, unclear))
    if a.show_cross:
        for r, x, y in cross:
            print("  %.2f %s/%s (%s)  %s/%s (%s)" % (r, x[0], x[1], x[2], y[0], y[1], y[2]))
    with tempfile.TemporaryDirectory() as work:
        print("sketch %d, min matches %d" % (a.sketch, a.min_matches))
        jl = os.path.join(work, "bench.warc")
        write_warc(jl, pages, url)
        evaluate("real pages", pairs, jl, os.path.join(work, "bench.db"), sk, ("same-site", "cross-site"))
        cpages, cpairs, tpl = constructed(random.Random(13))
        cw = os.path.join(work, "constructed.warc")
        write_warc_pages(cw, cpages)
        print("templates: " + " ".join(tpl))
        evaluate("constructed", cpairs, cw, os.path.join(work, "constructed.db"), sk)
        if a.no_corpus:
            return
        # the unlabelled corpus: same-site pairs taken as non-duplicates
        warcs = sorted(os.path.join(CORPUS, f) for f in os.listdir(CORPUS) if f.endswith(".warc.gz"))
        cdb = os.path.join(work, "corpus.db")
        run(["learn", "-q", "--db", cdb] + warcs)
        rng = random.Random(13)
        found = {}
        for name, extra in [("full text", ["-f", "fulltext"]), ("page", []),
                            ("site", ["--db", cdb, "--mode", "site", "--exclude-self"])]:
            out, err, secs = run(["dedup", "-q", "--pairs"] + sk + extra + warcs)
            found[name] = dup_pairs(out)
        urls = {}
        # site of each page: from the WARC's own records
        for w in warcs:
            site = os.path.basename(w)[:-len(".warc.gz")]
            urls[site] = warc_urls(w)
        cpairs = {}
        for site, us in sorted(urls.items()):
            allp = list(itertools.combinations(us, 2))
            for p in rng.sample(allp, min(40, len(allp))):
                cpairs[p] = (0, "corpus")
        every = sum(1 for p in cpairs if all(p in found[n] for n in found))
        print("unlabelled corpus: %d same-site pairs of %d sites taken as non-duplicates (%d flagged by all three "
              "settings: near-duplicates for real, or template-only pages)" % (len(cpairs), len(urls), every))
        print("%-10s %-22s" % ("setting", "non-dup kept"))
        for name in found:
            fp = sum(1 for p in cpairs if p in found[name])
            print("%-10s %5d/%-5d %5.1f%%" % (name, len(cpairs) - fp, len(cpairs), 100 * (len(cpairs) - fp) / len(cpairs)))


def warc_urls(path):
    """WARC-Target-URI of each HTML response record, in order."""
    import gzip
    urls = []
    with gzip.open(path, "rb") as f:
        data = f.read()
    for m in re.finditer(rb"WARC-Type: response\r\n(?:[^\r\n]*\r\n)*?WARC-Target-URI: ([^\r\n]*)\r\n", data):
        urls.append(m.group(1).decode("utf-8", "replace"))
    return urls


if __name__ == "__main__":
    main()
