"""Extraction: the engine object, the result object, and the module-level calls."""
import json
import os
import threading

from ._ffi import ffi, lib, libc
from .errors import ArgumentError, error_for

META_FIELDS = ("title", "author", "date", "url", "site_name", "description", "language", "charset")

_formats = {}


def _format(name):
    """A format name ("text", "markdown"/"md", "json", "html", "blocks",
    "segments", "fulltext") as the library's enum value."""
    f = _formats.get(name)
    if f is None:
        if not isinstance(name, str):
            raise ArgumentError("format must be a name such as 'text', not %r" % (name,))
        out = ffi.new("winnow_format *")
        st = lib.winnow_format_parse(name.encode(), out)
        if st != lib.WINNOW_OK:
            raise ArgumentError(
                "unknown format %r: text, markdown, json, html, blocks, segments or fulltext" % (name,))
        f = _formats[name] = int(out[0])
    return f


def _body(body):
    """A body for json and jsonl ("markdown", "text,markdown", or a list of
    names; None: "text") as the library's set (winnow_body_parse)."""
    if body is None:
        return 0
    names = body
    if isinstance(body, (list, tuple)) and all(isinstance(b, str) for b in body):
        names = ",".join(body)
    if not isinstance(names, str):
        names = None
    out = ffi.new("unsigned *")
    if names is None or lib.winnow_body_parse(names.encode(), out) != lib.WINNOW_OK:
        raise ArgumentError("body must name formats from text, markdown, html, fulltext (a str, comma-separated, "
                            "or a list), not %r" % (body,))
    return int(out[0])


def _str(p):
    """A C string the library owns, as str ("" for NULL)."""
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else ""


def _opt_str(p):
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else None


def _cstr(s, keep, name="string"):
    """str or bytes -> a char[] kept alive by `keep`; None -> NULL. A NUL
    inside would end the C string there and the rest would be dropped
    without a word: ArgumentError instead (`name` says which argument)."""
    if s is None:
        return ffi.NULL
    if isinstance(s, str):
        s = s.encode("utf-8")
    if b"\0" in s:
        raise ArgumentError("%s must not contain a NUL character" % name)
    c = ffi.new("char[]", s)
    keep.append(c)
    return c


def _c_count(value, name, ctype):
    """A positive whole number that fits the C field of type `ctype`: what
    does not is the caller's mistake (ArgumentError), not cffi's
    OverflowError."""
    if value <= 0:
        raise ArgumentError("%s must be positive" % name)
    n = int(value)
    most = (1 << (8 * ffi.sizeof(ctype))) - 1
    if n > most:
        raise ArgumentError("%s must be at most %d, not %d" % (name, most, n))
    return n


def _make_input(html, url, charset, source, keep):
    """A winnow_input for one page. `html` is bytes-like, str or a Record."""
    rec_source = None
    if hasattr(html, "data") and hasattr(html, "url") and not isinstance(html, (bytes, bytearray, memoryview, str)):
        rec = html  # a Record of winnow.read(), or anything that looks like one
        if url is None:
            url = rec.url
        if charset is None:
            charset = getattr(rec, "charset", None)
        rec_source = rec
        html = rec.data
    if isinstance(html, str):
        # the text is handed over as UTF-8 and said to be so: a <meta charset>
        # of the page no longer applies to it
        html = html.encode("utf-8", "surrogatepass")
        charset = "UTF-8"
    elif not isinstance(html, (bytes, bytearray, memoryview)):
        raise TypeError("html must be bytes or str (or a winnow.Record), not %s" % type(html).__name__)
    inp = ffi.new("winnow_input *")
    inp.struct_size = ffi.sizeof("winnow_input")
    buf = ffi.from_buffer(html)
    keep.append(buf)
    inp.data = buf
    inp.len = len(buf)
    inp.charset = _cstr(charset, keep, "charset")
    inp.url = _cstr(url, keep, "url")
    if source is None and rec_source is not None:
        source = {"file": getattr(rec_source, "file", None), "record": getattr(rec_source, "number", -1),
                  "record_id": getattr(rec_source, "record_id", None)}
    if source is not None:
        src = ffi.new("winnow_source *")
        src.struct_size = ffi.sizeof("winnow_source")
        src.file = _cstr(source.get("file"), keep, "source['file']")
        rec = source.get("record")
        src.record = -1 if rec is None else int(rec)
        src.record_id = _cstr(source.get("record_id"), keep, "source['record_id']")
        keep.append(src)
        inp.source = src
    return inp


