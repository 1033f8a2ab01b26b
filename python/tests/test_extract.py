"""winnow.extract, winnow.blocks and the Extractor: real pages, formats,
bad input, exceptions, the cdef against winnow.h."""
import json
import os
import shutil
import subprocess

import pytest

import winnow
from winnow._ffi import ffi

STRUCTS = ["winnow_options", "winnow_source", "winnow_input", "winnow_rule", "winnow_block", "winnow_comment",
           "winnow_record", "winnow_reader_options", "winnow_site_options", "winnow_site_summary",
           "winnow_sitedb_report", "winnow_partial_info", "winnow_merge_options", "winnow_merge_report",
           "winnow_jsonl_options", "winnow_json_options"]
ENUMS = ["winnow_status", "winnow_format", "winnow_meta_field", "winnow_input_format", "winnow_sitedb_access",
         "winnow_mode", "winnow_method"]


def test_version_and_library():
    assert winnow.version() == "0.1.0"
    assert os.path.exists(winnow.library_path) or winnow.library_path.startswith("libwinnow")


def test_cdef_matches_header(root, tmp_path):
    """Every structure's size and field offsets and every enum value of the
    cdef are those the C compiler gives winnow.h."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler")
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "winnow.h"', "int main(void) {"]
    expect = []
    for s in STRUCTS:
        t = ffi.typeof(s)
        lines.append('printf("%%zu\\n", sizeof(%s));' % s)
        expect.append(ffi.sizeof(t))
        for name, field in t.fields:
            lines.append('printf("%%zu\\n", offsetof(%s, %s));' % (s, name))
            expect.append(field.offset)
    for e in ENUMS:
        t = ffi.typeof(e)
        lines.append('printf("%%zu\\n", sizeof(%s));' % e)
        expect.append(ffi.sizeof(t))
        for value, name in sorted(t.elements.items()):
            lines.append('printf("%%ld\\n", (long)%s);' % name)
            expect.append(value)
    lines.append("return 0; }")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines))
    exe = tmp_path / "layout"
    subprocess.run([cc, "-I", os.path.join(root, "include"), str(src), "-o", str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()]
    assert got == expect


def test_status_names_match_classes():
    for cls in (winnow.EmptyError, winnow.BinaryError, winnow.TooLargeError, winnow.NoMemoryError,
                winnow.ParseError, winnow.FileError, winnow.ArgumentError, winnow.FormatError,
                winnow.DatabaseError, winnow.DatabaseDamagedError, winnow.DatabaseReadOnlyError,
                winnow.DatabaseFormatError, winnow.DatabaseBusyError):
        assert winnow.status_name(cls.code) == cls.status
    assert winnow.status_name(0) == "WINNOW_OK"


@pytest.mark.parametrize("name", ["git-am", "postgresql-auth-ldap", "postgresql-triggers", "python-poplib"])
def test_samples_as_the_cli(root, cli, name):
    """The text of each sample page is the CLI's, byte for byte."""
    path = os.path.join(root, "samples", name + ".html")
    with open(path, "rb") as f:
        page = f.read()
    want = subprocess.run([cli, "extract", "-q", path], check=True, capture_output=True).stdout.decode()
    r = winnow.extract(page)
    assert r.text == want
    assert r.status == "WINNOW_OK" and r.ok and r.warning == ""
    assert r.title and r.metadata["title"] == r.title
    assert set(r.metadata) == set(winnow.META_FIELDS)
    assert r.content_source in ("scorer", "fallback-landmark", "fallback-description", "fallback-unhinted")
    assert winnow.extract(page, output="str") == want
    assert winnow.extract(page, output=str) == want
    assert str(r) == want


def test_golden_pages(root):
    """Text, Markdown, HTML, JSON and full text of the golden pages as kept in
    tests/golden/ (the CLI reads them from stdin: source file "-")."""
    exts = {"text": "txt", "markdown": "md", "html": "html", "json": "json", "fulltext": "full.txt"}
    n = 0
    with open(os.path.join(root, "tests", "golden", "pages.tsv")) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, page = line.split("\t")[:2]
            with open(os.path.join(root, page), "rb") as p:
                html = p.read()
            with winnow.Extractor() as ex:
                for fmt, ext in exts.items():
                    with open(os.path.join(root, "tests", "golden", "%s.%s" % (name, ext)), encoding="utf-8") as g:
                        want = g.read()
                    got = ex.extract(html, format=fmt, output="str", source={"file": "-"})
                    assert got == want, (name, fmt)
                    n += 1
    assert n >= 25


