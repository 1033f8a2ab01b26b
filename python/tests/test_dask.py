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


def run_dask(warcs, db, out, *extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(conftest.ROOT, "python")
    if conftest.ASAN_PRELOAD:  # the sanitized library: every worker process needs the runtime first
        env["LD_PRELOAD"] = conftest.ASAN_PRELOAD
    stats = str(out) + ".stats.json"
    p = subprocess.run([sys.executable, "-m", "winnow.dask"] + warcs +
                       ["--db", str(db), "-o", str(out), "--workers", "2", "--stats", stats] + list(extra),
                       env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-4000:]
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
