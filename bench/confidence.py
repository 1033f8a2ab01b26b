#!/usr/bin/env python3
"""The confidence model: labels, training, held-out calibration (issue 30).

A page is *good* when the text winnow keeps of it scores a token F1 of 0.8
or more against its gold text (../shared/tools/score.py, the token figure:
wcxb's benchmark measure, and the same definition for every corpus). The
confidence is the model's estimate of that chance.

Steps, all over the seven corpora of ../shared/bench:
  1. texts   `winnow train --confidence --texts OUT/texts MANIFEST...`: each
             page's main text, from the same run of the pipeline that
             computes the features (the manifest's URL given, as a crawl
             would);
  2. labels  score.py per corpus on those texts -> OUT/labels.tsv (corpus,
             id, token_f1, shingle_f1);
  3. train   `winnow train --confidence --labels OUT/labels.tsv
             --predictions OUT/predictions.tsv -o MODEL MANIFEST...`: every
             page's held-out probabilities (p_corpus: fitted on the other six
             corpora; p_site: fitted on the other folds of sites, 5 folds by
             the FNV-1a hash of the manifest's site, all corpora pooled) and
             the model fitted on all pages;
  4. report  Markdown tables on stdout (what bench/RESULTS.md holds): the
             reliability table per corpus and overall, Brier score and log
             loss against a constant (the training pages' rate of good
             pages), and what dropping pages below a threshold loses.

usage: bench/confidence.py [--report-only] [-o MODEL] [WINNOW_TRAIN]
  WINNOW_TRAIN  the training program (default build/winnow-train)
  -o MODEL      where the model fitted on all pages goes (default
                OUT/confidence.wmodel; models/confidence.wmodel to ship it)
  --report-only the tables from OUT's labels and predictions, no run
  env OUT (default /tmp/winnow-confidence), BENCH_DIR, SCORER
"""
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get("BENCH_DIR", os.path.join(HERE, "..", "shared", "bench"))
SCORER = os.environ.get("SCORER", os.path.join(HERE, "..", "shared", "tools", "score.py"))
OUT = os.environ.get("OUT", "/tmp/winnow-confidence")
CORPORA = ["aeb", "big9", "cleanportaleval", "l3s-gn1", "readability", "chaos", "wcxb-dev"]
GOOD = 0.8
BINS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001]
THRESHOLDS = [0.1, 0.2, 0.3, 0.5, 0.7]


def run(cmd):
    print("+ " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True)


def manifests():
    return [os.path.join(BENCH, c, "manifest.tsv") for c in CORPORA]


