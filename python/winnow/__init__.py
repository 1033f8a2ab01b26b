"""winnow: the main content of web pages, from Python.

A binding of libwinnow (the C library of this repository) through cffi's ABI
mode: nothing is compiled, the library is loaded at import (see
``winnow._ffi`` for where it is looked for; ``WINNOW_LIBRARY`` names it).

    import winnow
    r = winnow.extract(html_bytes, url="https://example.org/a")
    r.text, r.title, r.metadata, r.status, r.warning
    winnow.extract(html, output="str")           # just the text
    winnow.blocks(html)                          # block candidates, dicts
    for r in winnow.extract_many(pages, jobs=4): # streamed, in input order
        print(r.url, r.status, r.text[:80])
    for rec in winnow.read("crawl.warc.gz"):     # directory, WARC, JSONL
        print(rec.url, winnow.extract(rec, output="str"))
    with winnow.SiteDB("sites.db") as db:
        db.learn("crawl.warc.gz")
        db.extract(html, url)

Threads: the GIL is released while the library works. The module-level
calls keep one engine per thread; an ``Extractor`` is one engine (one thread
at a time). Processes: an ``Extractor`` and a ``SiteDB`` pickle by their
settings and reopen where they are unpickled. Errors raise ``winnow.Error``
subclasses carrying the library's status name (``e.status``) and message
(``e.message``).
"""
from ._ffi import library_path
from ._core import META_FIELDS, Extractor, Result, blocks, extract, rules, version
from ._many import extract_many
from .errors import (
    ArgumentError, BinaryError, DatabaseBusyError, DatabaseDamagedError, DatabaseError, DatabaseFormatError,
    DatabaseReadOnlyError, EmptyError, Error, FileError, FormatError, InputError, NoMemoryError, ParseError,
    TooLargeError, status_name,
)
from .reader import Reader, Record, read
from .sitedb import LearnStats, Partial, SiteDB, SiteInfo, Template, check_partial, site_name

__version__ = "0.1.0"

__all__ = [
    "extract", "extract_many", "blocks", "read", "Extractor", "Result", "Record", "Reader", "SiteDB", "SiteInfo", "Template",
    "LearnStats", "Partial", "check_partial", "site_name", "version", "rules", "status_name", "library_path", "META_FIELDS",
    "Error", "InputError", "EmptyError", "BinaryError", "TooLargeError", "NoMemoryError", "ParseError",
    "FileError", "ArgumentError", "FormatError", "DatabaseError", "DatabaseDamagedError",
    "DatabaseReadOnlyError", "DatabaseFormatError", "DatabaseBusyError",
]