def test_formats(git_am):
    r = winnow.extract(git_am, format="json", url="https://git-scm.com/docs/git-am")
    d = r.json()
    assert d["title"] == "git-am(1)" and d["status"] == "WINNOW_OK"
    assert d["source"]["url"] == "https://git-scm.com/docs/git-am"
    md = winnow.extract(git_am, format="markdown")
    assert md.format == "markdown" and md.text.startswith("#")
    assert winnow.extract(git_am, format="md", output="str") == md.text
    html = winnow.extract(git_am, format="html", output="str")
    assert "<p>" in html or "<div" in html
    segs = winnow.extract(git_am, format="segments").json()
    assert isinstance(segs, dict)
    full = winnow.extract(git_am, format="fulltext", output="str")
    assert len(full) >= len(winnow.extract(git_am, output="str"))


def test_blocks(git_am, cli, root):
    bl = winnow.blocks(git_am)
    want = subprocess.run([cli, "blocks", "-q", os.path.join(root, "samples", "git-am.html")], check=True,
                          capture_output=True).stdout.decode()
    assert bl == [json.loads(line) for line in want.splitlines()]
    assert bl and {"tag", "path", "text", "templateness", "content", "parent"} <= set(bl[0])
    assert any(b["content"] for b in bl) and any(not b["content"] for b in bl)


def test_comments(forum, cli, root):
    r = winnow.extract(forum, comments=True)
    assert r.comments and all(set(c) == {"author", "date", "text"} for c in r.comments)
    # the date alone, not its header line ("Re:Finally by lunchbox on ... (#4411)")
    assert r.comments[0]["author"] == "lunchbox" and r.comments[0]["date"] == "Monday March 03, 2014 @10:32AM"
    want = subprocess.run([cli, "extract", "-q", "--comments",
                           os.path.join(root, "tests", "data", "pages", "synthetic-story-comments.html")],
                          check=True, capture_output=True).stdout.decode()
    assert r.text == want
    plain = winnow.extract(forum)
    assert plain.comments is None and len(plain.text) < len(r.text)
    # JSON carries its own comments: the text is the rendering alone
    assert winnow.extract(forum, format="json", comments=True).text == winnow.extract(forum, format="json").text


def test_str_and_bytes(git_am):
    as_str = winnow.extract(git_am.decode("utf-8"))
    as_bytes = winnow.extract(git_am)
    assert as_str.text == as_bytes.text
    assert winnow.extract(bytearray(git_am)).text == as_bytes.text
    assert winnow.extract(memoryview(git_am)).text == as_bytes.text


PARA = "<p>%s</p>" % ("Le café de la gare est ouvert tous les jours, même le dimanche, à partir de sept heures. " * 3)


def test_str_ignores_meta_charset():
    """A str is handed over as UTF-8: a <meta charset> of another encoding no
    longer applies to it; bytes follow their declaration."""
    page = '<html><head><meta charset="iso-8859-1"><title>Café</title></head><body>%s</body></html>' % PARA
    r = winnow.extract(page)
    assert "café" in r.text and r.title == "Café" and r.metadata["charset"] == "UTF-8"
    rb = winnow.extract(page.encode("iso-8859-1"))
    assert "café" in rb.text and rb.title == "Café"
    forced = winnow.extract(page.encode("utf-8"), charset="utf-8")
    assert "café" in forced.text


