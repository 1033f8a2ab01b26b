"""Threads (the GIL is released in the library) and memory (every C object freed)."""
import gc
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from cffi import FFI

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


def test_thread_pool_same_results(pages):
    want = [winnow.extract(p, output="str") for p in pages]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: winnow.extract(p, output="str"), pages * 5))
    assert got == want * 5


def test_shared_extractor_is_safe(pages):
    want = [winnow.extract(p, format="json", output="str") for p in pages]
    with winnow.Extractor() as ex, ThreadPoolExecutor(3) as pool:
        got = list(pool.map(lambda p: ex.extract(p, format="json", output="str"), pages * 4))
    assert got == want * 4


def test_gil_released_during_extraction(pages):
    """Two threads with their own engines are inside the library at the same
    time: had the GIL been held through the call, no call of one thread could
    start (in Python) while a call of the other runs."""
    big = max(pages, key=len)
    spans = {0: [], 1: []}
    barrier = threading.Barrier(2)

    def work(k):
        with winnow.Extractor() as ex:
            barrier.wait()
            end = time.perf_counter() + 1.0
            while time.perf_counter() < end:
                t0 = time.perf_counter()
                ex.extract(big, output="str")
                spans[k].append((t0, time.perf_counter()))

    ts = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    # a call of thread 1 that began while a call of thread 0 was running
    starts = [s for s, _ in spans[1]]
    overlaps = sum(1 for s in starts for a, b in spans[0] if a < s < b)
    assert len(spans[0]) > 3 and len(spans[1]) > 3
    assert overlaps > 0, "no two extractions ever ran at once: the GIL is held during calls"


def _heap():
    """Bytes allocated with malloc in the process now: AddressSanitizer's
    count when it runs (make check), glibc's mallinfo2 otherwise."""
    f = FFI()
    f.cdef("""
        size_t __sanitizer_get_current_allocated_bytes(void);
        struct mallinfo2 { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks,
                           keepcost; };
        struct mallinfo2 mallinfo2(void);
    """)
    c = f.dlopen(None)
    try:
        fn = c.__sanitizer_get_current_allocated_bytes
        return lambda: fn()
    except AttributeError:
        pass
    try:
        mi = c.mallinfo2
    except AttributeError:
        pytest.skip("neither AddressSanitizer nor mallinfo2 to count the heap")

    def glibc():
        m = mi()
        return m.uordblks + m.hblkhd
    return glibc


def _grows(fn, rounds):
    heap = _heap()
    fn()  # first use: engines, caches, imports
    fn()
    gc.collect()
    before = heap()
    for _ in range(rounds):
        fn()
    gc.collect()
    return heap() - before


def test_no_leak_extract(pages):
    def once():
        for p in pages:
            winnow.extract(p)
            winnow.extract(p, format="json", comments=True, output="str")
        winnow.blocks(pages[0])
        with winnow.Extractor() as ex:
            ex.extract(pages[1])
        try:
            winnow.extract(b"")
        except winnow.EmptyError:
            pass
    # a leaked document is tens of kB: 30 rounds of 12 would be megabytes
    assert _grows(once, 30) < 256 * 1024


def test_no_leak_unclosed_objects(pages):
    def once():
        ex = winnow.Extractor()
        ex.extract(pages[0])
        del ex  # freed by the garbage collector
    assert _grows(once, 30) < 256 * 1024


def test_no_leak_read_and_sitedb(small_warc, tmp_path):
    recs = list(winnow.read(small_warc))[:10]
    path = tmp_path / "leak.db"
    with winnow.SiteDB(path) as db:
        db.learn(recs)

    def once():
        for i, r in enumerate(winnow.read(small_warc)):
            if i == 5:
                break  # the reader is dropped half-way
        with winnow.read(small_warc) as r:
            next(r)
        with winnow.SiteDB(path, readonly=True) as db:
            db.extract(recs[0])
            db.sites()
            db.templates(winnow.site_name(recs[0].url))
        with winnow.SiteDB(path) as db:
            db.learn(recs[:2])  # duplicates: nothing new
    assert _grows(once, 10) < 512 * 1024


def test_no_leak_extract_many_and_pickles(pages):
    """The threads' engines of extract_many are freed with their threads
    (a stream finished and one left early), and unpickled Extractors with
    their objects."""
    import pickle

    def once():
        assert len(list(winnow.extract_many(pages, jobs=2))) == len(pages)
        for i, _ in enumerate(winnow.extract_many(pages * 3, jobs=3, window=3)):
            if i == 2:
                break
        ex = pickle.loads(pickle.dumps(winnow.Extractor(include_title=False)))
        ex.extract(pages[0])
    assert _grows(once, 20) < 512 * 1024
