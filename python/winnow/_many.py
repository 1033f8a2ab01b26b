"""winnow.extract_many: many pages, streamed, in input order, on threads."""
import collections
import os
from concurrent.futures import ThreadPoolExecutor

from ._core import Result, _format, _thread_extractor
from .errors import ArgumentError, Error

_ERRORS = ("result", "raise")


def _page(item):
    """(html, url) of one item: a page (bytes, str), a Record, a (url, html)
    tuple or a {"url": ..., "html": ...} dict."""
    if isinstance(item, tuple):
        if len(item) != 2:
            raise ArgumentError("a page given as a tuple is (url, html), not %d items" % len(item))
        return item[1], item[0]
    if isinstance(item, dict):
        return item.get("html", item.get("content")), item.get("url")
    return item, None


def _failure(err, url, fmt):
    return Result("", fmt, {}, err.status, "", "none", None, url, error=err.message)


def _one(item, fmt, comments, charset, db, options, errors):
    """One item's Result; a failure as a Result too unless errors="raise"
    (then the exception, raised where the caller takes this item)."""
    url = None
    try:
        html, url = _page(item)
        if url is None and hasattr(html, "url") and not isinstance(html, (bytes, bytearray, memoryview, str)):
            url = html.url  # a Record
        if db is not None:
            return db.extract(html, url=url, format=fmt, comments=comments, charset=charset)
        return _thread_extractor(options).extract(html, url=url, format=fmt, comments=comments, charset=charset)
    except TypeError as e:  # an item that is no page (an int, None...)
        err = ArgumentError(str(e))
        if errors == "raise":
            raise err from e
        return _failure(err, url, fmt)
    except Error as e:
        if errors == "raise":
            raise
        return _failure(e, url, fmt)


def default_jobs():
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def extract_many(pages, jobs=None, window=None, format="text", comments=False, charset=None, errors="result", db=None,
                 **options):
    """Extracts every page of an iterable, yielding one ``Result`` per page in
    the input's order, as they are done: a generator, over an unbounded
    iterable too.

    pages    pages as ``winnow.extract`` takes them (bytes, str, ``Record``s of
             ``winnow.read()``), ``(url, html)`` tuples or
             ``{"url": ..., "html": ...}`` dicts
    jobs     threads extracting at once (default: the CPUs this process may
             use; 1: in the calling thread, one page at a time, no lookahead).
             cffi releases the GIL in the library, and each thread has its
             own engine, so threads run the library in parallel without
             copying pages or results between processes
    window   pages taken from ``pages`` and not yet yielded, at most (default
             4 * jobs): the lookahead and the memory held, whatever the
             iterable's length; a slow page holds back the pages after it
             (input order) up to this many
    format, comments, charset, and engine options (``include_title``,
             ``model``, ``rules``...): as ``winnow.extract``
    errors   "result" (default): a page that fails does not stop the stream:
             its Result has ``status`` the error's status name
             ("WINNOW_E_BINARY", ...), ``error`` its message, ``text`` "",
             ``ok`` false; an item that is no page (an int, None) fails so too,
             with "WINNOW_E_ARG". "raise": the page's ``winnow.Error`` is
             raised where its result would have been yielded (the results
             before it are yielded first)
    db       a ``winnow.SiteDB``: each page extracted with its site's model
             (``SiteDB.extract``; its engine options are the database's)

    Leaving the loop early (break, an exception) stops the threads: pages
    not yet started are dropped, those started are finished and discarded.
    """
    if jobs is None:
        jobs = default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ArgumentError("jobs must be a whole number of at least 1, not %r" % (jobs,))
    if window is None:
        window = 4 * jobs
    if isinstance(window, bool) or not isinstance(window, int) or window < jobs:
        raise ArgumentError("window must be a whole number of at least jobs (%d), not %r" % (jobs, window))
    if errors not in _ERRORS:
        raise ArgumentError("errors must be 'result' or 'raise', not %r" % (errors,))
    if "output" in options:
        raise ArgumentError("extract_many yields Results (a failed page's too): take their .text")
    _format(format)  # an unknown name fails before any page is taken
    if db is None:
        _thread_extractor(options)  # bad engine options fail here, in the caller's thread
    elif options:
        raise ArgumentError("engine options go to SiteDB(...), not extract_many(db=...): %s" % ", ".join(options))
    return _stream(iter(pages), jobs, window, format, comments, charset, db, options, errors)


def _stream(pages, jobs, window, fmt, comments, charset, db, options, errors):
    if jobs == 1:
        for item in pages:
            yield _one(item, fmt, comments, charset, db, options, errors)
        return
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="winnow-extract")
    pending = collections.deque()
    try:
        for item in pages:
            pending.append(pool.submit(_one, item, fmt, comments, charset, db, options, errors))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
