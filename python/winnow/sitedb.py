"""Site models: learn a site's template from many of its pages, extract with it."""
import collections
import os
import threading

from ._ffi import ffi, lib
from ._core import _format, _str, _thread_extractor, Extractor
from .errors import ArgumentError, DatabaseBusyError, Error, error_for
from .reader import read

_MODES = {"auto": 0, "site": 1, "page": 2}
_METHODS = {"auto": 0, "blocks": 1, "path-blocks": 2, "chunks": 3, "table-chunks": 4, "ce": 5, "fastce": 6}

SiteInfo = collections.namedtuple("SiteInfo", "name pages pages_learned half_life updated keys")
SiteInfo.__doc__ = """A site of a database: name, pages (aged page count), pages_learned
(pages counted over its life), half_life (pages), updated (unix time of the
last learn), keys (distinct fingerprints stored)."""

Template = collections.namedtuple("Template", "kind df sample")


def _sitedb_from_settings(settings):
    """A SiteDB unpickled: a new handle with the settings of the pickled one."""
    settings = dict(settings)
    return SiteDB(settings.pop("path"), **settings)


def site_name(url):
    """The site a URL belongs to, as `winnow learn` and `winnow extract --db`
    name it (winnow_url_site): the host, lower-cased, without a port, user or
    leading "www." ("" for None or a URL without a host)."""
    if not url:
        return ""
    buf = ffi.new("char[]", 256)
    n = lib.winnow_url_site(url.encode("utf-8", "surrogateescape") if isinstance(url, str) else url, buf, 256)
    return ffi.unpack(buf, n).decode("utf-8", "replace")


class LearnStats:
    """What one ``SiteDB.learn()`` did: pages read, counted, duplicates (the same
    page under another URL, counted once), failed; the sites touched; and
    ``errors``, a list of (source or url, status name, message) per failed page."""

    __slots__ = ("pages", "counted", "duplicates", "failed", "sites", "errors")

    def __init__(self):
        self.pages = self.counted = self.duplicates = self.failed = 0
        self.sites = set()
        self.errors = []

    def __repr__(self):
        return "<winnow.LearnStats %d pages: %d counted, %d duplicates, %d failed, %d sites>" % (
            self.pages, self.counted, self.duplicates, self.failed, len(self.sites))


class _RWLock:
    """Many extractions at once, or one learn (which changes the models)."""

    def __init__(self):
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writer = False

    def acquire_read(self):
        with self._cond:
            while self._writer:
                self._cond.wait()
            self._readers += 1

    def release_read(self):
        with self._cond:
            self._readers -= 1
            if not self._readers:
                self._cond.notify_all()

    def acquire_write(self):
        with self._cond:
            while self._writer or self._readers:
                self._cond.wait()
            self._writer = True

    def release_write(self):
        with self._cond:
            self._writer = False
            self._cond.notify_all()


def _page_of(p):
    """(html, url, record or None) from what learn() is given."""
    if isinstance(p, tuple):
        if len(p) != 2:
            raise ArgumentError("a page given as a tuple is (url, html)")
        return p[1], p[0], None
    if isinstance(p, dict):
        return p.get("html", p.get("content")), p.get("url"), None
    if hasattr(p, "data") and hasattr(p, "url"):
        return p, p.url, p
    raise ArgumentError("pages are winnow.Record objects, (url, html) tuples or {'url', 'html'} dicts, "
                        "not %s" % type(p).__name__)


def _learn_pages(ex, pages, site, strict, stats, model, counted, touched):
    """Counts pages into the models model(name) gives; counted(name, site) after
    each page counted (not a duplicate). Per-page failures go to stats."""
    from ._core import _make_input

    out = ffi.new("int *")
    for p in pages:
        stats.pages += 1
        html, url, rec = _page_of(p)
        name = site or site_name(url)
        where = (rec.source if rec is not None and rec.source else url) or "page %d" % stats.pages
        try:
            if not name:
                raise ArgumentError("no URL to tell the page's site: give site=NAME")
            s = model(name)
            keep = []
            inp = _make_input(html, url, None, None, keep)
            e = ex._engine()
            with ex._lock:
                st = lib.winnow_site_learn(e, s, inp, out)
                if st >= lib.WINNOW_E_EMPTY:
                    raise error_for(st, ex._error())
        except Error as err:
            if strict or err.status.startswith("WINNOW_E_DB"):
                raise
            stats.failed += 1
            stats.errors.append((where, err.status, err.message))
            continue
        stats.sites.add(name)
        if out[0]:
            stats.counted += 1
            counted(name, s)
        else:
            stats.duplicates += 1
            touched.setdefault(name, s)


