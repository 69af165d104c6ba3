"""Checking numpy arrays before they reach the library: a bad shape, dtype
or value is an ArgumentError naming the argument, never a crash."""
import numpy as np

from ._errors import ArgumentError
from ._lib import ffi


def vectors(name, a, n=None, finite=True):
    """a as a C-contiguous float64 (n, 3) array (copied only when a is not
    one already), checked: real numbers, n rows (n None: any, at least 1),
    finite values."""
    try:
        arr = np.asarray(a)
    except Exception as e:      # ragged lists and the like
        raise ArgumentError("%s: not an array (%s)" % (name, e)) from None
    if arr.dtype.kind not in "fiu" or arr.dtype.kind == "b":
        raise ArgumentError("%s: dtype %s; give real numbers (float64 or float32)"
                            % (name, arr.dtype))
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ArgumentError("%s: shape %s; give an (N, 3) array" % (name, arr.shape))
    if n is None and arr.shape[0] == 0:
        raise ArgumentError("%s: no particles (length 0)" % name)
    if n is not None and arr.shape[0] != n:
        raise ArgumentError("%s: %d rows for %d particles" % (name, arr.shape[0], n))
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if finite and not np.isfinite(arr).all():
        raise ArgumentError("%s: not finite (NaN or infinity at row %d)"
                            % (name, int(np.argwhere(~np.isfinite(arr))[0][0])))
    return arr


def scalars(name, a, n, dtype=np.float64, positive=False):
    """a as a C-contiguous 1-D array of n values of dtype (a scalar is
    repeated n times), checked finite (and > 0 with positive)."""
    try:
        arr = np.asarray(a)
    except Exception as e:
        raise ArgumentError("%s: not an array (%s)" % (name, e)) from None
    if arr.dtype.kind not in "fiu":
        raise ArgumentError("%s: dtype %s; give numbers" % (name, arr.dtype))
    if arr.ndim == 0:
        arr = np.full(n, arr, dtype=dtype)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ArgumentError("%s: shape %s; give %d values" % (name, arr.shape, n))
    if np.dtype(dtype).kind == "i" and arr.dtype.kind == "f":
        if not (np.isfinite(arr).all() and (arr == np.round(arr)).all()):
            raise ArgumentError("%s: not whole numbers" % name)
    arr = np.ascontiguousarray(arr, dtype=dtype)
    if not np.isfinite(arr).all():
        raise ArgumentError("%s: not finite (NaN or infinity at %d)"
                            % (name, int(np.argwhere(~np.isfinite(arr))[0][0])))
    if positive and not (arr > 0).all():
        raise ArgumentError("%s: every value must be > 0 (%g at %d)"
                            % (name, arr[arr <= 0][0], int(np.argwhere(arr <= 0)[0][0])))
    return arr


def number(name, value, low=None, positive=False):
    """A finite float (>= low, or > 0 with positive)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ArgumentError("%s: %r is not a number" % (name, value)) from None
    if v != v or v in (float("inf"), float("-inf")):
        raise ArgumentError("%s: %r is not finite" % (name, value))
    if low is not None and v < low:
        raise ArgumentError("%s: %r must be >= %g" % (name, value, low))
    if positive and not v > 0:
        raise ArgumentError("%s: %r must be > 0" % (name, value))
    return v


def integer(name, value, low=0, high=None):
    try:
        if isinstance(value, bool) or int(value) != value:
            raise TypeError
        v = int(value)
    except (TypeError, ValueError, OverflowError):
        raise ArgumentError("%s: %r is not a whole number" % (name, value)) from None
    if v < low or (high is not None and v > high):
        raise ArgumentError("%s: %d out of range (%d..%s)"
                            % (name, v, low, "" if high is None else high))
    return v


def ptr(ctype, arr):
    """A cffi pointer to arr's data (arr must be C-contiguous and alive)."""
    return ffi.cast(ctype, ffi.from_buffer(arr))
