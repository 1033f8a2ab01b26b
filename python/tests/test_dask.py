"""winnow.dask on a LocalCluster of 2 worker processes over 3 corpus WARCs: the
database and the texts equal the single-process run's (winnow learn --db, then
winnow extract --db); Partial and SiteDB.merge in-process."""
import gzip
import json
import os
import sqlite3
import subprocess
import sys

import pytest

import conftest
import winnow

pytest.importorskip("distributed", reason="python3-distributed (scripts/install-deps.sh) is not installed")

WARCS = ["arstechnica.com.warc.gz", "www.foxnews.com.warc.gz", "jedenbod.cz.warc.gz"]


def _warc_record(uri, html, content_length=None):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html
    n = len(http) if content_length is None else content_length
    head = ("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nWARC-Record-ID: <urn:uuid:%s>\r\n"
            "Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % (uri, uri, n))
    return head.encode() + http + b"\r\n\r\n"


def _page(i):
    return ("<html><head><title>Page %d</title></head><body><article><p>Paragraph %d of a story about "
            "rivers, mountains and the weather up there, long enough to be content.</p></article>"
            "</body></html>" % (i, i)).encode()


@pytest.fixture
def hostile_warcs(tmp_path):
    """Four WARCs a crawl can hold: a record over --max-bytes 4000 between two
    pages, one whose Content-Length is 2^63, gzip members with one over the
    limit, and a gzip file cut short."""
    big = b"<html><body><p>" + b"word " * 2000 + b"</p></body></html>"
    files = {
        "a.warc": _warc_record("http://ex.org/1", _page(1)) + _warc_record("http://ex.org/big", big) +
                  _warc_record("http://ex.org/2", _page(2)),
        "b.warc": _warc_record("http://ex.org/3", _page(3)) +
                  _warc_record("http://ex.org/huge", _page(4), content_length=2 ** 63),
        "c.warc.gz": gzip.compress(_warc_record("http://ex.org/5", _page(5))) +
                     gzip.compress(_warc_record("http://ex.org/big2", big)) +
                     gzip.compress(_warc_record("http://ex.org/6", _page(6))),
        "d.warc.gz": (gzip.compress(_warc_record("http://ex.org/7", _page(7))) +
                      gzip.compress(_warc_record("http://ex.org/8", _page(8))))[:-30],
    }
    paths = []
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    return paths


@pytest.fixture(scope="module")
def warcs():
    d = os.path.join(conftest.SHARED, "corpus", "sites")
    paths = [os.path.join(d, w) for w in WARCS]
    if not all(os.path.exists(p) for p in paths):
        pytest.skip("corpus WARCs not there")
    return paths


def dump(db):
    """Every row of every site, by name, floats exact (the site.partial test's dump);
    the update times aside."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    out = []
    for sid, name, clock, pages, hl in con.execute(
            "SELECT id, name, clock, pages, half_life FROM sites ORDER BY name").fetchall():
        out.append(("site", name, repr(clock), repr(pages), repr(hl)))
        out += [("key",) + tuple(map(repr, r)) for r in con.execute(
            "SELECT kind, key, df, t, sample FROM keys WHERE site=? ORDER BY kind, key", (sid,))]
        out += [("page",) + tuple(map(repr, r)) for r in con.execute(
            "SELECT imatch, t, url FROM pages WHERE site=? ORDER BY imatch", (sid,))]
        out += [("ce_page",) + tuple(map(repr, r)) for r in con.execute(
            "SELECT page, imatch FROM ce_pages WHERE site=? ORDER BY page", (sid,))]
        out += [("ce_block",) + tuple(map(repr, r)) for r in con.execute(
            "SELECT page, path, hex(vec) FROM ce_blocks WHERE site=? ORDER BY rowid", (sid,))]
    con.close()
    return out


@pytest.fixture(scope="module")
def single(warcs, cli, tmp_path_factory):
    """The single-process run: winnow learn --db, winnow extract --db -o DIR."""
    tmp = tmp_path_factory.mktemp("single")
    db = tmp / "one.db"
    subprocess.run([cli, "learn", "-q", "--db", str(db)] + warcs, check=True)
    jsonl = subprocess.run([cli, "extract", "-q", "--db", str(db), "--format", "jsonl"] + warcs,
                           capture_output=True).stdout.decode("utf-8")
    return db, jsonl


def run_dask(warcs, db, out, *extra, want=0):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(conftest.ROOT, "python")
    if conftest.ASAN_PRELOAD:  # the sanitized library: every worker process needs the runtime first
        env["LD_PRELOAD"] = conftest.ASAN_PRELOAD
    stats = str(out) + ".stats.json"
    p = subprocess.run([sys.executable, "-m", "winnow.dask"] + warcs +
                       ["--db", str(db), "-o", str(out), "--workers", "2", "--stats", stats] + list(extra),
                       env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == want, p.stderr[-4000:]
    with open(stats) as f:
        return json.load(f), p.stderr


def read_shards(out):
    text = []
    for name in sorted(os.listdir(out)):
        path = os.path.join(out, name)
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", newline="") as f:
            text.append(f.read())
    return "".join(text)


def test_dask_equals_single_process(warcs, single, tmp_path):
    one_db, want = single
    db = tmp_path / "dask.db"
    out = tmp_path / "out"
    summary, log = run_dask(warcs, db, out)
    assert summary["workers"] == 2 and summary["learn"]["pages"] == 142
    assert "map: 142 pages of 3 WARC files" in log
    # the database: every row as one learn of the three WARCs in order
    assert dump(db) == dump(one_db)
    # the output: the shards in order are, byte for byte, what
    # winnow extract --db DB --format jsonl writes for the same WARCs
    got = read_shards(out)
    assert sorted(os.listdir(out)) == ["shard-00000.jsonl", "shard-00001.jsonl", "shard-00002.jsonl"]
    assert got == want
    lines = [json.loads(x) for x in got.splitlines()]
    assert len(lines) == 142 and all(x["error"] is None for x in lines)
    assert all(x["site"] == winnow.site_name(x["url"]) for x in lines)
    assert any(x["content_source"] == "site-model" for x in lines)
    assert all(m["peak_rss_kb"] > 0 for m in summary["worker_memory"].values())
    assert not os.path.exists(out / ".parts")
    # the database shipped to the workers, gzip shards: the same lines
    db2 = tmp_path / "dask2.db"
    out2 = tmp_path / "out2"
    summary2, _ = run_dask(warcs, db2, out2, "--ship-db", "--gzip")
    assert summary2["extract"]["shipped_db"]
    assert sorted(os.listdir(out2))[0] == "shard-00000.jsonl.gz"
    assert read_shards(out2) == want
    assert dump(db2) == dump(one_db)


def test_partial_and_merge_in_process(warcs, single, tmp_path):
    one_db, _ = single
    parts = []
    for i, w in enumerate(warcs):
        with winnow.Partial() as p:
            st = p.learn(w)
            assert st.failed == 0 and p.pages == st.counted
            path = tmp_path / ("%d.wpart" % i)
            p.write(path)
        info = winnow.check_partial(path)
        assert info["pages"] == st.counted and info["format"] == 1
        parts.append(path)
    with winnow.SiteDB(tmp_path / "m.db") as db:
        rep = db.merge(parts)
        assert rep["parts"] == 3 and rep["counted"] == 142 and rep["duplicates"] == 0
        again = db.merge(parts)  # idempotent: every page a duplicate
        assert again["counted"] == 0 and again["duplicates"] == 142
    assert dump(tmp_path / "m.db") == dump(one_db)
    bad = tmp_path / "bad.wpart"
    bad.write_bytes(b"WNPART\r\n" + b"\0" * 40)
    with pytest.raises(winnow.FormatError):
        winnow.check_partial(bad)
    with winnow.SiteDB(tmp_path / "m2.db") as db:
        with pytest.raises(winnow.FormatError):
            db.merge([parts[0], bad])
        assert db.sites() == []  # checked before anything is written
    with pytest.raises(winnow.FileError):
        winnow.check_partial(tmp_path / "missing.wpart")


def test_dask_writes_the_lines_of_skipped_records(hostile_warcs, cli, tmp_path):
    """Records skipped for being over --max-bytes (one over 4000 bytes, one
    with a Content-Length of 2^63) get their WINNOW_E_TOO_LARGE lines in the
    shards, as winnow extract writes them, a warning each; the record cut
    short by the end of d.warc.gz is a damaged record, a WINNOW_E_FORMAT
    failure with its line and its "NAME: MESSAGE" on stderr: exit 1."""
    one = tmp_path / "one.db"
    learn = subprocess.run([cli, "learn", "-q", "--max-bytes", "4000", "--db", str(one)] + hostile_warcs,
                           capture_output=True, text=True)
    assert learn.returncode == 1, learn.stderr
    p = subprocess.run([cli, "extract", "-q", "--max-bytes", "4000", "--db", str(one), "--format", "jsonl"] +
                       hostile_warcs, capture_output=True)
    assert p.returncode == 1, p.stderr
    want = p.stdout.decode("utf-8")
    lines = [json.loads(x) for x in want.splitlines()]
    assert sum(x["status"] == "WINNOW_E_TOO_LARGE" for x in lines) == 3
    cut = [x for x in lines if x["status"] == "WINNOW_E_FORMAT"]
    assert len(cut) == 1 and cut[0]["source"]["record"] == 1 and cut[0]["url"] == "http://ex.org/8"
    assert cut[0]["error"].startswith("last record cut short")  # no "d.warc.gz#297: " before it
    said = "d-00001: " + cut[0]["error"]
    assert "winnow: " + said in p.stderr.decode("utf-8")
    summary, log = run_dask(hostile_warcs, tmp_path / "dask.db", tmp_path / "out", "--max-bytes", "4000", "-q",
                            want=1)
    got = read_shards(tmp_path / "out")
    assert got.splitlines() == want.splitlines()
    assert got == want
    assert summary["extract"]["skipped"] == 3 and summary["extract"]["failed"] == 1
    assert summary["learn"]["failed"] == 1
    assert log.count("winnow.dask: warning: ") == 3, log  # said even with -q, as the CLI says them
    assert log.count("winnow.dask: " + said + "\n") == 1, log
    assert dump(tmp_path / "dask.db") == dump(one)
    # without --max-bytes: the 2^63 record is over the default limit all the same
    b = [w for w in hostile_warcs if w.endswith("b.warc")]
    p = subprocess.run([cli, "extract", "-q", "--db", str(one), "--format", "jsonl"] + b, capture_output=True)
    assert p.returncode == 4, p.stderr
    run_dask(b, tmp_path / "dask-b.db", tmp_path / "out-b", "-q", want=4)
    assert read_shards(tmp_path / "out-b") == p.stdout.decode("utf-8")
