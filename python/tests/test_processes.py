"""Extractor and SiteDB across process boundaries: pickled by their settings,
reopened in the worker; multiprocessing.Pool, ProcessPoolExecutor, Dask bags
and dataframes (Dask's processes scheduler: spawned workers, cloudpickle)."""
import copy
import functools
import multiprocessing
import os
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

import conftest
import winnow


@pytest.fixture(scope="module")
def pages(root, sample_paths):
    out = []
    for p in sample_paths:
        with open(p, "rb") as f:
            out.append(f.read())
    return out


@pytest.fixture
def child_env(monkeypatch):
    """Processes started afresh (spawn) load the library again: under make
    check the sanitized one, which needs the ASan runtime preloaded."""
    if conftest.ASAN_PRELOAD:
        monkeypatch.setenv("LD_PRELOAD", conftest.ASAN_PRELOAD)


@pytest.fixture(scope="module")
def site_db(root, tmp_path_factory):
    """A database learned from a made-up site of 30 pages, and those pages."""
    d = tmp_path_factory.mktemp("sites")
    warc = str(d / "site.warc")
    subprocess.run([sys.executable, os.path.join(root, "tests", "site", "gen_site.py"), warc, "--pages", "30",
                    "--format", "warc"], check=True, capture_output=True)
    path = str(d / "sites.db")
    with winnow.SiteDB(path) as db:
        assert db.learn(warc).counted == 30
    return path, [(r.url, r.data) for r in winnow.read(warc)]


def _pid_and_text(ex, html):
    return os.getpid(), ex.extract(html, output="str")


def _site_extract(db, page):
    url, html = page
    r = db.extract(html, url=url)
    return os.getpid(), r.content_source, r.text


def test_extractor_pickles_by_settings(pages):
    rule = winnow.rules()[0]
    ex = winnow.Extractor(include_title=False, max_depth=500, rules={rule["name"]: rule["default"]},
                          page_type="documentation")
    blob = pickle.dumps(ex)
    assert b"_cffi_backend" not in blob  # settings, not the engine
    again = pickle.loads(blob)
    assert isinstance(again, winnow.Extractor) and again is not ex and again._e != ex._e
    assert again.settings == ex.settings
    for p in pages:
        a, b = ex.extract(p, format="json"), again.extract(p, format="json")
        assert a.text == b.text and b.page_type == "documentation"
    # a copy is a new engine too; a closed Extractor still pickles its settings
    cp = copy.copy(ex)
    assert cp._e != ex._e and cp.extract(pages[0], output="str") == ex.extract(pages[0], output="str")
    ex.close()
    reopened = pickle.loads(pickle.dumps(ex))
    assert reopened.extract(pages[0], output="str") == cp.extract(pages[0], output="str")
    for e in (again, cp, reopened):
        e.close()


def test_extractor_model_path_is_absolute(root, monkeypatch):
    monkeypatch.chdir(root)
    ex = winnow.Extractor(model="models/default.wmodel")
    assert ex.settings["model"] == os.path.join(root, "models", "default.wmodel")
    monkeypatch.chdir("/")
    again = pickle.loads(pickle.dumps(ex))  # found from another folder
    assert again.has_model
    ex.close()
    again.close()


def test_sitedb_pickles_by_settings(site_db):
    path, site_pages = site_db
    with winnow.SiteDB(path, readonly=True, max_sites=8) as db:
        blob = pickle.dumps(db)
        assert b"_cffi_backend" not in blob
        again = pickle.loads(blob)
        try:
            assert again.readonly and again.max_sites == 8 and again.path == os.path.abspath(path)
            for url, html in site_pages[:5]:
                a, b = db.extract(html, url=url), again.extract(html, url=url)
                assert b.content_source == "site-model" and a.text == b.text
            with pytest.raises(winnow.ArgumentError):
                again.learn([site_pages[0]])  # readonly came along
        finally:
            again.close()


def test_pool_map_spawn(pages, child_env):
    """multiprocessing.Pool with fresh (spawned) interpreters: the Extractor
    is unpickled there, a new engine made from its settings."""
    ex = winnow.Extractor(include_title=False)
    want = [ex.extract(p, output="str") for p in pages]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.starmap(_pid_and_text, [(ex, p) for p in pages * 2])
    assert [t for _, t in got] == want * 2
    assert os.getpid() not in {pid for pid, _ in got}
    ex.close()