class SiteDB:
    """A site database (one SQLite file): per-site template models.

    ``SiteDB(path)`` opens it for reading (``extract``, ``sites``), and for
    writing from the first ``learn`` on (the file is created then when there is
    none). ``readonly=True`` refuses to learn. ``half_life`` (pages) applies
    to sites new to the database (default 1000). Engine options
    (``include_title``, ``classifier``, ``model``, ``rules``, ...) are those of
    ``winnow.Extractor``.

    Threads: ``extract`` may be called from many threads at once (each
    thread gets its own engine; the models are only read); ``learn`` waits
    for them and runs alone. Close it with ``close()`` or ``with``; the
    models it loaded and the file handle are freed then (or by the garbage
    collector).

    Processes: a SiteDB pickles by its settings (the file's absolute path,
    ``readonly``, ``half_life``, ``max_sites``, the engine options) and is
    unpickled as a new handle on the same file, which loads the models it
    needs there: the file must be at that path where it is unpickled (shared
    storage, or a copy put there). Workers extract; learning stays with one
    process (two learning into one file take turns, and one may get
    ``DatabaseBusyError``).
    """

    def __init__(self, path, readonly=False, half_life=None, max_sites=256, **engine_options):
        self._settings = dict(engine_options, path=os.path.abspath(os.fspath(path)), readonly=readonly,
                              half_life=half_life, max_sites=max_sites)
        self.path = os.fspath(path)
        self.readonly = readonly
        self.half_life = float(half_life or 0)
        if int(max_sites) < 1:
            raise ArgumentError("max_sites must be at least 1, not %r" % (max_sites,))
        self.max_sites = int(max_sites)
        self._engine_options = engine_options
        Extractor(**engine_options).close()  # bad options fail here, not on first use
        self._db = None
        self._writable = False
        # name -> winnow_site (from the open handle), least recently used
        # first; at most max_sites of them
        self._sites = collections.OrderedDict()
        self._rw = _RWLock()
        self._mutex = threading.Lock()   # the handle and the cache, one thread at a time
        self._closed = False
        if readonly or os.path.exists(self.path):
            self._open(False)

    def __reduce__(self):
        return (_sitedb_from_settings, (self._settings,))

    # ---- the handle ----

    def _open(self, writable):
        """Opens (or reopens for writing) the handle; with the mutex held or before sharing."""
        if self._closed:
            raise ArgumentError("this SiteDB is closed")
        if self._db is not None and (self._writable or not writable):
            return
        if writable and self.readonly:
            raise ArgumentError("SiteDB(%r) was opened with readonly=True: it cannot learn" % self.path)
        self._drop()
        out = ffi.new("winnow_sitedb **")
        err = ffi.new("char[]", 1024)
        st = lib.winnow_sitedb_open(os.fsencode(self.path), 1 if writable else 0, out, err, 1024)
        if st != lib.WINNOW_OK:
            raise error_for(st, ffi.string(err))
        self._db = ffi.gc(out[0], lib.winnow_sitedb_close)
        self._writable = writable

    def _drop(self):
        for s in self._sites.values():
            ffi.release(s)
        self._sites = collections.OrderedDict()
        if self._db is not None:
            db, self._db = self._db, None
            ffi.release(db)

    def _error(self):
        return _str(lib.winnow_sitedb_error(self._db)) if self._db is not None else ""

    def _site(self, name):
        """The model of site NAME, loaded on first use; with the mutex held.

        The cache keeps the max_sites models used last: a worker that meets
        sites without end (a crawl segment) stays bounded. An evicted model
        is not released here: another thread may be extracting with it, and
        it is freed when the last reference to it goes. Learning keeps its
        own references to the models it has counted into until it saves
        them, so an eviction never loses counts."""
        s = self._sites.get(name)
        if s is not None:
            self._sites.move_to_end(name)
            return s
        out = ffi.new("winnow_site **")
        st = lib.winnow_site_load(self._db, name.encode(), self.half_life, out)
        if st != lib.WINNOW_OK:
            raise error_for(st, "cannot load site %s: %s" % (name, self._error()))
        s = self._sites[name] = ffi.gc(out[0], lib.winnow_site_free)
        while len(self._sites) > self.max_sites:
            self._sites.popitem(last=False)
        return s

    def close(self):
        """Frees the loaded models and closes the file (idempotent). Learned
        pages are saved by learn() itself before it returns."""
        if self._closed:
            return
        self._rw.acquire_write()
        try:
            with self._mutex:
                self._drop()
                self._closed = True
        finally:
            self._rw.release_write()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- learning ----

    def learn(self, pages, site=None, commit_every=1000, strict=False):
        """Counts pages into their sites' models and saves them.

        pages   a path (a directory, WARC or JSONL file: ``winnow.read(path)``),
                or an iterable of ``winnow.Record``, ``(url, html)`` tuples or
                ``{"url": ..., "html": ...}`` dicts
        site    the site of every page (default: each page's from its URL,
                ``winnow.site_name(url)``)
        commit_every  pages counted between saves (each save is one
                transaction; an interrupted learn keeps what was saved)
        strict  raise on the first page that fails (empty, binary, no URL...)
                instead of counting it in ``LearnStats.failed`` and going on

        A page already counted (the same page under another URL) counts as a
        duplicate, so learning the same pages again changes nothing.
        Returns a ``LearnStats``.
        """
        if isinstance(pages, (str, bytes, os.PathLike)):
            with read(pages) as r:
                return self.learn(r, site=site, commit_every=commit_every, strict=strict)
        if commit_every <= 0:
            raise ArgumentError("commit_every must be positive")
        stats = LearnStats()
        ex = _thread_extractor(self._engine_options)
        self._rw.acquire_write()
        try:
            with self._mutex:
                self._open(True)
            touched = {}
            since = [0]

            def model(name):
                # a model counted into since the last save is this run's,
                # whether or not the cache still holds it: loaded again from
                # the file it would lack those counts
                s = touched.get(name)
                if s is not None:
                    return s
                with self._mutex:
                    return self._site(name)

            def counted(name, s):
                touched[name] = s
                since[0] += 1
                if since[0] >= commit_every:
                    self._save(list(touched.values()), last=False)
                    since[0] = 0

            _learn_pages(ex, pages, site, strict, stats, model, counted, touched)
            self._save(list(touched.values()), last=True)
        finally:
            self._rw.release_write()
        return stats

    def _save(self, sites, last):
        if not sites:
            return
        arr = ffi.new("winnow_site *[]", sites)
        for attempt in range(3 if last else 1):
            with self._mutex:
                st = lib.winnow_sitedb_save(self._db, arr, len(sites))
                msg = self._error()
            if st == lib.WINNOW_OK:
                return
            if st != lib.WINNOW_E_DB_BUSY:
                break
        err = error_for(st, msg)
        if isinstance(err, DatabaseBusyError) and not last:
            return  # tried again at the next save, as `winnow learn` does
        raise err

    # ---- using the models ----

    def extract(self, html, url=None, site=None, format="text", comments=False, output="result", charset=None,
                mode="auto", method="auto", min_pages=None, exclude_self=False):
        """The main content of a page with its site's model.

        The site is ``site`` or the URL's (``winnow.site_name(url)``); a page
        with neither is extracted in page mode, as is every page with
        ``mode="page"``. ``mode="auto"`` uses the site model where the site has
        at least ``min_pages`` pages (default 5), ``"site"`` whatever its count.
        ``method``: "auto", "blocks", "path-blocks", "chunks", "table-chunks",
        "ce", "fastce". Other arguments and the result: ``winnow.extract()``;
        ``Result.content_source`` is "site-model" when the model chose.
        """
        if mode not in _MODES:
            raise ArgumentError("mode must be auto, site or page, not %r" % (mode,))
        if method not in _METHODS:
            raise ArgumentError("unknown method %r: %s" % (method, ", ".join(_METHODS)))
        _format(format)
        if url is None and hasattr(html, "url") and not isinstance(html, (bytes, str)):
            url = html.url
        name = site or site_name(url)
        opt = ffi.new("winnow_site_options *")
        lib.winnow_site_options_default(opt, ffi.sizeof("winnow_site_options"))
        opt.mode = _MODES[mode]
        opt.method = _METHODS[method]
        opt.exclude_self = 1 if exclude_self else 0
        if min_pages is not None:
            opt.min_pages = int(min_pages)
        ex = self._extractor()
        self._rw.acquire_read()
        try:
            s = None
            if name and mode != "page":
                with self._mutex:
                    if self._db is None:
                        self._open(False)
                    s = self._site(name)
            return ex._extract(html, url, format, comments, output, charset, None, s if s is not None else None,
                               opt)
        finally:
            self._rw.release_read()

    def jsonl(self, html, url=None, id=None, site=None, blocks=False, comments=False, charset=None, mode="auto",
              method="auto", min_pages=None, exclude_self=False):
        """The page's JSON line with its site's model, as ``winnow extract --db DB
        --format jsonl`` writes it; a page that fails gets its line (status,
        error) instead of an exception. See ``Extractor.jsonl``."""
        if url is None and hasattr(html, "url") and not isinstance(html, (bytes, str)):
            url = html.url
        name = site or site_name(url)
        opt = self._site_options(mode, method, min_pages, exclude_self)
        ex = self._extractor()
        self._rw.acquire_read()
        try:
            s = None
            if name and mode != "page":
                with self._mutex:
                    if self._db is None:
                        self._open(False)
                    s = self._site(name)
            return ex._jsonl(html, url, id, site, blocks, comments, charset, None, s, opt)
        finally:
            self._rw.release_read()

    def _site_options(self, mode, method, min_pages, exclude_self):
        if mode not in _MODES:
            raise ArgumentError("mode must be auto, site or page, not %r" % (mode,))
        if method not in _METHODS:
            raise ArgumentError("unknown method %r: %s" % (method, ", ".join(_METHODS)))
        opt = ffi.new("winnow_site_options *")
        lib.winnow_site_options_default(opt, ffi.sizeof("winnow_site_options"))
        opt.mode = _MODES[mode]
        opt.method = _METHODS[method]
        opt.exclude_self = 1 if exclude_self else 0
        if min_pages is not None:
            opt.min_pages = int(min_pages)
        return opt

    def _extractor(self):
        return _thread_extractor(self._engine_options)

    def sites(self):
        """Every site of the database, by name: a list of ``SiteInfo``."""
        out = []
        failure = []

        @ffi.callback("int(void *, const winnow_site_summary *)")
        def each(ctx, s):
            try:
                out.append(SiteInfo(_str(s.name), s.pages, s.pages_learned, s.half_life, int(s.updated),
                                    int(s.keys)))
                return 0
            except BaseException as e:  # noqa: stop the listing, re-raised below
                failure.append(e)
                return 1

        self._rw.acquire_read()
        try:
            with self._mutex:
                if self._db is None:
                    self._open(False)
                st = lib.winnow_sitedb_list(self._db, each, ffi.NULL)
                msg = self._error()
        finally:
            self._rw.release_read()
        if failure:
            raise failure[0]
        if st != lib.WINNOW_OK:
            raise error_for(st, msg)
        return out

    def templates(self, site, min_share=0.1):
        """A site's template fingerprints, most frequent first: a list of
        ``Template(kind, df, sample)`` for those on at least ``min_share`` of
        its pages (kind: "block", "path-block", "chunk", "table-chunk")."""
        out = []

        @ffi.callback("int(void *, const char *, double, const char *)")
        def each(ctx, kind, df, sample):
            out.append(Template(_str(kind), df, _str(sample)))
            return 0

        self._rw.acquire_read()
        try:
            with self._mutex:
                if self._db is None:
                    self._open(False)
                st = lib.winnow_site_templates(self._site(site), float(min_share), each, ffi.NULL)
        finally:
            self._rw.release_read()
        if st != lib.WINNOW_OK:
            raise error_for(st)
        return out

    def check(self):
        """Checks the whole database (SQLite's integrity check, every site's
        checksums): a dict of rows checked when sound; raises
        ``DatabaseDamagedError`` (its ``problems`` attribute lists them) when not."""
        problems = []

        @ffi.callback("void(void *, const char *)")
        def problem(ctx, what):
            problems.append(_str(what))

        rep = ffi.new("winnow_sitedb_report *")
        rep.struct_size = ffi.sizeof("winnow_sitedb_report")
        self._rw.acquire_read()
        try:
            with self._mutex:
                if self._db is None:
                    self._open(False)
                st = lib.winnow_sitedb_check(self._db, problem, ffi.NULL, rep)
                msg = self._error()
        finally:
            self._rw.release_read()
        if st != lib.WINNOW_OK:
            err = error_for(st, msg)
            err.problems = problems
            raise err
        return {"format": rep.format, "sites": rep.sites, "keys": rep.keys, "pages": rep.pages,
                "ce_pages": rep.ce_pages, "ce_blocks": rep.ce_blocks}

    def __repr__(self):
        return "<winnow.SiteDB %r%s>" % (self.path, " closed" if self._closed else "")


