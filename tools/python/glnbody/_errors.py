"""Library statuses as Python exceptions, each carrying the library's message."""
from ._lib import ffi, lib


class Error(Exception):
    """A glnbody call failed; str(e) is the library's message, e.status its
    status name ("NB_ERR_ARGS", ...)."""

    status_name = None

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status or self.status_name


class ArgumentError(Error, ValueError):
    """A bad argument or option value, or a bad array (NB_ERR_ARGS)."""
    status_name = "NB_ERR_ARGS"


class GLError(Error):
    """The GL context, a shader or a GL call failed, or the system lacks
    what the request needs (NB_ERR_GL, NB_ERR_UNSUPPORTED, NB_ERR_LIMIT)."""
    status_name = "NB_ERR_GL"


class IOError(Error, OSError):
    """A file could not be read or written, or is malformed (NB_ERR_IO,
    NB_ERR_PARSE)."""
    status_name = "NB_ERR_IO"


class NumericError(Error, ArithmeticError):
    """The integration broke down: a step below the floor or a non-finite
    value (NB_ERR_NUMERIC)."""
    status_name = "NB_ERR_NUMERIC"


class MemoryError_(Error, MemoryError):
    """Host or GPU memory exhausted (NB_ERR_NOMEM)."""
    status_name = "NB_ERR_NOMEM"


_CLASSES = {
    lib.NB_ERR_ARGS: ArgumentError,
    lib.NB_ERR_IO: IOError,
    lib.NB_ERR_PARSE: IOError,
    lib.NB_ERR_NOMEM: MemoryError_,
    lib.NB_ERR_GL: GLError,
    lib.NB_ERR_LIMIT: GLError,
    lib.NB_ERR_UNSUPPORTED: GLError,
    lib.NB_ERR_NUMERIC: NumericError,
}
_NAMES = {getattr(lib, k): k for k in ("NB_ERR_ARGS", "NB_ERR_IO", "NB_ERR_PARSE",
                                       "NB_ERR_NOMEM", "NB_ERR_GL", "NB_ERR_LIMIT",
                                       "NB_ERR_UNSUPPORTED", "NB_ERR_NUMERIC")}


def new_error():
    return ffi.new("struct nb_error *")


def check(status, err):
    """Raises the exception of status with err's message; nothing for NB_OK."""
    if status == lib.NB_OK:
        return
    message = ffi.string(err.message).decode("utf-8", "replace")
    cls = _CLASSES.get(status, Error)
    raise cls(message or "glnbody: status %d" % status, _NAMES.get(status, str(status)))


def call(func, *args):
    """func(*args, err) with a fresh nb_error, raising on failure."""
    err = new_error()
    check(func(*args, err), err)
