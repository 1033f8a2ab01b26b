#!/usr/bin/env python3
"""Scores keywords against reference keywords (bench/keywords.sh).

keywords_score.py REF.jsonl SYS.jsonl [--ids FILE]

Both files are `winnow keywords -f json` output (one object a line, by
"name"). For each page whose reference has keywords, with A the reference's
top 10 and K_n the system's top n:
  top-n  = |A & K_n| / min(|A|, n)   (Kolcz & Yih's top-N score, section 5.2)
  jacc   = |A & K_10| / |A | K_10|   (overlap of the two top-10 lists)
Prints one line: the means over the pages (x100) and the page count. A page
the system has no line for (failed) scores 0."""
import json
import sys


def load(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                o = json.loads(line)
                out[o["name"]] = [k["term"] for k in o["keywords"]]
    return out


def main():
    args = sys.argv[1:]
    ids = None
    if "--ids" in args:
        i = args.index("--ids")
        ids = {l.strip() for l in open(args[i + 1]) if l.strip()}
        del args[i:i + 2]
    ref, sys_ = load(args[0]), load(args[1])
    ns = (1, 3, 5, 10)
    sums = {n: 0.0 for n in ns}
    jac = 0.0
    pages = 0
    for name, a in ref.items():
        if ids is not None and name not in ids:
            continue
        a = a[:10]
        if not a:
            continue
        k = sys_.get(name, [])
        pages += 1
        aset = set(a)
        for n in ns:
            sums[n] += len(aset & set(k[:n])) / min(len(a), n)
        k10 = set(k[:10])
        jac += len(aset & k10) / len(aset | k10)
    if not pages:
        print("top1 - top3 - top5 - top10 - jaccard - pages 0")
        return
    print(" ".join("top%d %.2f" % (n, 100 * sums[n] / pages) for n in ns) + " jaccard %.2f pages %d" % (100 * jac / pages, pages))


if __name__ == "__main__":
    main()
