"""winnow.extract_many: input order, streaming with a bounded lookahead over an
unbounded iterable, jobs=1 and jobs>1 (threads inside the library at once),
failures as results, SiteDB pages, leaving early."""
import itertools
import os
import subprocess
import sys
import threading

import pytest

import winnow


@pytest.fixture(scope="module")
def pages(root, sample_paths):
    out = []
    for p in sample_paths:
        with open(p, "rb") as f:
            out.append(f.read())
    with open(os.path.join(root, "tests", "data", "pages", "synthetic-story-comments.html"), "rb") as f:
        out.append(f.read())
    return out


class Counted:
    """An iterable that counts the items taken from it."""

    def __init__(self, items):
        self.items = iter(items)
        self.taken = 0

    def __iter__(self):
        return self

    def __next__(self):
        item = next(self.items)
        self.taken += 1
        return item


@pytest.mark.parametrize("jobs", [1, 2, 4])
def test_input_order(pages, jobs):
    # big and small pages mixed: later pages finish first on other threads
    items = pages * 6
    want = [winnow.extract(p, format="json", output="str") for p in items]
    got = list(winnow.extract_many(items, jobs=jobs, window=jobs * 2, format="json"))
    assert [r.text for r in got] == want
    assert all(isinstance(r, winnow.Result) and r.ok and r.error == "" for r in got)


def test_pairs_dicts_records(pages, root):
    urls = ["https://example.org/p%d" % i for i in range(len(pages))]
    items = list(zip(urls, pages)) + [{"url": u, "html": p} for u, p in zip(urls, pages)]
    got = list(winnow.extract_many(items, jobs=2))
    assert [r.url for r in got] == urls * 2
    assert [r.text for r in got] == [winnow.extract(p, url=u, output="str") for u, p in zip(urls, pages)] * 2
    recs = list(winnow.read(os.path.join(root, "samples")))
    got = list(winnow.extract_many(recs, jobs=2, format="markdown"))
    assert [r.text for r in got] == [winnow.extract(r, format="markdown", output="str") for r in recs]
    assert [r.url for r in got] == [r.url for r in recs]


@pytest.mark.parametrize("jobs,window", [(1, 1), (2, 2), (2, 5), (3, 12)])
def test_streams_unbounded_input(pages, jobs, window):
    """An endless generator: results come while it runs, and never more than
    `window` pages are taken ahead of the results yielded (jobs=1: none)."""
    src = Counted(itertools.cycle(pages))
    stream = winnow.extract_many(src, jobs=jobs, window=window)
    want = [winnow.extract(p, output="str") for p in pages]
    for i, r in enumerate(itertools.islice(stream, 60)):
        assert r.text == want[i % len(pages)]
        ahead = src.taken - (i + 1)
        assert 0 <= ahead <= (0 if jobs == 1 else window), (i, src.taken)
    stream.close()
    assert src.taken <= 60 + window


def test_default_window_bounds_lookahead(pages):
    src = Counted(itertools.cycle(pages))
    stream = winnow.extract_many(src, jobs=2)
    next(stream)
    assert src.taken <= 1 + 4 * 2
    stream.close()


class SlowPage:
    """A page (it has .data and .url, as a Record) whose data is read in the
    worker thread: the first `n` wait for each other there, which only
    threads running at once can do."""

    def __init__(self, html, barrier, url):
        self._html, self._barrier, self.url = html, barrier, url
        self.thread = None

    @property
    def data(self):
        self.thread = threading.current_thread().name
        barrier, self._barrier = self._barrier, None  # (read more than once: waits once)
        if barrier is not None:
            barrier.wait(timeout=30)
        return self._html


def test_jobs_run_at_once(pages):
    barrier = threading.Barrier(3)
    items = [SlowPage(pages[i % len(pages)], barrier if i < 3 else None, "https://ex.org/%d" % i) for i in range(12)]
    got = list(winnow.extract_many(items, jobs=3, window=3))
    assert [r.url for r in got] == [p.url for p in items] and all(r.ok for r in got)
    names = {p.thread for p in items}
    assert len(names) == 3 and all(n.startswith("winnow-extract") for n in names)
    assert not barrier.broken


def test_jobs_1_runs_in_the_caller(pages):
    items = [SlowPage(p, None, "u") for p in pages]
    assert all(r.ok for r in winnow.extract_many(items, jobs=1))
    assert {p.thread for p in items} == {threading.current_thread().name}


def test_failures_do_not_stop_the_stream(pages):
    png = b"\x89PNG\r\n\x1a\n" + bytes(200)
    items = [pages[0], b"", png, 42, ("https://ex.org/x", pages[1]), None, pages[2]]
    for jobs in (1, 3):
        got = list(winnow.extract_many(items, jobs=jobs))
        assert [r.status for r in got] == ["WINNOW_OK", "WINNOW_E_EMPTY", "WINNOW_E_BINARY", "WINNOW_E_ARG",
                                           "WINNOW_OK", "WINNOW_E_ARG", "WINNOW_OK"]
        assert [r.ok for r in got] == [True, False, False, False, True, False, True]
        assert "not HTML" in got[2].error
        assert got[3].error and got[2].text == "" and got[4].url == "https://ex.org/x"
        assert got[6].text == winnow.extract(pages[2], output="str")


def test_errors_raise(pages):
    png = b"\x89PNG\r\n\x1a\n" + bytes(200)
    for jobs in (1, 2):
        stream = winnow.extract_many([pages[0], pages[1], png, pages[2]], jobs=jobs, errors="raise")
        assert next(stream).ok and next(stream).ok
        with pytest.raises(winnow.BinaryError):
            next(stream)


def test_leaving_early_stops_the_threads(pages):
    def live():
        return [t for t in threading.enumerate() if t.name.startswith("winnow-extract")]

    assert not live()
    src = Counted(itertools.cycle(pages))
    for i, r in enumerate(winnow.extract_many(src, jobs=3, window=6)):
        if i == 10:
            break
    # the generator was dropped at the break: its pool shut down with it
    assert not live()
    assert src.taken <= 11 + 6


def test_sitedb(root, tmp_path):
    warc = str(tmp_path / "site.warc")
    subprocess.run([sys.executable, os.path.join(root, "tests", "site", "gen_site.py"), warc, "--pages", "30",
                    "--format", "warc"], check=True, capture_output=True)
    with winnow.SiteDB(str(tmp_path / "s.db")) as db:
        db.learn(warc)
        recs = list(winnow.read(warc))
        want = [db.extract(r).text for r in recs]
        got = list(winnow.extract_many(recs, jobs=3, db=db))
        assert [r.text for r in got] == want
        assert {r.content_source for r in got} == {"site-model"}
        with pytest.raises(winnow.ArgumentError):
            winnow.extract_many(recs, db=db, include_title=False)


def test_bad_arguments(pages):
    for kw in ({"jobs": 0}, {"jobs": 2, "window": 1}, {"jobs": 1.5}, {"errors": "ignore"}, {"format": "nope"},
               {"max_depth": -1}, {"output": "str"}):
        with pytest.raises(winnow.ArgumentError):
            winnow.extract_many(pages, **kw)  # at the call, before any page is taken
