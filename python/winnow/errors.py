"""Exceptions: one class per failure status of the library.

Every exception the package raises for a failed call is a :class:`Error`
carrying the library's status name (``e.status``, e.g. ``"WINNOW_E_BINARY"``,
from ``winnow_status_name()``), its number (``e.code``) and the detail of the
object the call was made on (``e.message``: ``winnow_engine_error()``,
``winnow_reader_error()``, ``winnow_sitedb_error()`` or the ``err`` buffer of an
open call). ``str(e)`` is ``"WINNOW_E_BINARY: <message>"``.

The classes also derive from the matching built-in exception where one fits
(``ValueError`` for bad input and arguments, ``OSError`` for files,
``MemoryError``), so code that catches those keeps working.
"""
from ._ffi import ffi, lib


class Error(Exception):
    """A failed call of libwinnow."""

    status = "WINNOW_E"  # overridden per class and per instance
    code = -1

    def __init__(self, message="", status=None, code=None):
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.message = message or _status_message(self.code)
        Exception.__init__(self, "%s: %s" % (self.status, self.message))

    # OSError and friends take their own constructor arguments; keep ours
    def __reduce__(self):
        return (_rebuild, (type(self), self.message, self.status, self.code))

    def __str__(self):
        return "%s: %s" % (self.status, self.message)


def _rebuild(cls, message, status, code):
    return cls(message, status, code)


class InputError(Error, ValueError):
    """The page cannot be extracted: empty, not text, too large."""


class EmptyError(InputError):
    status, code = "WINNOW_E_EMPTY", 10


class BinaryError(InputError):
    status, code = "WINNOW_E_BINARY", 11


class TooLargeError(InputError):
    status, code = "WINNOW_E_TOO_LARGE", 12


class NoMemoryError(Error, MemoryError):
    status, code = "WINNOW_E_NOMEM", 13


class ParseError(Error):
    status, code = "WINNOW_E_PARSE", 14


class FileError(Error, OSError):
    """A file could not be opened, read or written."""

    status, code = "WINNOW_E_IO", 15


class ArgumentError(Error, ValueError):
    """An invalid argument: a format, option or rule name the library does not know, ..."""

    status, code = "WINNOW_E_ARG", 16


class FormatError(Error, ValueError):
    """A file is not of the format asked for (a model file, a WARC file)."""

    status, code = "WINNOW_E_FORMAT", 21


class DatabaseError(Error):
    """The site database failed (an SQLite error none of the subclasses names)."""

    status, code = "WINNOW_E_DB", 22


class DatabaseDamagedError(DatabaseError):
    status, code = "WINNOW_E_DB_DAMAGED", 17


class DatabaseReadOnlyError(DatabaseError, PermissionError):
    status, code = "WINNOW_E_DB_READONLY", 18


class DatabaseFormatError(DatabaseError):
    status, code = "WINNOW_E_DB_FORMAT", 19


class DatabaseBusyError(DatabaseError):
    status, code = "WINNOW_E_DB_BUSY", 20


_BY_CODE = {
    cls.code: cls
    for cls in (
        EmptyError, BinaryError, TooLargeError, NoMemoryError, ParseError, FileError, ArgumentError,
        FormatError, DatabaseError, DatabaseDamagedError, DatabaseReadOnlyError, DatabaseFormatError,
        DatabaseBusyError,
    )
}


def status_name(code):
    """The library's name of a status number: ``status_name(11) == "WINNOW_E_BINARY"``."""
    return ffi.string(lib.winnow_status_name(code)).decode()


def _status_message(code):
    if code < 0:
        return "winnow failed"
    return ffi.string(lib.winnow_status_message(code)).decode()


def error_for(code, message=""):
    """The exception for a failed status, with the object's detail."""
    code = int(code)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    cls = _BY_CODE.get(code, Error)
    return cls(message, status_name(code), code)
