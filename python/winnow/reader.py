"""Page readers: the pages of a directory, a WARC file or a JSON lines file."""
import os

from ._ffi import ffi, lib
from ._core import _opt_str, _str
from .errors import ArgumentError, error_for

_FORMATS = {"auto": 0, "html": 1, "warc": 2, "jsonl": 3}
_FORMAT_NAMES = {v: k for k, v in _FORMATS.items()}


class Record:
    """One page of an input.

    url        WARC-Target-URI or the JSONL "url"; None for a plain file
    data       the page's bytes (WARC: the HTTP payload, transfer and content
               encodings undone)
    charset    from the HTTP Content-Type header or the JSONL "charset", or None
    source     where it came from: the file path, "file.warc.gz#offset" or
               "file.jsonl:line"
    id         the page's name: the file stem, or the record number ("00042")
    file       the file it was read from
    number     its record in that file (WARC records from 0, JSONL lines from 1;
               -1 for a whole file)
    record_id  the WARC-Record-ID, or None
    error      None for a page; read with ``damaged=True``, a damaged record
               that holds no page (a WARC record cut short by the end of the
               file, a JSONL line that is not a page record): the reader's
               message why, with data empty

    ``winnow.extract(record)`` takes the url, charset and source from it.
    """

    __slots__ = ("url", "data", "charset", "source", "id", "file", "number", "record_id", "error")

    def __init__(self, url, data, charset=None, source=None, id=None, file=None, number=-1, record_id=None,
                 error=None):
        self.url = url
        self.data = data
        self.charset = charset
        self.source = source
        self.id = id
        self.file = file
        self.number = number
        self.record_id = record_id
        self.error = error

    def __repr__(self):
        return "<winnow.Record %s %s (%d bytes)>" % (self.source, self.url, len(self.data))

    def __reduce__(self):
        return (Record, tuple(getattr(self, k) for k in self.__slots__))


class Reader:
    """An iterator over the pages of one input (``winnow.read()`` makes it).

    Streams: memory stays bounded by the largest record. Damaged records,
    malformed lines and pages over ``max_record_bytes`` are skipped, counted
    in ``skipped`` and described by ``warnings`` (the first 1,000); a read error stops the
    iteration with a ``winnow.FileError``. Close it (``close()`` or ``with``)
    to release the file before the iterator is exhausted; exhaustion closes
    it too. One thread at a time. With ``damaged=True`` a damaged record (a
    WARC record cut short by the end of the file, a JSONL line that is not a
    page record) is not skipped but handed out, with its ``error`` set and
    no data, so that every record of the input is accounted for (as the CLI
    does: a WINNOW_E_FORMAT failure each).
    """

    def __init__(self, path, format="auto", recursive=False, max_record_bytes=None, damaged=False):
        if format not in _FORMATS:
            raise ArgumentError("format must be one of %s, not %r" % (", ".join(_FORMATS), format))
        opt = ffi.new("winnow_reader_options *")
        st = lib.winnow_reader_options_default(opt, ffi.sizeof("winnow_reader_options"))
        if st != lib.WINNOW_OK:
            raise error_for(st)
        opt.format = _FORMATS[format]
        opt.recursive = 1 if recursive else 0
        opt.damaged = 1 if damaged else 0
        if max_record_bytes is not None:
            if max_record_bytes <= 0:
                raise ArgumentError("max_record_bytes must be positive")
            opt.max_record_bytes = int(max_record_bytes)
        self.path = os.fspath(path)
        out = ffi.new("winnow_reader **")
        err = ffi.new("char[]", 1024)
        st = lib.winnow_reader_open(os.fsencode(self.path), opt, out, err, 1024)
        if st != lib.WINNOW_OK:
            raise error_for(st, ffi.string(err))
        self._r = ffi.gc(out[0], lib.winnow_reader_close)
        self._rec = ffi.new("winnow_record *")
        self.warnings = []
        self.warning = ""  # the last next()'s: what a record skipped just before was
        self._skipped = 0
        self._too_large = 0
        self._format = _FORMAT_NAMES.get(int(lib.winnow_reader_format(self._r)), "auto")

    @property
    def format(self):
        """What the input is read as: "html" (a directory or one page), "warc" or "jsonl"."""
        return self._format

    @property
    def skipped(self):
        """Records skipped so far (not 2xx HTML, over the size limit, damaged)."""
        if self._r is not None:
            self._skipped = int(lib.winnow_reader_skipped(self._r))
        return self._skipped

    @property
    def too_large(self):
        """Of the records skipped so far, those over ``max_record_bytes`` (the
        CLI gives each a ``WINNOW_E_TOO_LARGE`` line, with ``warning`` of the
        next() that skipped it as the error)."""
        if self._r is not None:
            self._too_large = int(lib.winnow_reader_too_large(self._r))
        return self._too_large

    def progress(self):
        """(bytes read, total bytes) of the input as stored; total is None when unknown."""
        if self._r is None:
            return None
        done = ffi.new("unsigned long long *")
        total = ffi.new("unsigned long long *")
        known = lib.winnow_reader_progress(self._r, done, total)
        return int(done[0]), (int(total[0]) if known else None)

    def __iter__(self):
        return self

    def __next__(self):
        r = self._r
        if r is None:
            raise StopIteration
        rec = self._rec
        rec.struct_size = ffi.sizeof("winnow_record")
        st = lib.winnow_reader_next(r, rec)
        warning = lib.winnow_reader_warning(r)
        self.warning = _str(warning) if warning != ffi.NULL and warning[0] != b"\0" else ""
        if self.warning and len(self.warnings) < 1000:
            self.warnings.append(self.warning)  # the first 1,000: memory stays flat
        if st == lib.WINNOW_END:
            self.close()
            raise StopIteration
        if st != lib.WINNOW_OK:
            err = error_for(st, _str(lib.winnow_reader_error(r)))
            self.close()
            raise err
        return Record(
            _opt_str(rec.url),
            ffi.unpack(ffi.cast("const char *", rec.data), rec.len) if rec.len else b"",
            _opt_str(rec.charset),
            _opt_str(rec.source),
            _opt_str(rec.id),
            _opt_str(rec.file),
            int(rec.number),
            _opt_str(rec.record_id),
            _opt_str(rec.error),
        )

    def __reduce__(self):
        raise TypeError("a winnow.Reader is a position in an open file and does not pickle: hand the worker "
                        "the path and let it winnow.read() it")

    def close(self):
        """Closes the input (idempotent)."""
        r, self._r = self._r, None
        if r is not None:
            self._skipped = int(lib.winnow_reader_skipped(r))
            self._too_large = int(lib.winnow_reader_too_large(r))
            ffi.release(r)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read(path, format="auto", recursive=False, max_record_bytes=None, damaged=False):
    """The pages of PATH, one ``winnow.Record`` at a time.

    PATH is a directory (its *.html, *.htm and gzipped *.html.gz files, sorted;
    ``recursive=True`` for subdirectories), a WARC file (.warc, .warc.gz), a
    JSON lines file ({"url": ..., "html": ...} per line; .jsonl, .ndjson,
    gzipped or not), one HTML file, or "-" for stdin. ``format`` forces how a
    file is read: "auto" (by its name, then its first bytes), "html", "warc",
    "jsonl". ``damaged=True`` hands out damaged records too, each with its
    ``error`` (``Reader``).
    """
    return Reader(path, format=format, recursive=recursive, max_record_bytes=max_record_bytes, damaged=damaged)
