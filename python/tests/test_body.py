"""The body of the json and jsonl outputs (``body=``, the CLI's --body): each
format asked for in a key of its name, byte for byte that format's output,
the same as the CLI writes; bad values raise ArgumentError."""
import json
import subprocess

import pytest

import winnow

BODY_KEYS = ("text", "markdown", "html", "fulltext")


def _body_keys(d):
    return [k for k in d if k in BODY_KEYS]


def test_jsonl_markdown_is_the_markdown(git_am):
    ex = winnow.Extractor()
    md = ex.extract(git_am, format="markdown", output="str")
    line = ex.jsonl(git_am, id="git-am", body="markdown")
    assert line.endswith("\n") and "\n" not in line[:-1]
    d = json.loads(line)
    assert _body_keys(d) == ["markdown"]
    assert d["markdown"] == md
    assert d["id"] == "git-am" and d["error"] is None
    # the default: "text" alone, the line of before
    assert ex.jsonl(git_am, body="text") == ex.jsonl(git_am) == ex.jsonl(git_am, body=None)
    assert _body_keys(json.loads(ex.jsonl(git_am))) == ["text"]


def test_json_all_bodies_in_order(git_am):
    ex = winnow.Extractor()
    want = {f: ex.extract(git_am, format=f, output="str") for f in BODY_KEYS}
    r = ex.extract(git_am, format="json", body=["fulltext", "html", "md", "text"])
    d = r.json()
    assert _body_keys(d) == list(BODY_KEYS)
    assert list(d).index("fulltext") + 1 == list(d).index("posts")
    for f in BODY_KEYS:
        assert d[f] == want[f], f
    assert r.title == d["title"] == "git-am(1)"
    # "text" as a list or a string, or no body: the bytes of before
    plain = ex.extract(git_am, format="json", output="str")
    assert ex.extract(git_am, format="json", body="text", output="str") == plain
    assert ex.extract(git_am, format="json", body=["txt"], output="str") == plain
    # the jsonl format through extract() too, and the module-level call
    d = json.loads(ex.extract(git_am, format="jsonl", body="text,markdown", output="str"))
    assert _body_keys(d) == ["text", "markdown"] and d["markdown"] == want["markdown"]
    assert winnow.extract(git_am, format="json", body="markdown").json()["markdown"] == want["markdown"]


def test_failed_page_has_null_bodies():
    d = json.loads(winnow.Extractor().jsonl(b"", url="http://x.example/", body="markdown,html"))
    assert d["status"] == "WINNOW_E_EMPTY" and d["error"]
    assert _body_keys(d) == ["markdown", "html"]
    assert d["markdown"] is None and d["html"] is None


@pytest.mark.parametrize("bad", ["", "json", "blocks", "text,", "Markdown", "text markdown", 3, ["text", 1],
                                 [], b"markdown"])
def test_bad_body_raises(git_am, bad):
    ex = winnow.Extractor()
    with pytest.raises(winnow.ArgumentError):
        ex.jsonl(git_am, body=bad)
    with pytest.raises(winnow.ArgumentError):
        ex.extract(git_am, format="json", body=bad)


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "blocks"])
def test_body_needs_json(git_am, fmt):
    with pytest.raises(winnow.ArgumentError, match="json"):
        winnow.Extractor().extract(git_am, format=fmt, body="markdown")


def test_as_the_cli(root, cli):
    """The line and the object are the CLI's --body ones, byte for byte."""
    path = root + "/samples/git-am.html"
    with open(path, "rb") as f:
        page = f.read()
    src = {"file": path, "record": None}
    ex = winnow.Extractor()
    got = ex.jsonl(page, id="git-am", source=src, body="markdown,text")
    want = subprocess.run([cli, "extract", "-q", "-f", "jsonl", "--body", "markdown,text", path], check=True,
                          capture_output=True).stdout.decode()
    assert got == want
    got = ex.extract(page, format="json", source=src, body="html", output="str")
    want = subprocess.run([cli, "extract", "-q", "-f", "json", "--body", "html", path], check=True,
                          capture_output=True).stdout.decode()
    assert got == want
