#!/usr/bin/env bash
# The precision/recall dial (--favor) measured: each of the seven bench
# corpora extracted with --favor precision, balanced and recall (as
# bench/accuracy.sh runs it, WINNOW_FLAGS added), scored with
# ../shared/tools/score.py, then per corpus the mean precision and recall,
# token and shingle, of each setting, and whether the dial moves both
# monotonically: precision >= balanced >= recall in precision, the reverse
# in recall (to four decimals, from the per-page figures).
# The presets are rules, not a learned model: no held-out split is needed
# (wcxb-dev's page types come from the shipped model, in-sample).
#
# usage: bench/favor_curve.sh [WINNOW] [CORPUS...]
#   WINNOW  the winnow binary (default build/winnow; also env WINNOW)
#   CORPUS  names under ../shared/bench (default: all seven)
#   env OUT where outputs go (default /tmp/winnow-favor): OUT/SETTING/CORPUS/
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
winnow=${WINNOW:-$here/build/winnow}
if [ $# -gt 0 ] && [ -x "$1" ] && [ ! -d "$1" ]; then winnow=$1; shift; fi
out=${OUT:-/tmp/winnow-favor}
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(aeb big9 cleanportaleval l3s-gn1 readability chaos wcxb-dev)
for f in precision balanced recall; do
  OUT="$out/$f" WINNOW="$winnow" WINNOW_FLAGS="${WINNOW_FLAGS:-} --favor $f" \
    bash "$here/bench/accuracy.sh" "${corpora[@]}" >"$out.$f.txt"
done
python3 - "$out" "${corpora[@]}" <<'PY'
import sys
out, corpora = sys.argv[1], sys.argv[2:]
settings = ['precision', 'balanced', 'recall']
def means(path):
    rows = [l.rstrip('\n').split('\t') for l in open(path)][1:]
    cols = list(zip(*[[float(x) for x in r[1:7]] for r in rows]))
    return [sum(c) / len(c) for c in cols], len(rows)
print('%-16s %5s  %-31s %-31s %s' % ('corpus', 'pages', 'token P / R  (prec bal rec)', 'shingle P / R  (prec bal rec)', 'monotone'))
bad = 0
for c in corpora:
    m = {}
    for s in settings:
        m[s], n = means(f'{out}/{s}/{c}.per-page.tsv')
    ok = True
    cells = []
    for p_i, r_i in ((0, 1), (3, 4)):
        P = [round(m[s][p_i], 4) for s in settings]
        R = [round(m[s][r_i], 4) for s in settings]
        ok &= P[0] >= P[1] >= P[2] and R[0] <= R[1] <= R[2]
        cells.append('%.4f %.4f %.4f / %.4f %.4f %.4f' % (*P, *R))
    bad += not ok
    print('%-16s %5d  %s  %s  %s' % (c, n, cells[0], cells[1], 'yes' if ok else 'NO'))
    # F1 of each setting (token, the per-page mean), for the trade's price
    print('%-16s %5s  token F1: %s' % ('', '', '  '.join('%s %.4f' % (s, m[s][2]) for s in settings)))
sys.exit(1 if bad else 0)
PY