def test_pool_map_bound_method_fork(pages):
    """Pool.map(ex.extract, ...) with the default (fork) start: the bound
    method pickles its Extractor."""
    ex = winnow.Extractor()
    want = [ex.extract(p) for p in pages]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map(ex.extract, pages)
    assert [r.text for r in got] == [r.text for r in want]
    assert [r.status for r in got] == [r.status for r in want]
    ex.close()


def test_process_pool_executor_sitedb(site_db, child_env):
    path, site_pages = site_db
    with winnow.SiteDB(path, readonly=True) as db:
        want = [db.extract(html, url=url).text for url, html in site_pages]
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            got = list(pool.map(_site_extract, [db] * len(site_pages), site_pages))
    assert [t for _, _, t in got] == want
    assert {src for _, src, _ in got} == {"site-model"}
    assert os.getpid() not in {pid for pid, _, _ in got}


def test_process_pool_executor_extract_many(pages, child_env):
    ex = winnow.Extractor()
    want = [ex.extract(p, output="str") for p in pages]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        got = list(pool.map(_pid_and_text, [ex] * len(pages), pages))
    assert [t for _, t in got] == want
    ex.close()


def test_dask_bag(pages, child_env):
    bag = pytest.importorskip("dask.bag", reason="python3-dask is not installed")
    ex = winnow.Extractor(include_title=False)
    want = [ex.extract(p, output="str") for p in pages * 3]
    b = bag.from_sequence(pages * 3, npartitions=4)
    got = b.map(lambda h: (os.getpid(), ex.extract(h, output="str"))).compute(scheduler="processes",
                                                                                num_workers=2)
    assert [t for _, t in got] == want
    assert os.getpid() not in {pid for pid, _ in got}
    ex.close()


def test_dask_bag_sitedb(site_db, child_env):
    bag = pytest.importorskip("dask.bag", reason="python3-dask is not installed")
    path, site_pages = site_db
    db = winnow.SiteDB(path, readonly=True)
    got = bag.from_sequence(site_pages, npartitions=3).map(lambda p: _site_extract(db, p)).compute(
        scheduler="processes", num_workers=2)
    assert [t for _, _, t in got] == [db.extract(h, url=u).text for u, h in site_pages]
    assert {src for _, src, _ in got} == {"site-model"}
    db.close()


def test_dask_dataframe(pages, child_env):
    """Needs pandas (Debian's python3-pandas, scripts/install-deps.sh): skipped without."""
    pytest.importorskip("pandas", reason="python3-pandas is not installed: the Dask dataframe test is skipped")
    dd = pytest.importorskip("dask.dataframe", reason="dask.dataframe cannot be imported")
    import pandas as pd
    ex = winnow.Extractor()
    urls = ["https://example.org/%d" % i for i in range(len(pages) * 2)]
    df = pd.DataFrame({"url": urls, "html": pages * 2})
    ddf = dd.from_pandas(df, npartitions=2)
    # (a partial: Dask takes an `output` keyword of apply() for itself)
    texts = ddf["html"].apply(functools.partial(ex.extract, output="str"), meta=("html", "object"))
    got = texts.compute(scheduler="processes", num_workers=2)
    assert list(got) == [ex.extract(p, output="str") for p in pages * 2]
    # a partition at a time, several columns out
    out = ddf.map_partitions(
        lambda part: pd.DataFrame({"url": part["url"], "title": [ex.extract(h, url=u).title for u, h in
                                                                 zip(part["url"], part["html"])]}),
        meta={"url": "object", "title": "object"}).compute(scheduler="processes", num_workers=2)
    assert list(out["title"]) == [ex.extract(p).title for p in pages * 2]
    ex.close()


def test_stateful_objects_say_why_they_do_not_pickle(root):
    with winnow.read(os.path.join(root, "samples")) as r, winnow.Partial() as part:
        with pytest.raises(TypeError, match="path"):
            pickle.dumps(r)
        with pytest.raises(TypeError, match="merge"):
            pickle.dumps(part)
