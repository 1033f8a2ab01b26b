#!/usr/bin/env python3
"""Page-by-page comparison of two `winnow extract -f json` runs over WARC files.

Called by bench/corpus_diff.sh, which lays out RUNS/old/TAG/*.json and
RUNS/new/TAG/*.json (one directory per WARC and per binary) and a manifest of
TAG<TAB>SITE<TAB>WARC lines. Prints a summary, the worst losers, gainers and
swapped pages, one line per changed site, and writes every page to a TSV file.

Characters are the text's non-whitespace characters (what winnow reports as
`content_chars`; `chars` counts the page's visible characters the same way).
Word similarity is computed on token sets: lower-cased words, and character
bigrams inside CJK runs (which have no spaces to split on).
"""
import argparse
import json
import os
import re
import sys
from concurrent.futures import ProcessPoolExecutor

LOSS = 0.7           # lost: new < 70% of old
GAIN = 1.3           # gained: new > 130% of old
EMPTY_VISIBLE = 500  # empty: no text while the page shows more than this
SWAP = 0.5           # swapped: word overlap below this
HEAD = 80

CJK = '\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff'
TOKEN_RE = re.compile(r'[%s]+|[^\W%s]+' % (CJK, CJK))
CJK_RE = re.compile(r'[%s]' % CJK)
WS_RE = re.compile(r'\s+')

COLUMNS = ['site', 'record', 'url', 'visible_old', 'visible_new', 'old_chars', 'new_chars',
           'delta', 'ratio', 'changed', 'ws_only', 'jaccard', 'overlap', 'flags',
           'old_status', 'new_status', 'old_path', 'new_path', 'old_head', 'new_head']


def tokens(text):
    out = set()
    for t in TOKEN_RE.findall(text.lower()):
        if CJK_RE.match(t):
            if len(t) == 1:
                out.add(t)
            else:
                out.update(t[i:i + 2] for i in range(len(t) - 1))
        else:
            out.add(t)
    return out


def nonspace(text):
    return sum(map(len, text.split()))


def head(text):
    s = WS_RE.sub(' ', text).strip()[:HEAD]
    return ''.join(c if c.isprintable() else ' ' for c in s)


DECODER = json.JSONDecoder()
WS = ' \t\n\r'


def head_fields(s):
    """The top-level members of a JSON object up to "blocks", the bulk of the
    file, which is never compared (parsing it would triple the time)."""
    d = {}
    i = s.index('{') + 1
    while True:
        while s[i] in WS:
            i += 1
        if s[i] == '}':
            return d
        key, i = DECODER.raw_decode(s, i)
        while s[i] in WS:
            i += 1
        if s[i] != ':':
            raise ValueError('expected ":"')
        i += 1
        while s[i] in WS:
            i += 1
        if key == 'blocks':
            return d
        d[key], i = DECODER.raw_decode(s, i)
        while s[i] in WS:
            i += 1
        if s[i] == ',':
            i += 1
        elif s[i] != '}':
            raise ValueError('expected "," or "}"')


