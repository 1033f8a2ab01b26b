#!/usr/bin/env python3
"""Real pages in, expected text out: the data-driven accuracy test.

usage: run_pages.py WINNOW_BINARY PAGES_DIR

PAGES_DIR/expected.tsv lists the checks, one per line (TAB-separated):
  PAGE  f1     FLOOR    4-gram shingle F1 of `winnow extract PAGE` against
                        PAGE's gold text (NAME.gold.txt for NAME.html) must
                        be at least FLOOR
  PAGE  has    PHRASE   the extracted text contains PHRASE
  PAGE  lacks  PHRASE   the extracted text does not contain PHRASE
  PAGE  line   PHRASE   some line of the extracted text is PHRASE, whole: for
                        what the text's lines show (a data table's row on one
                        line, a layout table's cells as lines of their own)
  PAGE  posts  COUNT    the page's JSON output has COUNT posts (a thread's
                        posts: its first post and every reply)
  PAGE  post   N|AUTHOR|DATE|PHRASE  post N of them (from 1) has author
                        AUTHOR and date DATE, whole, and its text contains
                        PHRASE
  PAGE  status STATUS   the page's status in the JSON output (WINNOW_OK,
                        WINNOW_NO_MAIN, ...); a page expected WINNOW_NO_MAIN
                        or WINNOW_NO_CONTENT may come out empty (exit 3), one
                        expected WINNOW_THIN_MAIN (its headline or a few
                        words of much text) exits 3 too
  PAGE  flags  FLAGS    extra `winnow extract` options for this page, space
                        separated (e.g. --no-model to check the heuristic
                        scorer's own rules, which the classifier may move);
                        {PAGES} stands for PAGES_DIR (a model file there)
  PAGE  site   DIR      extract PAGE in site mode: `winnow learn` counts the
                        pages of PAGES_DIR/DIR (other pages of PAGE's site)
                        into a temporary site database, and every run of
                        PAGE (formats and rule pins too) uses it (--db DB
                        --site DIR --mode site): the site model's rules and
                        the lone-paragraph rule act only there
  PAGE  rule   NAME     the page pins rule NAME of the rule table: with
                        `--rule NAME=OFF` (the rule's off value, from
                        `winnow rules`) at least one of the page's other
                        checks (its text's, else its status) must fail

A synthetic page (synthetic-*) pins the rules: it runs with the learned unit
decision off (--rule UNIT_MODEL=0) unless its flags give --unit-model; the
real pages run as users run them, the shipped units model on.

Every rule of `winnow rules` must be pinned by a page, or be listed in
PAGES_DIR/rules-unpinned.txt (the known gap; a listed rule that is pinned
fails too, so the list only shrinks).
Phrases are compared with all whitespace (including no-break spaces)
collapsed to single spaces, on both sides.

Every listed page is also rendered in the other formats, which must come out
well-formed: JSON that parses, blocks as one JSON object per line, Markdown
and HTML that are not empty. Any sanitizer report fails the page.

The F1 is the article-extraction benchmark's measure (the one the project's
reference scorer prints): lower-cased \\w+ tokens, multisets of 4-token
shingles, F1 of precision and recall of the shared shingles.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

TOKEN = re.compile(r'\w+', re.UNICODE)
SANITIZER = re.compile(r'Sanitizer|runtime error:')


def shingles(text, n=4):
    toks = TOKEN.findall(text.lower())
    if len(toks) < n:
        return Counter([tuple(toks)]) if toks else Counter()
    return Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))


def shingle_f1(gold, pred):
    g, p = shingles(gold), shingles(pred)
    tp = sum((g & p).values())
    fp = sum(p.values()) - tp
    fn = sum(g.values()) - tp
    if fp == 0 and fn == 0:
        return 1.0  # both empty, or identical
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def squash(s):
    return re.sub(r'\s+', ' ', s.replace('\u00a0', ' ')).strip()


def sanitizer_env():
    env = dict(os.environ)
    # sanitizers exit with a code no winnow outcome uses
    env['ASAN_OPTIONS'] = ':'.join(filter(None, [env.get('ASAN_OPTIONS'), 'exitcode=86']))
    env['UBSAN_OPTIONS'] = ':'.join(filter(None, [env.get('UBSAN_OPTIONS'), 'halt_on_error=1:exitcode=86']))
    return env


def run(winnow, page, fmt, flags=(), ok_codes=(0,)):
    """stdout of `winnow extract -f FMT [FLAGS] PAGE`, or raises with the reason."""
    env = sanitizer_env()
    try:
        r = subprocess.run([winnow, 'extract', '-q', '-f', fmt, *flags, page], capture_output=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:
        raise RuntimeError('%s: timed out' % fmt)
    err = r.stderr.decode('utf-8', 'replace')
    if SANITIZER.search(err) or r.returncode == 86:
        raise RuntimeError('%s: sanitizer report:\n%s' % (fmt, err[:3000]))
    if r.returncode not in ok_codes:
        raise RuntimeError('%s: exit status %d: %s' % (fmt, r.returncode, err.strip()[:500]))
    return r.stdout.decode('utf-8')  # strict: the output must be valid UTF-8


def learn_site(winnow, site_dir, db):
    """`winnow learn` of the pages of site_dir into db, site named after the
    directory; the extract options that use it, or raises with the reason."""
    name = os.path.basename(os.path.normpath(site_dir))
    try:
        r = subprocess.run([winnow, 'learn', '-q', '--site', name, '--db', db, site_dir], capture_output=True,
                           timeout=300, env=sanitizer_env())
    except subprocess.TimeoutExpired:
        raise RuntimeError('learn %s: timed out' % site_dir)
    err = r.stderr.decode('utf-8', 'replace')
    if SANITIZER.search(err) or r.returncode != 0:
        raise RuntimeError('learn %s: exit status %d: %s' % (site_dir, r.returncode, err.strip()[:3000]))
    return ['--db', db, '--site', name, '--mode', 'site']


def check_formats(winnow, page, flags=(), empty_ok=False):
    """(problems with the non-text renderings of one page, its JSON status,
    its posts)."""
    problems = []
    status = posts = None
    codes = (0, 3) if empty_ok else (0,)
    try:
        j = json.loads(run(winnow, page, 'json', flags, codes))
        status, posts = j.get('status'), j.get('posts')
    except (RuntimeError, ValueError) as e:
        problems.append('json: %s' % e)
    try:
        for k, line in enumerate(run(winnow, page, 'blocks', flags, codes).splitlines()):
            if json.loads(line).get('i') != k:
                problems.append('blocks: line %d has the wrong index' % (k + 1))
                break
    except (RuntimeError, ValueError) as e:
        problems.append('blocks: %s' % e)
    for fmt, must in (('markdown', None), ('html', '<!DOCTYPE html>')):
        try:
            out = run(winnow, page, fmt, flags, codes)
            if (not out.strip() and not empty_ok) or (must and must not in out):
                problems.append('%s: empty or malformed' % fmt)
        except (RuntimeError, ValueError) as e:
            problems.append('%s: %s' % (fmt, e))
    return problems, status, posts


def read_expected(path):
    checks = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.split('\t')
            kinds = ('f1', 'has', 'lacks', 'line', 'posts', 'post', 'status', 'flags', 'site', 'rule')
            if len(parts) != 3 or parts[1] not in kinds:
                sys.exit('%s:%d: expected PAGE<TAB>%s<TAB>VALUE' % (path, n, '|'.join(kinds)))
            if parts[1] == 'post' and (len(parts[2].split('|', 3)) != 4 or not parts[2].split('|')[0].isdigit()):
                sys.exit('%s:%d: a post check is N|AUTHOR|DATE|PHRASE' % (path, n))
            checks.append(tuple(parts))
    return checks


def check_text(pages_dir, page, kind, value, text):
    """(ok, description) of one f1/has/lacks/line check on a page's text."""
    if kind == 'f1':
        gold_path = os.path.join(pages_dir, os.path.splitext(page)[0] + '.gold.txt')
        with open(gold_path, encoding='utf-8') as f:
            f1 = shingle_f1(f.read(), text)
        return f1 >= float(value), 'shingle F1 %.3f (floor %s)' % (f1, value)
    if kind == 'line':
        # whitespace collapsed within each line, the line breaks kept
        found = squash(value) in {squash(l) for l in text.split('\n')}
        return found, '%s line "%s"' % ('has' if found else 'lacks', value)
    found = squash(value) in squash(text)
    return found == (kind == 'has'), '%s "%s"' % ('has' if found else 'lacks', value)