class Partial:
    """The map side of site learning: what a shard's pages would count, per
    site, kept in memory and written to a partial file (``winnow learn
    --partial``); ``SiteDB.merge(parts)`` counts partial files into a database.
    Merging the parts of shards 1..k in that order gives the database one learn
    of the shards' pages in that order gives, bit for bit.

    ``Partial(half_life=None, **engine_options)``; ``.learn(pages, site=None)``
    as ``SiteDB.learn``; ``.sites`` and ``.pages`` (pages held, duplicates left
    out); ``.write(path)`` (whole: a temporary file renamed into place; the
    partial can be written again). One thread at a time.
    """

    def __init__(self, half_life=None, **engine_options):
        self._engine_options = engine_options
        Extractor(**engine_options).close()
        out = ffi.new("winnow_partial **")
        st = lib.winnow_partial_new(float(half_life or 0), out)
        if st != lib.WINNOW_OK:
            raise error_for(st, "cannot make a partial")
        self._p = ffi.gc(out[0], lib.winnow_partial_free)
        self._lock = threading.Lock()

    def __reduce__(self):
        raise TypeError("a winnow.Partial holds its counts in memory and does not pickle: write() it to a file "
                        "and merge the files (SiteDB.merge)")

    def _partial(self):
        if self._p is None:
            raise ArgumentError("this Partial is closed")
        return self._p

    def _error(self):
        return _str(lib.winnow_partial_error(self._p))

    def learn(self, pages, site=None, strict=False):
        """Records pages into their sites (see ``SiteDB.learn``); a ``LearnStats``."""
        if isinstance(pages, (str, bytes, os.PathLike)):
            with read(pages) as r:
                return self.learn(r, site=site, strict=strict)
        stats = LearnStats()
        ex = _thread_extractor(self._engine_options)
        models = {}

        def model(name):
            s = models.get(name)
            if s is None:
                out = ffi.new("winnow_site **")
                st = lib.winnow_partial_site(p, name.encode(), out)
                if st != lib.WINNOW_OK:
                    raise error_for(st, self._error())
                s = models[name] = out[0]  # owned by the partial
            return s

        with self._lock:
            p = self._partial()
            _learn_pages(ex, pages, site, strict, stats, model, lambda name, s: None, {})
        return stats

    @property
    def sites(self):
        return int(lib.winnow_partial_site_count(self._partial()))

    @property
    def pages(self):
        return int(lib.winnow_partial_page_count(self._partial()))

    def write(self, path):
        """Writes the partial file (gzip; format in docs/formats.md, "Partial files")."""
        with self._lock:
            st = lib.winnow_partial_write(self._partial(), os.fsencode(path))
            if st != lib.WINNOW_OK:
                raise error_for(st, self._error())

    def close(self):
        p, self._p = self._p, None
        if p is not None:
            ffi.release(p)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def check_partial(path):
    """Reads a partial file whole and checks it (format, version, checksums): a
    dict (format, sites, pages, keys, ce_pages); ``FormatError`` when it is not
    one or is damaged, ``FileError`` when it cannot be read."""
    info = ffi.new("winnow_partial_info *")
    info.struct_size = ffi.sizeof("winnow_partial_info")
    err = ffi.new("char[]", 1024)
    st = lib.winnow_partial_check(os.fsencode(path), info, err, 1024)
    if st != lib.WINNOW_OK:
        raise error_for(st, ffi.string(err))
    return {"format": info.format, "sites": info.sites, "pages": info.pages, "keys": info.keys,
            "ce_pages": info.ce_pages}


