#!/usr/bin/env python3
"""Copy one page's HTTP payload out of a gzipped WARC file.

usage: warc_extract.py FILE.warc.gz URI OUT.html   write the payload of URI to OUT.html
       warc_extract.py FILE.warc.gz                 list: payload size, URI, Content-Type

This is how the Debian documentation pages in this directory were made; the
tests do not run it. Only the standard library is used. A WARC file written
one record per gzip member (as the corpus is) is read member by member, so
a record is never split across reads and nothing but the current record is
held in memory.
"""
import sys
import zlib


def gzip_members(path):
    """Yield the decompressed bytes of each gzip member of the file."""
    with open(path, 'rb') as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)  # 16: expect a gzip header
        out = d.decompress(data[pos:]) + d.flush()
        consumed = len(data) - pos - len(d.unused_data)
        if consumed <= 0:
            raise ValueError('no progress at byte %d: not a gzip member' % pos)
        pos += consumed
        yield out


def parse_headers(block):
    """'Name: value' lines after a status/version line, as a dict."""
    lines = block.decode('utf-8', 'replace').split('\r\n')
    return dict(line.split(': ', 1) for line in lines[1:] if ': ' in line)


def responses(path):
    """Yield (uri, http_headers, payload) for every response record."""
    for record in gzip_members(path):
        warc_head, _, rest = record.partition(b'\r\n\r\n')
        warc = parse_headers(warc_head)
        if warc.get('WARC-Type') != 'response':
            continue
        # the record block is exactly Content-Length bytes: an HTTP message
        block = rest[:int(warc.get('Content-Length', len(rest)))]
        http_head, _, payload = block.partition(b'\r\n\r\n')
        yield warc.get('WARC-Target-URI', ''), parse_headers(http_head), payload


def main(argv):
    if len(argv) == 1:
        for uri, http, payload in responses(argv[0]):
            print('%d\t%s\t%s' % (len(payload), uri, http.get('Content-Type', '')))
        return 0
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    warc_path, want, out = argv
    for uri, http, payload in responses(warc_path):
        if uri == want:
            with open(out, 'wb') as f:
                f.write(payload)
            print('%s: %d bytes, %s' % (out, len(payload), http.get('Content-Type', '')))
            return 0
    print('%s: no response record for %s' % (warc_path, want), file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