def test_bad_input():
    with pytest.raises(winnow.EmptyError) as ei:
        winnow.extract(b"")
    e = ei.value
    assert e.status == "WINNOW_E_EMPTY" and e.code == 10 and isinstance(e, ValueError)
    assert str(e).startswith("WINNOW_E_EMPTY: ") and e.message
    with pytest.raises(winnow.EmptyError):
        winnow.extract("")
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64
    with pytest.raises(winnow.BinaryError) as ei:
        winnow.extract(png)
    assert ei.value.status == "WINNOW_E_BINARY" and "PNG" in ei.value.message
    with pytest.raises(winnow.BinaryError):
        winnow.extract(os.urandom(4096))
    # NUL/0x01 pairs: UTF-16 by their shape, U+0001 after U+0001 once read
    with pytest.raises(winnow.BinaryError) as ei:
        winnow.extract(b"\x00\x01" * 1000)
    assert "control characters" in ei.value.message
    with pytest.raises(TypeError):
        winnow.extract(12345)
    with pytest.raises(TypeError):
        winnow.extract(None)
    with pytest.raises(winnow.ArgumentError) as ei:
        winnow.extract(b"<p>x</p>", format="pdf")
    assert ei.value.status == "WINNOW_E_ARG"
    with pytest.raises(winnow.ArgumentError):
        winnow.extract(b"<p>x</p>", output="dict")


def test_no_content_is_not_an_error():
    r = winnow.extract(b"<html><body></body></html>")
    assert r.status == "WINNOW_NO_CONTENT" and not r.ok and r.warning and r.text == ""
    r = winnow.extract(b"<html><body><a href=x>a</a> <a href=y>b</a></body></html>")
    assert r.status in ("WINNOW_NO_MAIN", "WINNOW_NO_CONTENT", "WINNOW_OK")
    r = winnow.extract(b"<html><body><p>" + b"\xff\xfe broken \x80 bytes " * 20 + b"</p></body></html>")
    assert r.status in ("WINNOW_OK", "WINNOW_PARTIAL")


def test_too_large_and_huge():
    with winnow.Extractor(max_input_bytes=1000) as ex:
        with pytest.raises(winnow.TooLargeError) as ei:
            ex.extract(b"<p>" + b"word " * 1000 + b"</p>")
        assert ei.value.status == "WINNOW_E_TOO_LARGE"
        assert "1000" in ei.value.message or ei.value.message
        assert ex.extract(b"<p>" + b"word " * 50 + b"</p>").ok  # the engine goes on
    # a 6 MB page of paragraphs
    huge = ("<html><body>" + "".join(
        "<p>Paragraph %d of a long article that goes on and on, with words enough to count.</p>" % i
        for i in range(70000)) + "</body></html>").encode()
    assert len(huge) > 6e6
    r = winnow.extract(huge)
    assert r.ok and "Paragraph 69999 of a long article" in r.text
    with pytest.raises(winnow.ArgumentError):
        winnow.Extractor(max_input_bytes=0)
    # past the C field's range: the caller's mistake, not cffi's OverflowError
    with pytest.raises(winnow.ArgumentError) as ei:
        winnow.Extractor(max_input_bytes=2**64)
    assert "max_input_bytes" in ei.value.message
    with pytest.raises(winnow.ArgumentError):
        winnow.Extractor(max_depth=2**32)
    assert winnow.Extractor(max_input_bytes=2**64 - 1)


def test_nul_in_a_string_argument_is_refused():
    # a NUL would end the C string: the rest dropped with status OK
    page = b"<html><body><p>" + b"Words of the page, enough of them to read. " * 10 + b"</p></body></html>"
    for kw in ({"url": "https://example.com/a\0b"}, {"charset": "utf-8\0junk"}, {"url": b"https://x.example/\0"}):
        with pytest.raises(winnow.ArgumentError) as ei:
            winnow.extract(page, **kw)
        assert "NUL" in ei.value.message and list(kw)[0] in ei.value.message
    with winnow.Extractor() as ex:
        with pytest.raises(winnow.ArgumentError):
            ex.jsonl(page, url="https://example.com/", id="a\0b")
    assert winnow.extract(page, url="https://example.com/a", charset="utf-8").ok


def test_deep_nesting():
    page = b"<html><body>" + b"<div>" * 100000 + b"<p>deep text here, enough words to be a block of content.</p>" \
        + b"</div>" * 100000 + b"</body></html>"
    r = winnow.extract(page)
    assert r.status in ("WINNOW_OK", "WINNOW_PARTIAL", "WINNOW_NO_MAIN", "WINNOW_NO_CONTENT")