def _render(doc, fmt):
    out = ffi.new("char **")
    n = ffi.new("size_t *")
    st = lib.winnow_render_alloc(doc, fmt, out, n)
    if st != lib.WINNOW_OK:
        raise error_for(st, "rendering failed: " + ffi.string(lib.winnow_status_message(st)).decode())
    try:
        return ffi.unpack(out[0], n[0]).decode("utf-8", "replace")
    finally:
        libc.free(out[0])


@ffi.callback("int(void *, const char *, size_t)")
def _collect(ctx, data, n):
    ffi.from_handle(ctx).append(ffi.unpack(data, n))
    return 0


def _jsonl_options(id, site, blocks, comments, keep, body=0):
    opt = ffi.new("winnow_jsonl_options *")
    lib.winnow_jsonl_options_default(opt, ffi.sizeof("winnow_jsonl_options"))
    opt.id = _cstr(id, keep, "id")
    opt.site = _cstr(site, keep, "site")
    opt.blocks = 1 if blocks else 0
    opt.comments = 1 if comments else 0
    opt.body = body
    return opt


def _render_json(doc, body):
    opt = ffi.new("winnow_json_options *")
    lib.winnow_json_options_default(opt, ffi.sizeof("winnow_json_options"))
    opt.body = body
    parts = []
    st = lib.winnow_render_json(doc, opt, _collect, ffi.new_handle(parts))
    if st != lib.WINNOW_OK:
        raise error_for(st, "rendering failed: " + ffi.string(lib.winnow_status_message(st)).decode())
    return b"".join(parts).decode("utf-8", "replace")


def _render_jsonl(doc, opt):
    parts = []
    h = ffi.new_handle(parts)
    st = lib.winnow_render_jsonl(doc, opt, _collect, h)
    if st != lib.WINNOW_OK:
        raise error_for(st, "rendering failed: " + ffi.string(lib.winnow_status_message(st)).decode())
    return b"".join(parts).decode("utf-8", "replace")


def _render_jsonl_failure(inp, status, message, opt):
    parts = []
    h = ffi.new_handle(parts)
    keep = []
    st = lib.winnow_render_jsonl_failure(inp, status, _cstr(message, keep, "message"), opt, _collect, h)
    if st != lib.WINNOW_OK:
        raise error_for(st, "rendering failed: " + ffi.string(lib.winnow_status_message(st)).decode())
    return b"".join(parts).decode("utf-8", "replace")


def _comments(doc):
    out = []
    c = ffi.new("winnow_comment *")
    c.struct_size = ffi.sizeof("winnow_comment")
    for i in range(lib.winnow_doc_comment_count(doc)):
        if lib.winnow_doc_comment(doc, i, c) == lib.WINNOW_OK:
            out.append({"author": _str(c.author), "date": _str(c.date), "text": _str(c.text)})
    return out


def _posts(doc):
    out = []
    c = ffi.new("winnow_comment *")
    c.struct_size = ffi.sizeof("winnow_comment")
    for i in range(lib.winnow_doc_post_count(doc)):
        if lib.winnow_doc_post(doc, i, c) == lib.WINNOW_OK:
            out.append({"author": _str(c.author), "date": _str(c.date), "text": _str(c.text)})
    return out


def _with_comments(text, comments):
    """The comments after the main text, as `winnow extract --comments` writes them."""
    parts = [text]
    for c in comments:
        sep = ", " if c["author"] and c["date"] else ""
        parts.append("\n-- %s%s%s\n%s\n" % (c["author"], sep, c["date"], c["text"]))
    return "".join(parts)


