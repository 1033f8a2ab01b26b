#!/usr/bin/env python3
"""Writes the seed corpora of fuzz_warc and fuzz_jsonl (fuzz/seeds-warc/,
fuzz/seeds-jsonl/): small hand-made files, each aimed at a part of the
reader. Run from the repository root; the files are committed, so this is
needed only to change them. fuzz/seeds-model/ is written by `winnow train`
(see its README.md)."""
import gzip
import io
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def gz(data, mtime=0):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=mtime) as f:
        f.write(data)
    return buf.getvalue()


def record(kind, uri, ctype, block, extra=b"", length=None, rid=b"<urn:uuid:00000000-0000-0000-0000-000000000001>"):
    head = (b"WARC/1.1\r\nWARC-Type: " + kind + b"\r\nWARC-Record-ID: " + rid + b"\r\n"
            + (b"WARC-Target-URI: " + uri + b"\r\n" if uri else b"")
            + b"WARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: " + ctype + b"\r\n" + extra
            + b"Content-Length: " + str(len(block) if length is None else length).encode() + b"\r\n\r\n")
    return head + block + b"\r\n\r\n"


def http(status, ctype, body, headers=b""):
    return (b"HTTP/1.1 " + status + b"\r\nContent-Type: " + ctype + b"\r\n" + headers
            + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def chunked(body, size=7):
    out = b""
    for i in range(0, len(body), size):
        part = body[i:i + size]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


PAGE = (b"<html><head><title>Seed page</title></head><body><nav>Home | About</nav>"
        b"<article><p>The first paragraph of a page read from a container.</p>"
        b"<p>A second paragraph, with \xc3\xa9 and more words.</p></article></body></html>")
LATIN1 = "<html><body><p>Caf\u00e9 cr\u00e8me, d\u00e9j\u00e0 vu.</p></body></html>".encode("latin-1")
RESP = b"application/http; msgtype=response"


def warc_seeds():
    info = record(b"warcinfo", None, b"application/warc-fields", b"software: seed\r\nformat: WARC 1.1\r\n")
    plain = (info
             + record(b"request", b"https://a.example/", b"application/http; msgtype=request",
                      b"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n")
             + record(b"response", b"https://a.example/", RESP, http(b"200 OK", b"text/html; charset=utf-8", PAGE))
             + record(b"resource", b"https://a.example/r.html", b"text/html", PAGE)
             + record(b"response", b"https://a.example/latin", RESP,
                      http(b"200 OK", b"text/html; charset=iso-8859-1", LATIN1))
             + record(b"revisit", b"https://a.example/", RESP, b"HTTP/1.1 304 Not Modified\r\n\r\n")
             + record(b"metadata", b"https://a.example/", b"application/warc-fields", b"via: seed\r\n"))
    yield "plain.warc", plain
    # one gzip member per record, as crawlers write them; payload codings
    members = [info,
               record(b"response", b"https://b.example/chunked", RESP,
                      b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                      + chunked(PAGE)),
               record(b"response", b"https://b.example/gzip", RESP,
                      http(b"200 OK", b"text/html", gz(PAGE), b"Content-Encoding: gzip\r\n")),
               record(b"response", b"https://b.example/both", RESP,
                      b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n" + chunked(gz(PAGE), 11)),
               record(b"response", b"https://b.example/png", RESP, http(b"200 OK", b"image/png", b"\x89PNG\r\n\x1a\n"))]
    yield "members.warc.gz", b"".join(gz(m) for m in members)
    # damage: a length that overshoots, junk between records, a 404, a
    # WARC-Truncated record, a header without a length, a cut last record
    damaged = (record(b"response", b"https://c.example/long", RESP, http(b"200 OK", b"text/html", PAGE),
                      length=len(PAGE) + 400)
               + b"junk between records\r\n"
               + record(b"response", b"https://c.example/404", RESP, http(b"404 Not Found", b"text/html", PAGE))
               + record(b"response", b"https://c.example/cut", RESP, http(b"200 OK", b"text/html", PAGE),
                        extra=b"WARC-Truncated: length\r\n")
               + b"WARC/1.0\r\nWARC-Type: response\r\nContent-Type: application/http\r\n\r\nno length\r\n\r\n"
               + record(b"response", b"https://c.example/last", RESP, http(b"200 OK", b"text/html", PAGE))[:-60])
    yield "damaged.warc", damaged
    # a gzip member cut short, then a good one
    good = gz(record(b"response", b"https://d.example/", RESP, http(b"200 OK", b"text/html", PAGE)))
    yield "cut-member.warc.gz", good[: len(good) // 2] + good


def jsonl_seeds():
    lines = [
        b'{"url": "https://j.example/1", "html": "<html><body><p>First page, plain.</p></body></html>"}',
        b'{"html": "<p>caf\\u00e9 \\ud83d\\ude00 \\"quoted\\" back\\\\slash \\/ tab\\t</p>", "url": "https://j.example/2",'
        b' "charset": "utf-8", "meta": {"depth": [1, 2.5e3, true, null, {"x": "y"}]}}',
        b'{"url": "https://j.example/3", "html": "' + PAGE.replace(b'"', b'\\"') + b'", "status": 200}',
        b'',
        b'   {"url":"https://j.example/4","html":"<p>after a blank line</p>"}\r',
    ]
    text = b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n"
    yield "pages.jsonl", text
    bad = b"\n".join([
        b'{"url": "https://k.example/cut", "html": "<p>a line cut sh',
        b'[1, 2, 3]',
        b'{"url": "https://k.example/n", "html": 42}',
        b'{"url": "https://k.example/dup", "html": "<p>one</p>", "html": "<p>two</p>"}',
        b'{"url": "https://k.example/bad-escape", "html": "<p>\\x41 \\ud800 lone</p>"}',
        b'not json at all',
        b'{"url": "https://k.example/ok", "html": "<p>the last good line</p>"}',
    ]) + b"\n"
    yield "damaged.jsonl", bad
    yield "pages.jsonl.gz", gz(text)
    # two gzip members, as `cat a.gz b.gz` makes
    yield "two-members.jsonl.gz", gz(lines[0] + b"\n") + gz(lines[2] + b"\n")


def main():
    for sub, seeds in (("seeds-warc", warc_seeds()), ("seeds-jsonl", jsonl_seeds())):
        os.makedirs(os.path.join(HERE, sub), exist_ok=True)
        for name, data in seeds:
            assert len(data) < 20000, name
            with open(os.path.join(HERE, sub, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
