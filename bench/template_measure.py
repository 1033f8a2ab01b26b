#!/usr/bin/env python3
"""Template detection accuracy as Chakrabarti, Kumar & Punera (WWW 2007, section 6.1)
measure it: f-measure of the words and of the links a detector places in templates.

usage: template_measure.py HTML_DIR GOLD_DIR PRED_DIR [--ids FILE] [--per-page OUT.tsv]
  HTML_DIR/ID.html  the page (.htm too)
  GOLD_DIR/ID.txt   gold main content (plain text); the pages scored are the gold's IDs
  PRED_DIR/ID.txt   the extractor's output (a missing file counts as empty output)

Prints (and the page, word and link counts on stderr)
  template_text P R F1
  template_links P R F1
(micro-averaged: true/false positives and false negatives summed over all pages).

Words. A page's visible words are the \\w+ tokens (lower-cased, as score.py tokenises)
of its text outside script, style, noscript, template, title and the head. A page word
occurrence is content while the gold still has an unmatched occurrence of that word
(multiset rule, in page order), else it is truly template. The same rule against the
extractor's output gives the predicted template words. Precision = predicted template
words that are truly template / predicted template words; recall = truly template
words predicted template / truly template words.

Links. Every visible <a href> with at least one word of anchor text. A link is truly
template when some word of its anchor text is not in the gold text, predicted template
when some word is not in the output text. Precision and recall as for words. Links
without anchor words (image links) are not counted.

Python 3 standard library only.
"""
import codecs
import os
import re
import sys
from collections import Counter
from html.parser import HTMLParser

TOKEN = re.compile(r'\w+', re.UNICODE)
SKIP = {'script', 'style', 'noscript', 'template', 'title'}   # title: the head's, never shown in the page
# elements the head may hold; any other start tag (or text) ends the head
HEAD_OK = {'head', 'title', 'meta', 'link', 'base', 'style', 'script', 'noscript', 'template', 'basefont', 'bgsound'}
# phrasing elements: no word boundary at their tags (every other tag is one)
INLINE = {'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i',
          'kbd', 'label', 'mark', 'nobr', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup',
          'time', 'tt', 'u', 'var', 'wbr'}


def tokens(s):
    return TOKEN.findall(s.lower())


