#!/usr/bin/env python3
"""The extraction groups of bench/units_eval.sh: one line per page of a
corpus, "TYPE<TAB>MODEL<TAB>PATH": the page's held-out type (types.tsv,
article when missing) and, for the held-out run, the unit model that never
saw it (wcxb-dev: the fold of its site, FNV-1a of the manifest's site
modulo 5, as winnow train --units folds; the others: the corpus's own
leave-one-out model); "-" for the rules' run.

usage: units_groups.py CORPUS_DIR TYPES.tsv CORPUS RUN MODELS_DIR
"""
import csv
import os
import sys


def fnv1a(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main(root, types, corpus, run, models):
    with open(types) as f:
        typ = {r['id']: r['type'] for r in csv.DictReader(f, delimiter='\t') if r['corpus'] == corpus}
    with open(os.path.join(root, 'manifest.tsv')) as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    for r in rows:
        path = None
        for ext in ('.html.gz', '.html'):
            p = os.path.join(root, 'html', r['id'] + ext)
            if os.path.exists(p):
                path = p
                break
        if not path:
            continue
        model = '-'
        if run == 'held-out':
            fold = '.fold%d' % (fnv1a(r.get('site') or r['id']) % 5) if corpus == 'wcxb-dev' else ''
            model = os.path.join(models, corpus + fold + '.wmodel')
        print(typ.get(r['id'], 'article'), model, path, sep='\t')


if __name__ == '__main__':
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
