"""winnow.SiteDB: learn, extract with the site models, list; against the CLI."""
import os
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import winnow


def test_site_name():
    # the CLI's rule (cli_site_name): host, lower case, no user, port or www.
    assert winnow.site_name("https://www.Example.ORG:8080/a?b#c") == "example.org"
    assert winnow.site_name("http://user:pw@news.example.com/x") == "news.example.com"
    assert winnow.site_name("example.com/path") == "example.com"
    assert winnow.site_name(None) == "" and winnow.site_name("") == ""


def test_learn_extract_round_trip(small_warc, cli, tmp_path):
    """Learning in Python gives the database `winnow learn` gives; extracting
    with it gives the texts `winnow extract --db` writes."""
    py_db = tmp_path / "py.db"
    with winnow.SiteDB(py_db) as db:
        stats = db.learn(small_warc)
        assert stats.pages == 40 and stats.failed == 0 and "arstechnica.com" in stats.sites
        assert stats.counted + stats.duplicates == 40
        sites = db.sites()
        assert sorted(s.name for s in sites) == sorted(stats.sites)
        assert sum(s.pages_learned for s in sites) == stats.counted
        assert all(s.keys > 0 and s.half_life == 1000 for s in sites)
        tmpl = db.templates("arstechnica.com")
        assert tmpl and tmpl[0].kind in ("block", "path-block", "chunk", "table-chunk") and tmpl[0].df > 1
        assert db.check()["sites"] == len(sites)
        recs = list(winnow.read(small_warc))
        texts = [db.extract(r, output="str") for r in recs]
        sources = [db.extract(r).content_source for r in recs]
        assert "site-model" in sources
    cli_db = tmp_path / "cli.db"
    subprocess.run([cli, "learn", "-q", "--db", str(cli_db), small_warc], check=True)
    listing = lambda db: subprocess.run([cli, "sites", "--db", str(db)], check=True, capture_output=True,
                                        text=True).stdout.splitlines()
    # the same sites, weights, pages and fingerprints (the update time aside)
    assert [line.split()[:4] for line in listing(py_db)] == [line.split()[:4] for line in listing(cli_db)]
    out = tmp_path / "out"
    subprocess.run([cli, "extract", "-q", "--db", str(py_db), "-o", str(out), small_warc], check=False)
    with open(out / "manifest.tsv") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    assert len(rows) == len(texts)
    for row, text in zip(rows, texts):
        assert (out / row[0]).read_text(encoding="utf-8") == text, row[0]
    # read back by a new handle, read-only
    with winnow.SiteDB(py_db, readonly=True) as db:
        assert [db.extract(r, output="str") for r in recs] == texts
        with pytest.raises(winnow.ArgumentError):
            db.learn(recs)
        assert [db.extract(r, mode="page", output="str") for r in recs[:3]] == \
            [winnow.extract(r, output="str") for r in recs[:3]]


def test_relearn_counts_duplicates(small_warc, tmp_path):
    with winnow.SiteDB(tmp_path / "a.db") as db:
        first = db.learn(winnow.read(small_warc))
        before = db.sites()
        again = db.learn(winnow.read(small_warc))
        assert again.counted == 0 and again.duplicates == first.pages - first.failed
        assert db.sites() == [s._replace(updated=a.updated) for s, a in zip(before, db.sites())]


def test_learn_inputs_and_failures(tmp_path, git_am):
    page = "<html><body><nav>Home | About | Contact</nav><p>Article %d: %s</p></body></html>"
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november".split()
    pages = [("https://blog.example/%d" % i,
              page % (i, " ".join(words[(i * 7 + k * 3) % len(words)] + str(k % (i + 2)) for k in range(40))))
             for i in range(8)]
    with winnow.SiteDB(tmp_path / "b.db", half_life=50) as db:
        st = db.learn(pages)
        assert st.counted == 8 and st.sites == {"blog.example"}
        st = db.learn([{"url": "https://other.example/x", "html": git_am.decode()},
                       {"url": None, "html": "<p>no url</p>"},
                       ("https://other.example/empty", b"")])
        assert st.counted == 1 and st.failed == 2
        assert [e[1] for e in st.errors] == ["WINNOW_E_ARG", "WINNOW_E_EMPTY"]
        with pytest.raises(winnow.EmptyError):
            db.learn([("https://other.example/empty", b"")], strict=True)
        st = db.learn([("no-url-page", git_am)], site="manual.example")
        assert st.sites == {"manual.example"}
        names = [s.name for s in db.sites()]
        assert names == sorted(["blog.example", "other.example", "manual.example"])
        assert [s.half_life for s in db.sites() if s.name == "blog.example"] == [50]
        with pytest.raises(winnow.ArgumentError):
            db.learn([object()])
        with pytest.raises(winnow.ArgumentError):
            db.learn(pages, commit_every=0)
        r = db.extract(pages[0][1], url=pages[0][0], mode="site")
        assert r.content_source == "site-model" and "Home | About" not in r.text
        assert "Article 0" in r.text
        with pytest.raises(winnow.ArgumentError):
            db.extract(pages[0][1], url=pages[0][0], mode="nope")
        with pytest.raises(winnow.ArgumentError):
            db.extract(pages[0][1], url=pages[0][0], method="nope")
        assert db.extract(pages[0][1]).ok  # no URL: page mode