class Result:
    """One page's extraction.

    text        the rendering in the format asked for (with ``comments=True`` in
                text and markdown, the reader comments after it, as the CLI's
                ``--comments`` writes them)
    format      that format's name
    title       the page's title ("" when none)
    metadata    dict: title, author, date, url (canonical), site_name,
                description, language, charset ("" when unknown)
    status      the library's status name: "WINNOW_OK", "WINNOW_PARTIAL"
                (damaged input, repaired), "WINNOW_NO_CONTENT", "WINNOW_NO_MAIN",
                "WINNOW_THIN_MAIN" (much visible text, but only the headline or a
                few words of it found to be main content: text holds them)
    warning     why the status is not OK ("" when OK)
    content_source  how the main content was chosen: "scorer", "site-model",
                "fallback-landmark", "fallback-description", "fallback-unhinted",
                "listing" (one teaser of a listing page: nothing kept),
                "frame" (only the page's header or footer had text: nothing kept),
                "none" (winnow_doc_source())
    comments    list of {"author", "date", "text"} when asked for, else None
    posts       a thread's posts (a page whose page_type is "forum"): list of
                {"author", "date", "text"}, the first post first; [] for a page
                that is no thread. Their text is in the main text too
    url         the URL given with the page
    page_type   the kind of page: "article", "forum", "product", "listing",
                "documentation", "service", "other" ("unknown" without a page
                type model); forced by ``Extractor(page_type=...)``
    page_type_confidence  the model's probability of that kind (1.0 when forced)
    error       "" for a page extracted; for a page that failed in
                ``winnow.extract_many`` (which yields a Result in its place
                rather than raising), the error's message, with ``status`` the
                error's status name ("WINNOW_E_BINARY", ...), ``text`` "" and
                ``ok`` false
    confidence  the estimated chance, 0..1, that text is the page's main
                content (token F1 >= 0.8 against a person's choice; the
                calibration is in bench/RESULTS.md); None without the model
    """

    __slots__ = ("text", "format", "metadata", "status", "warning", "content_source", "comments", "url", "page_type",
                 "page_type_confidence", "posts", "error", "confidence")

    def __init__(self, text, format, metadata, status, warning, content_source, comments, url, page_type="unknown",
                 page_type_confidence=0.0, posts=None, error="", confidence=None):
        self.text = text
        self.format = format
        self.metadata = metadata
        self.status = status
        self.warning = warning
        self.content_source = content_source
        self.comments = comments
        self.url = url
        self.page_type = page_type
        self.page_type_confidence = page_type_confidence
        self.posts = posts if posts is not None else []
        self.error = error
        self.confidence = confidence

    @property
    def title(self):
        return self.metadata.get("title", "")

    @property
    def ok(self):
        """True when main content was found (OK or PARTIAL); not for a page of
        much text of which only its headline or a few words were (THIN_MAIN)."""
        return self.status in ("WINNOW_OK", "WINNOW_PARTIAL")

    def json(self):
        """With format="json" (or "blocks"/"segments"): the rendering parsed."""
        if self.format == "blocks":
            return [json.loads(line) for line in self.text.splitlines() if line]
        return json.loads(self.text)

    def to_dict(self):
        return {k: getattr(self, k) for k in self.__slots__} | {"title": self.title}

    def __str__(self):
        return self.text

    def __repr__(self):
        t = self.text if len(self.text) <= 60 else self.text[:57] + "..."
        return "<winnow.Result %s title=%r text=%r>" % (self.status, self.title, t)


_STATUS_NAMES = {}


def _status(st):
    name = _STATUS_NAMES.get(st)
    if name is None:
        name = _STATUS_NAMES[st] = ffi.string(lib.winnow_status_name(st)).decode()
    return name


_OUTPUTS = ("result", "str")