def check_posts(kind, value, posts):
    """(ok, description) of one posts/post check on a page's posts (the
    "posts" array of its JSON output)."""
    if kind == 'posts':
        return len(posts) == int(value), '%d posts (expected %s)' % (len(posts), value)
    n, author, date, phrase = value.split('|', 3)
    k = int(n) - 1
    if k < 0 or k >= len(posts):
        return False, 'no post %s (%d posts)' % (n, len(posts))
    p = posts[k]
    ok = (squash(p['author']) == squash(author) and squash(p['date']) == squash(date)
          and squash(phrase) in squash(p['text']))
    return ok, 'post %s: %s, %s, "%s..."' % (n, p['author'], p['date'], p['text'][:40])


def rule_table(winnow):
    """{name: off value} from `winnow rules`."""
    out = subprocess.run([winnow, 'rules'], capture_output=True, check=True).stdout.decode('utf-8')
    rows = [line.split('\t') for line in out.splitlines()[1:] if line.strip()]
    return {r[0]: r[3] for r in rows}


def check_rules(winnow, pages_dir, checks, rules, flags, texts):
    """(passed, failed) of the rule pins and of the table's coverage."""
    passed = failed = 0
    unpinned_path = os.path.join(pages_dir, 'rules-unpinned.txt')
    unpinned = set()
    if os.path.exists(unpinned_path):
        with open(unpinned_path, encoding='utf-8') as f:
            unpinned = {l.split('#')[0].strip() for l in f} - {''}
    pinned = set()
    for page, kind, name in checks:
        if kind != 'rule':
            continue
        if name not in rules:
            print('FAIL %s: pins rule %s, which the table does not have' % (page, name))
            failed += 1
            continue
        if texts.get(page) is None:
            print('FAIL %s: pins rule %s, but the page itself failed' % (page, name))
            failed += 1
            continue
        path = os.path.join(pages_dir, page)
        try:
            # exit 3: the page came out empty, which breaks its checks
            text = run(winnow, path, 'text', [*flags.get(page, ()), '--rule', '%s=%s' % (name, rules[name])],
                       ok_codes=(0, 3))
        except (RuntimeError, UnicodeDecodeError) as e:
            print('FAIL %s: with rule %s off: %s' % (page, name, e))
            failed += 1
            continue
        broken = [what for (p, k, v) in checks if p == page and k in ('f1', 'has', 'lacks', 'line')
                  for ok, what in [check_text(pages_dir, p, k, v, text)] if not ok]
        if not broken and any(p == page and k in ('posts', 'post') for (p, k, v) in checks):
            try:
                posts = json.loads(run(winnow, path, 'json', [*flags.get(page, ()), '--rule',
                                                              '%s=%s' % (name, rules[name])], ok_codes=(0, 3)))['posts']
            except (RuntimeError, ValueError, KeyError) as e:
                print('FAIL %s: with rule %s off: %s' % (page, name, e))
                failed += 1
                continue
            broken = [what for (p, k, v) in checks if p == page and k in ('posts', 'post')
                      for ok, what in [check_posts(k, v, posts)] if not ok]
        # a status the rule gives (a page's warning and status are its
        # checks as much as its text)
        expected = [v for (p, k, v) in checks if p == page and k == 'status']
        if expected and not broken:
            try:
                got = json.loads(run(winnow, path, 'json',
                                     [*flags.get(page, ()), '--rule', '%s=%s' % (name, rules[name])],
                                     ok_codes=(0, 3)) or '{}').get('status')
            except (RuntimeError, UnicodeDecodeError, ValueError) as e:
                got = 'no status (%s)' % e
            broken = ['status %s (expected %s)' % (got, v) for v in expected if got != v]
        if broken:
            passed += 1
            pinned.add(name)
            print('ok   %s: rule %s off breaks it (%s)' % (page, name, broken[0]))
        else:
            failed += 1
            print('FAIL %s: rule %s off changes none of its checks: the page does not pin it' % (page, name))
    for name in sorted(rules):
        if name in pinned and name in unpinned:
            print('FAIL rule %s is pinned now: take it out of rules-unpinned.txt' % name)
            failed += 1
        elif name not in pinned and name not in unpinned:
            print('FAIL rule %s: no page pins it (add a page and a rule line)' % name)
            failed += 1
    if unpinned - set(rules):
        print('FAIL rules-unpinned.txt lists rules the table does not have: %s' % ', '.join(sorted(unpinned - set(rules))))
        failed += 1
    print('     %d of %d rules pinned by a page; %d listed as not yet pinned' % (len(pinned), len(rules), len(unpinned)))
    return passed, failed


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.strip())
    winnow, pages_dir = argv
    checks = read_expected(os.path.join(pages_dir, 'expected.tsv'))
    flags = {c[0]: [t.replace('{PAGES}', pages_dir) for t in c[2].split()] for c in checks if c[1] == 'flags'}
    # the synthetic pages pin the rules, so they run with the rules alone
    # unless they name a units model (the real pages run as users run them)
    for page in {c[0] for c in checks}:
        if page.startswith('synthetic-') and '--unit-model' not in flags.get(page, ()):
            flags[page] = ['--rule', 'UNIT_MODEL=0', *flags.get(page, ())]
    sites = {c[0]: c[2] for c in checks if c[1] == 'site'}
    all_checks = [c for c in checks if c[1] not in ('flags', 'site')]
    checks = [c for c in all_checks if c[1] != 'rule']
    tmp = tempfile.mkdtemp(prefix='run_pages-')
    try:
        return run_checks(winnow, pages_dir, checks, all_checks, flags, sites, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_checks(winnow, pages_dir, checks, all_checks, flags, sites, tmp):
    passed = failed = 0
    texts, statuses, posts = {}, {}, {}
    empty_ok = {c[0] for c in checks if c[1] == 'status' and c[2] in ('WINNOW_NO_MAIN', 'WINNOW_NO_CONTENT')}
    texts, statuses = {}, {}
    empty_ok = {c[0] for c in checks if c[1] == 'status' and c[2] in ('WINNOW_NO_MAIN', 'WINNOW_NO_CONTENT',
                                                                        'WINNOW_THIN_MAIN')}
    for k, page in enumerate(dict.fromkeys(c[0] for c in checks)):  # each page once, in file order
        path = os.path.join(pages_dir, page)
        try:
            if page in sites:
                db = os.path.join(tmp, '%d.db' % k)
                flags[page] = [*flags.get(page, ()), *learn_site(winnow, os.path.join(pages_dir, sites[page]), db)]
            texts[page] = run(winnow, path, 'text', flags.get(page, ()), (0, 3) if page in empty_ok else (0,))
            problems, statuses[page], posts[page] = check_formats(winnow, path, flags.get(page, ()), page in empty_ok)
        except (RuntimeError, UnicodeDecodeError) as e:
            texts[page], problems = None, [str(e)]
        if problems:
            failed += 1
            print('FAIL %s\n     %s' % (page, '\n     '.join(problems)))
        else:
            passed += 1
            print('ok   %s: all formats well-formed' % page)
    for page, kind, value in checks:
        text = texts.get(page)
        if text is None:
            continue  # already failed above
        if kind == 'status':
            ok, what = statuses.get(page) == value, 'status %s (expected %s)' % (statuses.get(page), value)
        elif kind in ('posts', 'post'):
            ok, what = check_posts(kind, value, posts.get(page) or [])
        else:
            ok, what = check_text(pages_dir, page, kind, value, text)
        if ok:
            passed += 1
        else:
            failed += 1
        print('%s %s: %s' % ('ok  ' if ok else 'FAIL', page, what))
    p, f = check_rules(winnow, pages_dir, all_checks, rule_table(winnow), flags, texts)
    passed += p
    failed += f
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