class Visible(HTMLParser):
    """Visible text in document order, and each <a href>'s anchor text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []          # visible text pieces
        self.links = []          # anchor texts of <a href>
        self.skip = Counter()    # open skipped elements by name
        self.in_head = False
        self.anchor = None       # text pieces of the open <a href>, or None

    def parse_marked_section(self, i, report=1):
        # '<![endif]-->', '<![CDATA[...': a bogus comment up to the first '>' as in
        # HTML5 (html.parser would look for ']>' and could swallow half the page)
        j = self.rawdata.find('>', i + 3)
        return -1 if j < 0 else j + 1

    def _close_anchor(self):
        if self.anchor is not None:
            self.links.append(' '.join(self.anchor))
            self.anchor = None

    def handle_starttag(self, tag, attrs):
        if self.skip['title'] and tag != 'title':
            # a <title> holds text only: a tag inside it means it was never closed
            # (winnow's pre-scan closes it too)
            self.skip['title'] = 0
        if tag == 'head':
            self.in_head = True
            return
        if self.in_head and tag not in HEAD_OK:
            self.in_head = False
        if tag in SKIP:
            self.skip[tag] += 1
            return
        if tag == 'a':
            self._close_anchor()   # <a> does not nest
            if any(k == 'href' for k, _ in attrs):
                self.anchor = []
        self._boundary(tag)

    def _boundary(self, tag):
        # a block-level tag keeps the words on its two sides apart
        if tag in INLINE:
            return
        self.parts.append(' ')
        if self.anchor is not None:
            self.anchor.append(' ')

    def handle_startendtag(self, tag, attrs):
        if tag in SKIP or tag == 'head':
            return
        self._boundary(tag)

    def handle_endtag(self, tag):
        if tag == 'head':
            self.in_head = False
            return
        if tag in SKIP:
            if self.skip[tag] > 0:
                self.skip[tag] -= 1
            return
        if tag == 'a':
            self._close_anchor()
        if tag == 'body' or tag == 'html':
            self._close_anchor()
        self._boundary(tag)

    def handle_data(self, data):
        if any(self.skip.values()):
            return
        if self.in_head and data.strip():
            # text directly in the head starts the body (as an HTML5 parser does)
            self.in_head = False
        if self.in_head:
            return
        self.parts.append(data)
        if self.anchor is not None:
            self.anchor.append(data)

    def close(self):
        super().close()
        self._close_anchor()


META_CHARSET = re.compile(rb'<meta[^>]+charset\s*=\s*["\']?\s*([A-Za-z0-9_:.-]+)', re.I)


def decode(b):
    if b.startswith(codecs.BOM_UTF8):
        return b[3:].decode('utf-8', 'replace')
    if b.startswith(codecs.BOM_UTF16_LE) or b.startswith(codecs.BOM_UTF16_BE):
        return b.decode('utf-16', 'replace')
    try:
        return b.decode('utf-8')
    except UnicodeDecodeError:
        pass
    m = META_CHARSET.search(b[:8192])
    if m:
        name = m.group(1).decode('ascii', 'replace').lower()
        if name in ('iso-8859-1', 'latin1', 'latin-1', 'us-ascii', 'ascii', 'iso8859-1'):
            name = 'cp1252'   # as browsers read them
        try:
            codecs.lookup(name)
            return b.decode(name, 'replace')
        except LookupError:
            pass
    return b.decode('cp1252', 'replace')


def read_text(p):
    try:
        with open(p, encoding='utf-8', errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return ''


def page(path):
    with open(path, 'rb') as f:
        html = decode(f.read())
    v = Visible()
    v.feed(html)
    v.close()
    words = tokens(''.join(v.parts))
    links = [t for t in (tokens(a) for a in v.links) if t]
    return words, links


def template_flags(words, reference):
    """True for each page word occurrence not matched by an unmatched reference occurrence."""
    left = Counter(reference)
    out = []
    for w in words:
        if left[w] > 0:
            left[w] -= 1
            out.append(False)
        else:
            out.append(True)
    return out


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else (1.0 if fn == 0 else 0.0)
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def counts(truth, pred):
    tp = sum(1 for t, q in zip(truth, pred) if t and q)
    fp = sum(1 for t, q in zip(truth, pred) if q and not t)
    fn = sum(1 for t, q in zip(truth, pred) if t and not q)
    return tp, fp, fn


def main(argv):
    args, opts = [], {}
    i = 0
    while i < len(argv):
        if argv[i] in ('--ids', '--per-page') and i + 1 < len(argv):
            opts[argv[i]] = argv[i + 1]
            i += 2
            continue
        if argv[i].startswith('--'):
            sys.exit('template_measure.py: unknown option %s' % argv[i])
        args.append(argv[i])
        i += 1
    if len(args) != 3:
        sys.exit('usage: template_measure.py HTML_DIR GOLD_DIR PRED_DIR [--ids FILE] [--per-page OUT.tsv]')
    html_dir, gold_dir, pred_dir = args
    if '--ids' in opts:
        ids = [l.strip() for l in open(opts['--ids']) if l.strip()]
    else:
        ids = sorted(f[:-4] for f in os.listdir(gold_dir) if f.endswith('.txt'))
    tw = [0, 0, 0]
    tl = [0, 0, 0]
    per = []
    scored = 0
    tw_total, tl_total = [0], [0]
    for pid in ids:
        path = None
        for ext in ('.html', '.htm'):
            if os.path.exists(os.path.join(html_dir, pid + ext)):
                path = os.path.join(html_dir, pid + ext)
                break
        if path is None:
            print('template_measure.py: no page for %s' % pid, file=sys.stderr)
            continue
        words, links = page(path)
        gold = tokens(read_text(os.path.join(gold_dir, pid + '.txt')))
        pred = tokens(read_text(os.path.join(pred_dir, pid + '.txt')))
        w = counts(template_flags(words, gold), template_flags(words, pred))
        gset, pset = set(gold), set(pred)
        lt = [any(x not in gset for x in a) for a in links]
        lp = [any(x not in pset for x in a) for a in links]
        l = counts(lt, lp)
        tw_total[0] += len(words)
        tl_total[0] += len(links)
        for k in range(3):
            tw[k] += w[k]
            tl[k] += l[k]
        scored += 1
        per.append((pid,) + w + l)
    if '--per-page' in opts:
        with open(opts['--per-page'], 'w') as f:
            f.write('id\ttext_tp\ttext_fp\ttext_fn\tlinks_tp\tlinks_fp\tlinks_fn\n')
            for row in per:
                f.write('\t'.join(str(x) for x in row) + '\n')
    print('pages %d: %d words (%d truly template), %d links (%d truly template)'
          % (scored, tw_total[0], tw[0] + tw[2], tl_total[0], tl[0] + tl[2]), file=sys.stderr)
    print('template_text %.3f %.3f %.3f' % prf(*tw))
    print('template_links %.3f %.3f %.3f' % prf(*tl))


if __name__ == '__main__':
    main(sys.argv[1:])