class Extractor:
    """A reusable engine: one HTML parser and its buffers, kept from page to page.

    ``Extractor(include_title=True, classifier=True, smooth=True,
    max_input_bytes=None, max_depth=None, model=None, rules=None,
    page_type=None, favor=None)`` takes the engine options of
    ``winnow_options`` (None: the library's default; ``page_type`` forces the
    kind every page is reported as, ``Result.page_type``; ``favor`` is
    "precision", "balanced" or "recall", the dial between leaving out
    template and keeping all of the content), a node
    classifier model file written by ``winnow train`` (``model=``; ``False``
    runs with no classifier), and rule overrides (``rules={"name": value}``, see
    ``winnow rules``).

    Threads: the C engine is not shared between threads. Calls on one
    Extractor from several threads are safe (they take the Extractor's lock
    in turn) but run one at a time; for parallel extraction give each thread
    its own Extractor (the module-level ``winnow.extract()`` does: it keeps one
    per thread). The GIL is released while the library works, so threads
    with their own engines run in parallel.

    Close it with ``close()`` or ``with Extractor() as ex: ...``; an
    Extractor dropped without closing is freed by the garbage collector.

    Processes: an Extractor pickles by its settings (the options above; a
    ``model`` file by its absolute path, which must be readable where it is
    unpickled) and is unpickled as a new Extractor with its own engine, so it
    crosses to ``multiprocessing`` and ``concurrent.futures`` workers, Dask,
    Spark and Ray. ``copy.copy()`` makes a new engine the same way.
    """

    def __init__(self, include_title=True, classifier=True, smooth=True, max_input_bytes=None, max_depth=None,
                 model=None, rules=None, page_type=None, favor=None):
        # what a pickle carries: the engine is made again from them
        self._settings = {"include_title": include_title, "classifier": classifier, "smooth": smooth,
                          "max_input_bytes": max_input_bytes, "max_depth": max_depth,
                          "model": os.path.abspath(os.fspath(model)) if model else model,
                          "rules": dict(rules) if rules else None, "page_type": page_type, "favor": favor}
        opt = ffi.new("winnow_options *")
        st = lib.winnow_options_default(opt, ffi.sizeof("winnow_options"))
        if st != lib.WINNOW_OK:
            raise error_for(st)
        opt.include_title = 1 if include_title else 0
        opt.classifier = 0 if (not classifier or model is False) else 1
        opt.smooth = 1 if smooth else 0
        if page_type is not None:
            # a kind forced on every page (reported with confidence 1)
            t = lib.winnow_page_type_parse(str(page_type).encode())
            if t == 0:
                raise ArgumentError("page_type must be article, forum, product, listing, documentation, service or "
                                    "other, not %r" % (page_type,))
            opt.page_type = t
        if favor is not None:
            # the precision/recall dial: a preset of the rule table
            f = ffi.new("int *")
            if lib.winnow_favor_parse(str(favor).encode(), f) != lib.WINNOW_OK:
                raise ArgumentError("favor must be precision, balanced or recall, not %r" % (favor,))
            opt.favor = f[0]
        if max_input_bytes is not None:
            opt.max_input_bytes = _c_count(max_input_bytes, "max_input_bytes", "size_t")
        if max_depth is not None:
            opt.max_depth = _c_count(max_depth, "max_depth", "unsigned")
        out = ffi.new("winnow_engine **")
        st = lib.winnow_engine_new(opt, out)
        if st != lib.WINNOW_OK:
            raise error_for(st, "cannot make an engine")
        self._e = ffi.gc(out[0], lib.winnow_engine_free)
        self._lock = threading.Lock()
        if model:
            st = lib.winnow_engine_load_model(self._e, os.fsencode(model))
            if st != lib.WINNOW_OK:
                err = error_for(st, self._error())
                self.close()
                raise err
        for name, value in (rules or {}).items():
            st = lib.winnow_engine_set_rule(self._e, name.encode(), float(value))
            if st != lib.WINNOW_OK:
                err = error_for(st, self._error())
                self.close()
                raise err

    def __reduce__(self):
        return (_extractor_from_settings, (self._settings,))

    @property
    def settings(self):
        """The options this Extractor was made with (a dict): what a pickle of it carries."""
        return dict(self._settings)

    def _error(self):
        return _str(lib.winnow_engine_error(self._e))

    def _engine(self):
        if self._e is None:
            raise ArgumentError("this Extractor is closed")
        return self._e

    @property
    def has_model(self):
        """True when the engine scores nodes with a classifier."""
        return bool(lib.winnow_engine_has_model(self._engine()))

    def close(self):
        """Frees the engine now (idempotent)."""
        e, self._e = self._e, None
        if e is not None:
            with self._lock:
                ffi.release(e)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _run(self, html, url, charset, source, site, site_opt):
        """Extracts one page: (doc, status), the doc to free with winnow_doc_free."""
        keep = []
        inp = _make_input(html, url, charset, source, keep)
        out = ffi.new("winnow_doc **")
        e = self._engine()
        with self._lock:
            if site is None:
                st = lib.winnow_extract(e, inp, out)
            else:
                st = lib.winnow_extract_site(e, inp, site, site_opt, out)
            if st >= lib.WINNOW_E_EMPTY:
                raise error_for(st, self._error())
        return out[0], st

    def _result(self, doc, st, fmt_name, comments, output, url, body=0):
        fmt = _format(fmt_name)
        if body and fmt == lib.WINNOW_FORMAT_JSON:
            text = _render_json(doc, body)
        elif body and fmt == lib.WINNOW_FORMAT_JSONL:
            text = _render_jsonl(doc, _jsonl_options(None, None, False, False, [], body))
        else:
            text = _render(doc, fmt)
        cms = _comments(doc) if comments else None
        if cms and fmt in (lib.WINNOW_FORMAT_TEXT, lib.WINNOW_FORMAT_MARKDOWN):
            text = _with_comments(text, cms)
        if output == "str":
            return text
        meta = {name: _str(lib.winnow_doc_meta(doc, i)) for i, name in enumerate(META_FIELDS)}
        conf = ffi.new("double *")
        kind = lib.winnow_doc_page_type(doc, conf)
        sure = lib.winnow_doc_confidence(doc)
        return Result(text, fmt_name, meta, _status(st), _str(lib.winnow_doc_warning(doc)),
                      _str(lib.winnow_doc_source(doc)), cms, url, _str(lib.winnow_page_type_name(kind)), conf[0],
                      _posts(doc), confidence=round(sure, 3) if sure >= 0 else None)

    def extract(self, html, url=None, format="text", comments=False, output="result", charset=None, source=None,
                body=None):
        """The main content of one page.

        html      the page: bytes (its charset is detected: <meta>, BOM,
                  statistics; ``charset=`` overrides), str (handed over as
                  UTF-8), or a ``winnow.Record`` from ``winnow.read()`` (its url,
                  charset and source come along)
        url       the page's URL (metadata, relative links, its site)
        format    "text", "markdown", "json", "html", "blocks", "segments",
                  "fulltext", "jsonl" (the line with no id: ``jsonl()`` names it)
        comments  reader comments: in ``Result.comments``, and after the text
                  in text and markdown
        output    "result" (default): a ``winnow.Result``; "str" (or the type
                  ``str``): the rendering alone, as a string
        source    where the page came from, for the JSON output:
                  {"file": ..., "record": n, "record_id": ...}
        body      json and jsonl: the main content in these formats, each
                  in a key of its name in place of "text": "markdown",
                  "text,markdown" or ["text", "markdown"] (from text,
                  markdown, html, fulltext; None: "text"), as ``--body``

        Raises a ``winnow.Error`` subclass when the page cannot be extracted
        (``EmptyError``, ``BinaryError``, ``TooLargeError``, ...). A page
        with no main content is not an error: its status says so.
        """
        return self._extract(html, url, format, comments, output, charset, source, None, ffi.NULL, body)

    def _extract(self, html, url, format, comments, output, charset, source, site, site_opt, body=None):
        if output is str:
            output = "str"
        if output not in _OUTPUTS:
            raise ArgumentError("output must be 'result' or 'str', not %r" % (output,))
        _format(format)  # an unknown name fails before any work
        body = _body(body)
        if body and _format(format) not in (lib.WINNOW_FORMAT_JSON, lib.WINNOW_FORMAT_JSONL):
            raise ArgumentError("body is for format 'json' or 'jsonl', not %r" % (format,))
        doc, st = self._run(html, url, charset, source, site, site_opt)
        try:
            return self._result(doc, st, format, comments, output,
                                url if url is not None else getattr(html, "url", None), body)
        finally:
            with self._lock:  # winnow_doc_free counts as a call on the engine
                lib.winnow_doc_free(doc)

    def jsonl(self, html, url=None, id=None, site=None, blocks=False, comments=False, charset=None, source=None,
              body=None):
        """The page's line of JSON lines, as ``winnow extract --format jsonl``
        writes it (id, source, url, site, status, warning, error, language,
        metadata, content_source, page_type, page_type_confidence, text, posts;
        ``blocks`` and ``comments`` on request),
        ending in a newline. A page that fails does not raise: its line has
        the status and the error. ``id`` names the page (the CLI: its output
        name); ``site`` overrides the URL's site in the line; ``body`` puts
        the main content in other formats in place of "text", as in
        ``extract()`` (``body="markdown"``: a "markdown" key)."""
        return self._jsonl(html, url, id, site, blocks, comments, charset, source, None, ffi.NULL, body)

    def _jsonl(self, html, url, id, site, blocks, comments, charset, source, model, site_opt, body=None):
        keep = []
        opt = _jsonl_options(id, site, blocks, comments, keep, _body(body))
        inp = _make_input(html, url, charset, source, keep)
        out = ffi.new("winnow_doc **")
        e = self._engine()
        with self._lock:
            if model is None:
                st = lib.winnow_extract(e, inp, out)
            else:
                st = lib.winnow_extract_site(e, inp, model, site_opt, out)
            if st >= lib.WINNOW_E_EMPTY:
                return _render_jsonl_failure(inp, st, self._error(), opt)
        try:
            return _render_jsonl(out[0], opt)
        finally:
            with self._lock:
                lib.winnow_doc_free(out[0])

    def blocks(self, html, url=None, charset=None):
        """The page's block candidates in document order, one dict each, as the
        "blocks" format writes them (tag, path, text, chars, words, links,
        fingerprint, templateness, content, parent, ...)."""
        return _parse_blocks(self._extract(html, url, "blocks", False, "str", charset, None, None, ffi.NULL))


