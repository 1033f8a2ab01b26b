#!/usr/bin/env python3
"""The learned unit decision's thresholds against held-out probabilities.

Reads what `winnow train --units --eval ... --pages P --units-out U` wrote
(every unit's held-out probability, from a model that never saw its page)
and scores each decision of a grid the way the step decides (src/select/
units.c, wn_units_decide): keep a unit the rules kept at KEEP_MIN or more,
add one they left out at ADD_MIN or more, drop nothing on a page where the
drops hold more than MAX_DROP of the kept words, add nothing where the
additions hold more than MAX_ADD of them. A page's figure is the word F1 of
its kept units against the gold text (the trainer's own measure); printed
per corpus, the rules' first, for every decision that keeps each article
corpus within --slack of the rules, best wcxb-dev first.

usage: units_policy.py PAGES.tsv UNITS.tsv [--slack 0.002] [--top 10]
"""
import csv
import itertools
import sys
from collections import defaultdict


def f1(kept, hit, gold):
    hit = min(hit, gold)
    if gold == 0:
        return 1.0 if kept == 0 else 0.0
    if kept == 0 or hit == 0:
        return 0.0
    p, r = hit / kept, hit / gold
    return 2 * p * r / (p + r)


def page_score(units, pol):
    keep_min, add_min, max_drop, max_add = pol
    kept = dropped = added = 0.0
    dec = []
    for rule, q, w, y in units:
        k = q >= (keep_min if rule else add_min)
        dec.append(k)
        kept += w if rule else 0
        dropped += w if rule and not k else 0
        added += w if (not rule) and k else 0
    if dropped > max_drop * kept:
        dec = [k or u[0] for k, u in zip(dec, units)]
    if added > max_add * kept:
        dec = [k and u[0] for k, u in zip(dec, units)]
    kw = sum(u[2] for k, u in zip(dec, units) if k)
    hit = sum(u[2] * u[3] for k, u in zip(dec, units) if k)
    return kw, hit


def main(argv):
    slack = float(argv[argv.index('--slack') + 1]) if '--slack' in argv else 0.002
    top = int(argv[argv.index('--top') + 1]) if '--top' in argv else 10
    args = [a for i, a in enumerate(argv) if not a.startswith('--') and (i == 0 or argv[i - 1] not in ('--slack', '--top'))]
    with open(args[0]) as f:
        corpus = [r['corpus'] for r in csv.DictReader(f, delimiter='\t')]
    pages = defaultdict(list)
    gold = {}
    with open(args[1]) as f:
        for line in f:
            k, rule, q, w, y, g = line.split('\t')
            k = int(k)
            pages[k].append((int(rule), float(q), float(w), float(y)))
            gold[k] = int(g)
    names = sorted(set(corpus), key=lambda c: (c == 'wcxb-dev', c))

    def score(pol):
        per = defaultdict(list)
        for k, units in pages.items():
            if pol is None:
                kw = sum(u[2] for u in units if u[0])
                hit = sum(u[2] * u[3] for u in units if u[0])
            else:
                kw, hit = page_score(units, pol)
            per[corpus[k]].append(f1(kw, hit, gold[k]))
        return {c: sum(v) / len(v) for c, v in per.items()}

    base = score(None)
    print('decision\t' + '\t'.join(names))
    print('rules\t' + '\t'.join('%.4f' % base[c] for c in names))
    grid = itertools.product((0.3, 0.4, 0.5), (0.6, 0.7, 0.8), (0.3, 0.5, 1e30), (0.5, 1.0, 2.0, 1e30))
    rows = []
    for pol in grid:
        s = score(pol)
        if all(s[c] >= base[c] - slack for c in names if c != 'wcxb-dev'):
            rows.append((s.get('wcxb-dev', 0), pol, s))
    rows.sort(key=lambda r: -r[0])
    for _, pol, s in rows[:top]:
        print('%g/%g/%g/%g\t' % pol + '\t'.join('%.4f' % s[c] for c in names))


if __name__ == '__main__':
    main(sys.argv[1:])
