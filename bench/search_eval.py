#!/usr/bin/env python3
"""Search with and without template removal (issue 13), in the spirit of Ma,
Goharian & Chowdhury (BM25 over pages with template text removed, I-Match
duplicates indexed once).

Collection: chaos's 360 pages (../shared/bench/chaos): the pages Google gave
for 36 queries in 2017, 10 each. The query of a page is the part of its id
before the number (`north_korea_4`: "north korea"); the queries here are those
id prefixes with '_' read as a space, the 10 pages of each prefix the relevant
ones. They are short topic names (affair, afghanistan, android, ..., hugh,
kong, ranger, switch), not necessarily the words typed into Google then, and
every page was retrieved for its query by Google: an easy collection, where
what differs between the indexes is the template text around the pages.

Indexes (`winnow index`, one per setting, all 360 pages):
  full text  -f fulltext: every visible text of the page
  page       winnow page mode (default)
  site       winnow site mode: the pages learned per site (`winnow learn`),
             indexed with --site-db --mode site --exclude-self (leave-one-out);
             only the pages of sites with several chaos pages have any site
             evidence, the rest are as page mode
Each query runs `winnow search -n 360 -f json`; a page stored as an I-Match
duplicate of a hit counts as retrieved right after it. Measures: AP (mean over
queries: MAP), P@5, P@10, and per query whether AP went up or down against
full text (as Ma et al.'s table counts queries improved and hurt).
usage: bench/search_eval.py
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCH = os.environ.get("BENCH_DIR", os.path.join(ROOT, "..", "shared", "bench"))
WINNOW = os.environ.get("WINNOW", os.path.join(ROOT, "build", "winnow"))


def host(site):
    return re.sub(r"[^a-z0-9.-]", "-", site.lower())


def run(args):
    p = subprocess.run([WINNOW] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1, 3):
        sys.exit("winnow %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return p.stdout, p.stderr


def write_warc(path, rows):
    with open(path, "wb") as out:
        for i, site in rows:
            with open(os.path.join(BENCH, "chaos", "html", i + ".html"), "rb") as f:
                page = f.read()
            u = "http://%s/chaos/%s" % (host(site), i)
            http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(page) + page
            head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\n"
                    "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n"
                    % (u, len(http))).encode()
            out.write(head + http + b"\r\n\r\n")


def query_of(i):
    return re.sub(r"_\d+$", "", i)


def evaluate(ix, queries):
    con = sqlite3.connect(ix)
    dups = {}
    for key, dkey in con.execute("SELECT o.key, d.key FROM pages d JOIN pages o ON o.id = d.dup_of"):
        dups.setdefault(key, []).append(dkey)
    con.close()
    res = {}
    for q in queries:
        out, _ = run(["search", "-f", "json", "-n", "360", ix, q.replace("_", " ")])
        ranked = []
        for line in out.splitlines():
            url = json.loads(line)["url"]
            ranked.append(url)
            ranked.extend(sorted(dups.get(url, [])))
        rel = [query_of(u.rsplit("/", 1)[1]) == q for u in ranked]
        hits, ap = 0, 0.0
        for k, r in enumerate(rel):
            if r:
                hits += 1
                ap += hits / (k + 1)
        res[q] = dict(ap=ap / 10, p5=sum(rel[:5]) / 5, p10=sum(rel[:10]) / 10)
    return res


def main():
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(BENCH, "chaos", "manifest.tsv"), encoding="utf-8")][1:]
    rows = [(r[0], r[2]) for r in rows]
    queries = sorted({query_of(i) for i, _ in rows})
    per_site = {}
    for _, s in rows:
        per_site[s] = per_site.get(s, 0) + 1
    multi = sum(1 for _, s in rows if per_site[s] > 1)
    with tempfile.TemporaryDirectory() as work:
        warc = os.path.join(work, "chaos.warc")
        write_warc(warc, rows)
        db = os.path.join(work, "sites.db")
        run(["learn", "-q", "--db", db, warc])
        settings = [("full text", ["-f", "fulltext"]), ("page", []),
                    ("site", ["--site-db", db, "--mode", "site", "--exclude-self"])]
        results, notes = {}, {}
        for name, extra in settings:
            ix = os.path.join(work, name.replace(" ", "") + ".db")
            _, err = run(["index", "--db", ix] + extra + [warc])
            notes[name] = re.search(r"(\d+) duplicates", err).group(1) if re.search(r"(\d+) duplicates", err) else "?"
            results[name] = evaluate(ix, queries)
    print("chaos: 360 pages, 36 queries (id prefixes); %d pages of %d sites with several pages (site evidence)"
          % (multi, sum(1 for s in per_site if per_site[s] > 1)))
    print("%-10s %6s %6s %6s  %-22s %s" % ("index", "MAP", "P@5", "P@10", "AP vs full text (+/-/=)", "I-Match duplicates"))
    for name, _ in settings:
        r = results[name]
        mp = sum(v["ap"] for v in r.values()) / len(r)
        p5 = sum(v["p5"] for v in r.values()) / len(r)
        p10 = sum(v["p10"] for v in r.values()) / len(r)
        if name == "full text":
            cmp = "-"
        else:
            base = results["full text"]
            up = sum(1 for q in r if r[q]["ap"] > base[q]["ap"] + 1e-9)
            down = sum(1 for q in r if r[q]["ap"] < base[q]["ap"] - 1e-9)
            cmp = "%d / %d / %d" % (up, down, len(r) - up - down)
        print("%-10s %6.3f %6.3f %6.3f  %-22s %s" % (name, mp, p5, p10, cmp, notes[name]))
    print("per query AP (full text, page, site):")
    for q in queries:
        print("  %-18s %.3f %.3f %.3f" % (q.replace("_", " "), results["full text"][q]["ap"], results["page"][q]["ap"],
                                          results["site"][q]["ap"]))


if __name__ == "__main__":
    main()
