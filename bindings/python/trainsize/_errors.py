"""Exceptions and status codes of the binding."""

import _thread

# The library's status codes (trainsize_status), pinned by the C API, as plain ints for
# the binding's own use; Status gives them names.
OK = 0
E_INVALID = -1
E_UNKNOWN = -2
E_LIMIT = -6
E_UNSUPPORTED = -10
E_CANCELLED = -11


def _make_status():
    # enum costs ~2 ms of the import, so Status is made when first used (an error, or
    # trainsize.Status read).
    import enum

    class Status(enum.IntEnum):
        """The library's status codes (trainsize_status); the values are pinned by the C
        API."""

        OK = 0
        E_INVALID = -1      #: A value is malformed or out of its range.
        E_UNKNOWN = -2      #: An unknown parameter, preset, GPU or choice name.
        E_LAYOUT = -3       #: The parallel layout does not divide the model or GPUs.
        E_OVERFLOW = -4     #: A result would not fit in 64 bits.
        E_PARSE = -5        #: Malformed JSON.
        E_LIMIT = -6        #: Input beyond a size or nesting limit.
        E_IO = -7           #: A file could not be read.
        E_NOMEM = -8        #: Memory allocation failed.
        E_ARGUMENT = -9     #: A NULL pointer or a too-small struct from the caller.
        E_UNSUPPORTED = -10  #: A valid combination the model does not cover.
        E_CANCELLED = -11   #: plan(progress=...) returned true: the search was stopped.

    Status.__module__, Status.__qualname__ = "trainsize", "Status"  # as pickle finds it
    return Status


_made = []
_made_lock = _thread.allocate_lock()


def status_class():
    """The Status enum, made once (from any thread)."""
    if not _made:
        with _made_lock:
            if not _made:
                _made.append(_make_status())
    return _made[0]


def __getattr__(name):
    if name == "Status":
        return status_class()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


class TrainsizeError(ValueError):
    """A call into libtrainsize failed, almost always because of invalid input.

    Attributes:
        code: the library's status (a :class:`Status` when it is a known one, else the int).
        field: the offending parameter or JSON key as the library names it (the CLI option
            name, e.g. ``"micro-batch"``, or a ``config.json`` key), or ``""``.
        message: the library's one-line message (``str(exc)`` is the same text).
        keyword: the Python keyword argument that carried the bad value, when there is one
            (e.g. ``"micro_batch"``), else ``None``.
    """

    def __init__(self, code, field="", message="", keyword=None):
        try:
            code = status_class()(code)
        except ValueError:
            pass
        self.code = code
        self.field = field
        self.message = message
        self.keyword = keyword
        super().__init__(message)

    def __repr__(self):
        return "TrainsizeError(code=%r, field=%r, message=%r)" % (
            self.code, self.field, self.message)


class LibraryError(ImportError):
    """libtrainsize could not be found or loaded, or does not match this binding (its ABI
    version or its struct layout). Raised when ``trainsize`` is imported."""