def _merge(self, parts, commit_every=None):
    """Counts partial files into the database, in the order given (the order of
    their shards), site by site: ``winnow merge PARTS --db DB``. Every part is
    checked whole before anything is written. Returns a dict: parts, sites,
    pages, counted, duplicates. Merging the same parts again counts their pages
    as duplicates (a merge cut short is completed so)."""
    parts = [os.fspath(p) for p in parts]
    opt = ffi.new("winnow_merge_options *")
    lib.winnow_merge_options_default(opt, ffi.sizeof("winnow_merge_options"))
    if commit_every is not None:
        if commit_every <= 0:
            raise ArgumentError("commit_every must be positive")
        opt.commit_every = int(commit_every)
    rep = ffi.new("winnow_merge_report *")
    rep.struct_size = ffi.sizeof("winnow_merge_report")
    keep = [ffi.new("char[]", os.fsencode(p)) for p in parts]
    arr = ffi.new("const char *[]", keep)
    self._rw.acquire_write()
    try:
        with self._mutex:
            self._open(True)
            st = lib.winnow_sitedb_merge(self._db, arr, len(parts), opt, rep)
            msg = self._error()
            # models loaded before the merge are out of date: loaded again on use
            for s in self._sites.values():
                ffi.release(s)
            self._sites = {}
    finally:
        self._rw.release_write()
    if st != lib.WINNOW_OK:
        raise error_for(st, msg)
    return {"parts": rep.parts, "sites": rep.sites, "pages": rep.pages, "counted": rep.counted,
            "duplicates": rep.duplicates}


SiteDB.merge = _merge