def make_labels(train):
    texts = os.path.join(OUT, "texts")
    run([train, "train", "--confidence", "--texts", texts] + manifests())
    rows = []
    for c in CORPORA:
        per = os.path.join(OUT, c + ".per-page.tsv")
        subprocess.run([sys.executable, SCORER, os.path.join(BENCH, c, "gold"), os.path.join(texts, c),
                        "--per-page", per], check=True, stdout=subprocess.DEVNULL)
        with open(per) as f:  # id, token P, R, F1, shingle P, R, F1 (no header)
            for line in f:
                v = line.rstrip("\n").split("\t")
                rows.append((c, v[0], v[3], v[6]))
    with open(os.path.join(OUT, "labels.tsv"), "w") as f:
        f.write("corpus\tid\ttoken_f1\tshingle_f1\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


def read_tsv(path):
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        return [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f if l.strip()]


def pages():
    f1 = {(r["corpus"], r["id"]): float(r["token_f1"]) for r in read_tsv(os.path.join(OUT, "labels.tsv"))}
    out = []
    for r in read_tsv(os.path.join(OUT, "predictions.tsv")):
        out.append({"corpus": r["corpus"], "id": r["id"], "y": int(r["label"]), "f1": f1[(r["corpus"], r["id"])],
                    "pc": float(r["p_corpus"]), "ps": float(r["p_site"])})
    return out


def brier(ps, ys):
    return sum((p - y) ** 2 for p, y in zip(ps, ys)) / len(ys)


def logloss(ps, ys):
    e = 1e-6
    return -sum(y * math.log(max(p, e)) + (1 - y) * math.log(max(1 - p, e)) for p, y in zip(ps, ys)) / len(ys)


def auc(ps, ys):
    pos = [p for p, y in zip(ps, ys) if y]
    neg = [p for p, y in zip(ps, ys) if not y]
    if not pos or not neg:
        return float("nan")
    ranked = sorted((p, y) for p, y in zip(ps, ys))
    # rank-sum with ties averaged
    rank, i, rsum = 1, 0, 0.0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        r = (rank + rank + (j - i) - 1) / 2.0
        rsum += r * sum(1 for k in range(i, j) if ranked[k][1])
        rank += j - i
        i = j
    return (rsum - len(pos) * (len(pos) + 1) / 2.0) / (len(pos) * len(neg))


def reliability(rows, key):
    lines = ["| predicted | pages | mean predicted | observed good |", "| --- | ---: | ---: | ---: |"]
    for lo, hi in zip(BINS, BINS[1:]):
        b = [r for r in rows if lo <= r[key] < hi]
        if not b:
            continue
        mp = sum(r[key] for r in b) / len(b)
        ob = sum(r["y"] for r in b) / len(b)
        lines.append("| %.1f-%.1f | %d | %.3f | %.3f |" % (lo, min(hi, 1.0), len(b), mp, ob))
    return lines


def per_corpus(rows, key, base_of):
    lines = ["| corpus | pages | good | mean predicted | Brier | Brier, constant | log loss | log loss, constant "
             "| AUC |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    groups = [(c, [r for r in rows if r["corpus"] == c]) for c in CORPORA] + [("all", rows)]
    for c, g in groups:
        if not g:
            continue
        ys = [r["y"] for r in g]
        ps = [r[key] for r in g]
        base = [base_of(r) for r in g]
        lines.append("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |" % (
            c, len(g), sum(ys) / len(g), sum(ps) / len(g), brier(ps, ys), brier(base, ys), logloss(ps, ys),
            logloss(base, ys), auc(ps, ys)))
    return lines


def drops(rows, key):
    lines = ["| corpus | threshold | pages dropped | good pages lost | bad pages dropped | mean token F1 kept "
             "| mean token F1 all | good among kept |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    groups = [("all", rows)] + [(c, [r for r in rows if r["corpus"] == c]) for c in CORPORA]
    for c, g in groups:
        if not g:
            continue
        good = sum(r["y"] for r in g)
        bad = len(g) - good
        mean_all = sum(r["f1"] for r in g) / len(g)
        for t in THRESHOLDS:
            kept = [r for r in g if r[key] >= t]
            dropped = len(g) - len(kept)
            lost = sum(r["y"] for r in g if r[key] < t)
            bad_dropped = dropped - lost
            lines.append("| %s | %.1f | %.1f%% (%d) | %.1f%% (%d) | %.1f%% (%d) | %s | %.3f | %s |" % (
                c, t, 100.0 * dropped / len(g), dropped, 100.0 * lost / good if good else 0, lost,
                100.0 * bad_dropped / bad if bad else 0, bad_dropped,
                "%.3f" % (sum(r["f1"] for r in kept) / len(kept)) if kept else "-", mean_all,
                "%.3f" % (sum(r["y"] for r in kept) / len(kept)) if kept else "-"))
            if c != "all" and t not in (0.3, 0.5, 0.7):
                lines.pop()
    return lines


def site_fold(site, folds=5):
    h = 0xcbf29ce484222325
    for b in site.encode():
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h % folds


def report():
    rows = pages()
    # the constant baseline is the rate of good pages among the pages the
    # held-out model was fitted on, so it too never sees its own pages
    sites = {(r["corpus"], r["id"]): r["site"] for r in read_tsv(os.path.join(OUT, "predictions.tsv"))}
    for r in rows:
        r["fold"] = site_fold(sites[(r["corpus"], r["id"])])
    n_by_c = {c: (sum(1 for r in rows if r["corpus"] == c), sum(r["y"] for r in rows if r["corpus"] == c))
              for c in CORPORA}
    n_all, g_all = len(rows), sum(r["y"] for r in rows)
    base_c = {c: (g_all - g) / (n_all - n) for c, (n, g) in n_by_c.items() if n_all > n}
    n_by_f = {f: (sum(1 for r in rows if r["fold"] == f), sum(r["y"] for r in rows if r["fold"] == f))
              for f in range(5)}
    base_f = {f: (g_all - g) / (n_all - n) for f, (n, g) in n_by_f.items() if n_all > n}
    out = []
    out.append("%d pages, %d good (token F1 >= %.1f): %.1f%%." % (n_all, g_all, GOOD, 100.0 * g_all / n_all))
    for key, name, base in (("pc", "leave one corpus out (p_corpus)", lambda r: base_c[r["corpus"]]),
                            ("ps", "5 folds by site, all corpora pooled (p_site)", lambda r: base_f[r["fold"]])):
        out += ["", "#### %s" % name, "", "Reliability, all corpora:", ""]
        out += reliability(rows, key)
        out += ["", "Per corpus:", ""]
        out += per_corpus(rows, key, base)
        for c in CORPORA:
            g = [r for r in rows if r["corpus"] == c]
            out += ["", "Reliability, %s:" % c, ""]
            out += reliability(g, key)
        out += ["", "Dropping pages below a threshold:", ""]
        out += drops(rows, key)
    print("\n".join(out))


def main(argv):
    train = os.path.join(HERE, "build", "winnow-train")
    model = None
    report_only = False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--report-only":
            report_only = True
        elif a == "-o":
            model = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            train = a
    os.makedirs(OUT, exist_ok=True)
    model = model or os.path.join(OUT, "confidence.wmodel")
    if not report_only:
        make_labels(train)
        run([train, "train", "--confidence", "--labels", os.path.join(OUT, "labels.tsv"), "--predictions",
             os.path.join(OUT, "predictions.tsv"), "-o", model] + manifests())
    report()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