def test_url_and_record(git_am):
    r = winnow.extract(git_am, url="https://git-scm.com/docs/git-am")
    assert r.url == "https://git-scm.com/docs/git-am"
    rec = winnow.Record("https://example.org/x", git_am, source="x.warc#0", file="x.warc", number=3,
                        record_id="<urn:uuid:1>")
    d = winnow.extract(rec, format="json").json()
    assert d["source"] == {"file": "x.warc", "record": 3, "record_id": "<urn:uuid:1>",
                           "url": "https://example.org/x"}


def test_extractor_options(git_am, tmp_path):
    with winnow.Extractor() as ex:
        assert ex.has_model
        with_title = ex.extract(git_am).text
    with winnow.Extractor(include_title=False, classifier=False, smooth=False) as ex:
        assert not ex.has_model
        assert ex.extract(git_am).ok
    assert winnow.extract(git_am, include_title=False).ok  # module level, options
    assert with_title
    with pytest.raises(winnow.FileError) as ei:
        winnow.Extractor(model=str(tmp_path / "none.wmodel"))
    assert ei.value.status == "WINNOW_E_IO" and "none.wmodel" in ei.value.message
    bad = tmp_path / "bad.wmodel"
    bad.write_bytes(b"not a model file at all" * 10)
    with pytest.raises(winnow.FormatError) as ei:
        winnow.Extractor(model=str(bad))
    assert ei.value.status == "WINNOW_E_FORMAT"
    rules = winnow.rules()
    assert rules and {"name", "stage", "why", "default", "off"} <= set(rules[0])
    name = rules[0]["name"]
    with winnow.Extractor(rules={name: rules[0]["off"]}) as ex:
        assert ex.extract(git_am).text
    with pytest.raises(winnow.ArgumentError) as ei:
        winnow.Extractor(rules={"no-such-rule": 1})
    assert "no-such-rule" in ei.value.message


def test_extractor_close(git_am):
    ex = winnow.Extractor()
    ex.extract(git_am)
    ex.close()
    ex.close()
    with pytest.raises(winnow.ArgumentError):
        ex.extract(git_am)
    with winnow.Extractor() as ex2:
        pass
    with pytest.raises(winnow.ArgumentError):
        ex2.extract(git_am)


def test_errors_pickle():
    import pickle
    try:
        winnow.extract(b"")
    except winnow.Error as e:
        e2 = pickle.loads(pickle.dumps(e))
        assert type(e2) is type(e) and e2.status == e.status and e2.message == e.message


def test_jsonl_as_the_cli(root, cli, tmp_path):
    """Extractor.jsonl: the line `winnow extract --format jsonl` writes, a failed
    page's too."""
    path = os.path.join("samples", "git-am.html")
    want = subprocess.run([cli, "extract", "-q", "--format", "jsonl", path], cwd=root, check=True,
                          capture_output=True).stdout.decode()
    rec = next(iter(winnow.read(os.path.join(root, "samples"))))
    assert rec.id == "git-am"
    with winnow.Extractor() as ex:
        got = ex.jsonl(rec.data, id="git-am", source={"file": path})
        assert got == want and got.endswith("\n") and got.count("\n") == 1
        line = json.loads(got)
        assert line["status"] == "WINNOW_OK" and line["error"] is None and line["text"]
        with_extras = json.loads(ex.jsonl(rec.data, blocks=True, comments=True))
        assert with_extras["id"] is None and isinstance(with_extras["blocks"], list) and "comments" in with_extras
        png = tmp_path / "x.png.html"
        png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"0" * 40)
        want = subprocess.run([cli, "extract", "-q", "--format", "jsonl", str(png)], capture_output=True).stdout
        got = ex.jsonl(png.read_bytes(), id="x.png", source={"file": str(png)})
        assert got == want.decode()
        assert json.loads(got)["status"] == "WINNOW_E_BINARY" and json.loads(got)["text"] is None
    # format="jsonl" through extract(): the line without a name
    assert json.loads(winnow.extract(rec.data, format="jsonl", output="str"))["id"] is None