def _extractor_from_settings(settings):
    """An Extractor unpickled: a new engine with the settings of the pickled one."""
    return Extractor(**settings)


def _parse_blocks(text):
    return [json.loads(line) for line in text.splitlines() if line]


_local = threading.local()


def _thread_extractor(options):
    """The calling thread's Extractor for these options (made on first use)."""
    cache = getattr(_local, "extractors", None)
    if cache is None:
        cache = _local.extractors = {}
    key = tuple(sorted((k, tuple(sorted(v.items())) if isinstance(v, dict) else v) for k, v in options.items()))
    ex = cache.get(key)
    if ex is None:
        ex = cache[key] = Extractor(**options)
    return ex


def extract(html, url=None, format="text", comments=False, output="result", charset=None, body=None, **options):
    """The main content of one page: ``Extractor().extract()`` on the calling
    thread's engine (kept from call to call, one per thread). Engine options
    (``include_title``, ``classifier``, ``smooth``, ``max_input_bytes``,
    ``max_depth``, ``model``, ``rules``, ``page_type``) may be given too."""
    return _thread_extractor(options).extract(html, url=url, format=format, comments=comments, output=output,
                                              charset=charset, body=body)


def blocks(html, url=None, charset=None, **options):
    """The page's block candidates: a list of dicts from the "blocks" format."""
    return _thread_extractor(options).blocks(html, url=url, charset=charset)


def version():
    """The version of the library loaded ("0.1.0")."""
    return ffi.string(lib.winnow_version()).decode()


def rules():
    """The scorer's rule table: a list of dicts (name, stage, why, default, off)."""
    out = []
    r = ffi.new("winnow_rule *")
    for i in range(lib.winnow_rule_count()):
        r.struct_size = ffi.sizeof("winnow_rule")
        if lib.winnow_rule_info(i, r) == lib.WINNOW_OK:
            out.append({"name": _str(r.name), "stage": _str(r.stage), "why": _str(r.why),
                        "default": r.default_value, "off": r.off_value})
    return out
