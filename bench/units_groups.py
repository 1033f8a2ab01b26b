#!/usr/bin/env python3
"""The extraction groups of bench/units_eval.sh: one line per page of a
corpus, "TYPEMODEL<TAB>MODEL<TAB>PATH": the page type model that never saw
the page and, for the held-out run, the unit model that never saw it ("-"
for the rules' run). For wcxb-dev both are its site's fold's (FNV-1a of the
manifest's site modulo 5, as winnow train --page-types and --units fold
it), for the others the corpus's own leave-one-out models. The models are
in MODELS_DIR (unit models) and MODELS_DIR/types (page type models).

usage: units_groups.py CORPUS_DIR CORPUS RUN MODELS_DIR
"""
import csv
import os
import sys


def fnv1a(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main(root, corpus, run, models):
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
        fold = '.fold%d' % (fnv1a(r.get('site') or r['id']) % 5) if corpus == 'wcxb-dev' else ''
        types = os.path.join(models, 'types', corpus + fold + '.wmodel')
        model = os.path.join(models, corpus + fold + '.wmodel') if run == 'held-out' else '-'
        print(types, model, path, sep='\t')


if __name__ == '__main__':
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