def load(path):
    """The fields we compare, or None when the file is missing or not JSON."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            s = f.read()
    except OSError:
        return None
    try:
        d = head_fields(s)
    except (ValueError, IndexError):
        try:
            d = json.loads(s)
        except ValueError:
            return None
    if not isinstance(d, dict):
        return None
    text = d.get('text') or ''
    return {'text': text, 'visible': d.get('chars', -1), 'status': d.get('status', ''),
            'warning': d.get('warning', ''), 'path': d.get('content_path', ''),
            'url': d.get('url', '')}


def listing(d):
    """{record key: file name}. Builds name a WARC's records differently
    (`00042.json` alone, `SITE-00042.json` since output names carry the
    container's name): the key is the trailing record number."""
    try:
        names = [f for f in os.listdir(d) if f.endswith('.json')]
    except OSError:
        return {}
    out = {}
    for f in names:
        stem = f[:-5]
        m = re.search(r'(\d+)$', stem)
        out[m.group(1) if m else stem] = f
    return out


def compare_warc(job):
    """Rows for one WARC: every record present in either run."""
    runs, tag, site = job
    old_dir = os.path.join(runs, 'old', tag)
    new_dir = os.path.join(runs, 'new', tag)
    rows = []
    lo, ln = listing(old_dir), listing(new_dir)
    for rec in sorted(set(lo) | set(ln)):
        o = load(os.path.join(old_dir, lo[rec])) if rec in lo else None
        n = load(os.path.join(new_dir, ln[rec])) if rec in ln else None
        flags = []
        if o is None:
            flags.append('missing_old')
        if n is None:
            flags.append('missing_new')
        ot = o['text'] if o else ''
        nt = n['text'] if n else ''
        oc, nc = nonspace(ot), nonspace(nt)
        changed = (o is None) != (n is None) or ot != nt
        ws_only = changed and o is not None and n is not None and ot.split() == nt.split()
        if not changed or ws_only:
            jac = ovl = 1.0
        else:
            a, b = tokens(ot), tokens(nt)
            inter = len(a & b)
            union = len(a | b)
            jac = inter / union if union else 1.0
            small = min(len(a), len(b))
            ovl = inter / small if small else (1.0 if not a and not b else 0.0)
        vo = o['visible'] if o else -1
        vn = n['visible'] if n else -1
        empty_before = o is not None and oc == 0 and vo > EMPTY_VISIBLE
        empty_after = n is not None and nc == 0 and vn > EMPTY_VISIBLE
        if changed:
            flags.append('changed')
        if ws_only:
            flags.append('ws_only')
        if oc > 0 and nc < LOSS * oc:
            flags.append('lost')
        if nc > GAIN * oc:
            flags.append('gained')
        if empty_before:
            flags.append('empty_before')
        if empty_after:
            flags.append('empty_after')
        if changed and oc > 0 and nc > 0 and ovl < SWAP:
            flags.append('swapped')
        if o and n and o['status'] != n['status']:
            flags.append('status')
        if o and n and o['path'] != n['path']:
            flags.append('path')
        if oc:
            ratio = nc / oc
        else:
            ratio = 1.0 if nc == 0 else float('inf')
        rows.append({
            'site': site, 'record': rec, 'url': (n or o or {}).get('url', ''),
            'visible_old': vo, 'visible_new': vn, 'old_chars': oc, 'new_chars': nc,
            'delta': nc - oc, 'ratio': ratio, 'changed': int(changed), 'ws_only': int(ws_only),
            'jaccard': jac, 'overlap': ovl, 'flags': flags,
            'old_status': o['status'] if o else 'MISSING', 'new_status': n['status'] if n else 'MISSING',
            'old_path': o['path'] if o else '', 'new_path': n['path'] if n else '',
            'old_head': head(ot), 'new_head': head(nt),
        })
    return rows


def fmt_ratio(r):
    return 'inf' if r == float('inf') else '%.2f' % r


def tsv_cell(v):
    if isinstance(v, float):
        return fmt_ratio(v) if v == float('inf') else '%.4f' % v
    if isinstance(v, list):
        return ','.join(v)
    return str(v).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ')


def pct(a, b):
    return '%+.2f%%' % (100.0 * (b - a) / a) if a else 'n/a'


def table(title, rows, width):
    print('\n%s' % title)
    if not rows:
        print('  (none)')
        return
    print('  %-*s %-8s %8s %8s %7s %6s %6s  %s' % (width, 'site', 'record', 'old', 'new', 'ratio',
                                                  'jacc', 'ovl', 'flags'))
    for r in rows:
        flags = ','.join(f for f in r['flags'] if f != 'changed')
        print('  %-*s %-8s %8d %8d %7s %6.3f %6.3f  %s' % (
            width, r['site'], r['record'], r['old_chars'], r['new_chars'], fmt_ratio(r['ratio']),
            r['jaccard'], r['overlap'], flags))
        print('      old: %s' % (r['old_head'] or '(empty)'))
        print('      new: %s' % (r['new_head'] or '(empty)'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--runs', required=True, help='directory with old/TAG and new/TAG')
    ap.add_argument('--manifest', required=True, help='TAG<TAB>SITE<TAB>WARC lines')
    ap.add_argument('--tsv', required=True, help='per-page table to write')
    ap.add_argument('--top', type=int, default=25)
    ap.add_argument('--jobs', type=int, default=2)
    args = ap.parse_args()
    sys.stdout.reconfigure(encoding='utf-8', errors='replace')

    jobs = []
    with open(args.manifest, encoding='utf-8') as f:
        for line in f:
            tag, site, _ = line.rstrip('\n').split('\t', 2)
            jobs.append((args.runs, tag, site))
    rows = []
    done = False
    if args.jobs > 1 and len(jobs) > 1:
        try:
            with ProcessPoolExecutor(max_workers=args.jobs) as ex:
                for part in ex.map(compare_warc, jobs):
                    rows.extend(part)
            done = True
        except (OSError, ImportError):  # no process pool here (no /dev/shm): one process
            rows = []
    if not done:
        for j in jobs:
            rows.extend(compare_warc(j))

    def count(flag):
        return sum(1 for r in rows if flag in r['flags'])

    changed = [r for r in rows if r['changed']]
    old_total = sum(r['old_chars'] for r in rows)
    new_total = sum(r['new_chars'] for r in rows)
    n_old = sum(1 for r in rows if 'missing_old' not in r['flags'])
    n_new = sum(1 for r in rows if 'missing_new' not in r['flags'])
    newly_empty = sum(1 for r in rows if 'empty_after' in r['flags'] and 'empty_before' not in r['flags'])
    unempty = sum(1 for r in rows if 'empty_before' in r['flags'] and 'empty_after' not in r['flags'])
    low_jac = sum(1 for r in changed if r['jaccard'] < SWAP and not r['ws_only'])

    print('== summary (%d WARCs)' % len(jobs))
    print('  pages                      %7d   (old output %d, new output %d)' % (len(rows), n_old, n_new))
    print('  text changed               %7d   (%.2f%%; whitespace only %d)' % (
        len(changed), 100.0 * len(changed) / len(rows) if rows else 0.0, count('ws_only')))
    print('  empty before / after       %7d / %d   (text empty, page > %d visible chars; newly empty %d, no longer empty %d)' % (
        count('empty_before'), count('empty_after'), EMPTY_VISIBLE, newly_empty, unempty))
    print('  lost > 30%% of text         %7d' % count('lost'))
    print('  gained > 30%% of text       %7d' % count('gained'))
    print('  swapped (word overlap<%.1f) %7d   (token-set Jaccard < %.1f: %d of the changed pages)' % (
        SWAP, count('swapped'), SWAP, low_jac))
    print('  status changed             %7d' % count('status'))
    print('  content path changed       %7d' % count('path'))
    print('  missing old / new          %7d / %d   (no JSON output from that binary)' % (
        count('missing_old'), count('missing_new')))
    print('  total chars old / new      %d / %d   (%+d, %s)' % (old_total, new_total, new_total - old_total,
                                                           pct(old_total, new_total)))

    width = max([len('site')] + [len(r['site']) for r in rows])
    width = min(width, 40)
    losers = sorted((r for r in changed if r['delta'] < 0), key=lambda r: (r['delta'], r['site'], r['record']))
    gainers = sorted((r for r in changed if r['delta'] > 0), key=lambda r: (-r['delta'], r['site'], r['record']))
    swapped = sorted((r for r in changed if 'swapped' in r['flags']),
                     key=lambda r: (r['overlap'], -max(r['old_chars'], r['new_chars']), r['site'], r['record']))
    table('== worst losers (top %d of %d, by characters lost)' % (min(args.top, len(losers)), len(losers)),
          losers[:args.top], width)
    table('== worst gainers (top %d of %d, by characters gained)' % (min(args.top, len(gainers)), len(gainers)),
          gainers[:args.top], width)
    table('== swapped text (top %d of %d, lowest word overlap first)' % (min(args.top, len(swapped)), len(swapped)),
          swapped[:args.top], width)

    sites = {}
    for r in rows:
        s = sites.setdefault(r['site'], {'pages': 0, 'changed': 0, 'lost': 0, 'gained': 0,
                                         'empty_after': 0, 'swapped': 0, 'old': 0, 'new': 0})
        s['pages'] += 1
        s['changed'] += r['changed']
        for k in ('lost', 'gained', 'swapped'):
            s[k] += k in r['flags']
        s['empty_after'] += 'empty_after' in r['flags'] and 'empty_before' not in r['flags']
        s['old'] += r['old_chars']
        s['new'] += r['new_chars']
    moved = sorted((k for k, s in sites.items() if s['changed']),
                   key=lambda k: (-sites[k]['changed'] / sites[k]['pages'], -sites[k]['changed'], k))
    print('\n== sites with changed pages (%d of %d; by share of pages changed)' % (len(moved), len(sites)))
    if moved:
        print('  %-*s %6s %8s %6s %5s %6s %6s %5s %10s %10s %9s' % (
            width, 'site', 'pages', 'changed', 'share', 'lost', 'gained', 'swap', 'empty', 'chars_old',
            'chars_new', 'change'))
        for k in moved:
            s = sites[k]
            print('  %-*s %6d %8d %5.0f%% %5d %6d %6d %5d %10d %10d %9s' % (
                width, k, s['pages'], s['changed'], 100.0 * s['changed'] / s['pages'], s['lost'],
                s['gained'], s['swapped'], s['empty_after'], s['old'], s['new'], pct(s['old'], s['new'])))
    else:
        print('  (none)')

    os.makedirs(os.path.dirname(os.path.abspath(args.tsv)), exist_ok=True)
    with open(args.tsv, 'w', encoding='utf-8') as f:
        f.write('\t'.join(COLUMNS) + '\n')
        for r in sorted(rows, key=lambda r: (r['site'], r['record'])):
            f.write('\t'.join(tsv_cell(r[c]) for c in COLUMNS) + '\n')


if __name__ == '__main__':
    main()