def test_bad_databases(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not an SQLite database, just some bytes\n" * 100)
    with pytest.raises(winnow.DatabaseError) as ei:
        winnow.SiteDB(junk)
    assert ei.value.status.startswith("WINNOW_E_DB") and ei.value.message
    with pytest.raises(winnow.Error) as ei:
        winnow.SiteDB(tmp_path / "missing.db", readonly=True)
    assert ei.value.status in ("WINNOW_E_IO", "WINNOW_E_DB_FORMAT")
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        os.chmod(ro, 0o555)
        with pytest.raises(winnow.DatabaseReadOnlyError):
            winnow.SiteDB(ro / "x.db").learn([("https://a.example/", b"<p>x</p>")])


def test_close(tmp_path, git_am):
    db = winnow.SiteDB(tmp_path / "c.db")
    db.learn([("https://c.example/1", git_am)])
    db.close()
    db.close()
    with pytest.raises(winnow.ArgumentError):
        db.extract(git_am, url="https://c.example/1")
    with pytest.raises(winnow.ArgumentError):
        db.learn([("https://c.example/1", git_am)])


def test_threads_share_a_sitedb(small_warc, tmp_path):
    recs = list(winnow.read(small_warc))
    with winnow.SiteDB(tmp_path / "t.db") as db:
        db.learn(recs)
        want = [db.extract(r, output="str") for r in recs]
        with ThreadPoolExecutor(4) as pool:
            got = list(pool.map(lambda r: db.extract(r, output="str"), recs * 3))
        assert got == want * 3
        # a learn in one thread while others extract: each waits its turn
        errors = []

        def extract_all():
            try:
                for r in recs:
                    db.extract(r, output="str")
            except Exception as e:  # noqa
                errors.append(e)

        ts = [threading.Thread(target=extract_all) for _ in range(2)]
        for t in ts:
            t.start()
        db.learn(recs)
        for t in ts:
            t.join()
        assert not errors


def test_model_cache_bounded(small_warc, tmp_path):
    """max_sites bounds the models a SiteDB keeps; learning with pages of
    several sites interleaved, and extracting, give what an unbounded cache
    gives (an evicted model still being counted into is not lost)."""
    other = os.path.join(os.path.dirname(small_warc), "barcampcork.ie.warc.gz")
    if not os.path.exists(other):
        pytest.skip("no corpus WARC at %s" % other)
    a, b = list(winnow.read(small_warc))[:24], list(winnow.read(other))[:24]
    pages = [p for pair in zip(a, b) for p in pair]
    nsites = len({winnow.site_name(p.url) for p in pages})
    assert nsites >= 2

    def run(path, **kw):
        with winnow.SiteDB(path, **kw) as db:
            stats = db.learn(pages, commit_every=5)
            listing = sorted((s.name, s.pages_learned, s.keys) for s in db.sites())
            texts = [db.extract(p, mode="site", output="str") for p in pages]
            held = len(db._sites)
        return stats.counted, listing, texts, held

    counted, listing, texts, held = run(tmp_path / "all.db")
    assert held == nsites
    counted1, listing1, texts1, held1 = run(tmp_path / "one.db", max_sites=1)
    assert held1 == 1
    assert (counted1, listing1) == (counted, listing)
    assert texts1 == texts
    with pytest.raises(winnow.ArgumentError):
        winnow.SiteDB(tmp_path / "x.db", max_sites=0)
