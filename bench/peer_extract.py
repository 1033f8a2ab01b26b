#!/usr/bin/env python3
"""Main text of every page of a folder with a peer extractor, in one process:
the peer's half of bench/peer_speed.sh, which times it beside winnow.

usage: peer_extract.py PEER DIR OUT
  PEER  trafilatura (trafilatura.extract, its defaults) or readability
        (readability-lxml: Document(html).summary(), its text)
  DIR   pages: *.html, *.htm and *.html.gz, read in name order
  OUT   a folder: one ID.txt per page (ID: the file name less its suffix)

Prints "PAGES FAILED" on stdout. Exit status 2 when the peer is not
installed or on usage errors.
"""
import gzip
import os
import sys


def pages(folder):
    for name in sorted(os.listdir(folder)):
        for suffix in ('.html.gz', '.html', '.htm'):
            if name.endswith(suffix):
                yield name[: -len(suffix)], os.path.join(folder, name), suffix == '.html.gz'
                break


def extractor(peer):
    """A function from page bytes to main text, or None when not installed."""
    if peer == 'trafilatura':
        try:
            import trafilatura
        except ImportError:
            return None
        return lambda raw: trafilatura.extract(raw) or ''
    if peer == 'readability':
        try:
            import lxml.html
            from readability import Document
        except ImportError:
            return None

        def run(raw):
            summary = Document(raw).summary(html_partial=True)
            return lxml.html.fromstring(summary).text_content() if summary.strip() else ''

        return run
    return None


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    peer, folder, out = argv[1:]
    run = extractor(peer)
    if run is None:
        sys.stderr.write('peer_extract: %s is not installed (or not a peer this script knows)\n' % peer)
        return 2
    os.makedirs(out, exist_ok=True)
    done = failed = 0
    for ident, path, packed in pages(folder):
        with (gzip.open(path, 'rb') if packed else open(path, 'rb')) as f:
            raw = f.read()
        try:
            text = run(raw)
        except Exception:  # a page the peer cannot read counts as failed, as winnow's do
            text, failed = '', failed + 1
        with open(os.path.join(out, ident + '.txt'), 'w', encoding='utf-8') as f:
            f.write(text)
        done += 1
    print(done, failed)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
