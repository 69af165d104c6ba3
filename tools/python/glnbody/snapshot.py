"""Text snapshots (`id m x y z vx vy vz`), as `glnbody run --input/--output`."""
import numpy as np

from . import _arrays
from ._errors import call
from ._lib import ffi, lib
from .hermite import _path


def read_snapshot(path):
    """{"id", "m", "x", "v"} (and "type", "q" where the file has them);
    errors name file:line:column."""
    p = ffi.new("struct nb_particles *")
    call(lib.nb_snapshot_read, _path("path", path), p)
    try:
        n = p.n
        out = {"id": np.frombuffer(ffi.buffer(p.id, 8 * n), dtype=np.int64).copy(),
               "m": np.frombuffer(ffi.buffer(p.m, 8 * n)).copy(),
               "x": np.frombuffer(ffi.buffer(p.x, 24 * n)).reshape(n, 3).copy(),
               "v": np.frombuffer(ffi.buffer(p.v, 24 * n)).reshape(n, 3).copy()}
        if p.type != ffi.NULL:
            out["type"] = np.frombuffer(ffi.buffer(p.type, ffi.sizeof("int") * n),
                                        dtype=np.intc).copy()
        if p.q != ffi.NULL:
            out["q"] = np.frombuffer(ffi.buffer(p.q, 8 * n)).copy()
    finally:
        lib.nb_particles_free(p)
    return out


def write_snapshot(path, m, x, v, ids=None, comment=None):
    """Writes the particles (%.17g: read back exactly), whole or not at all."""
    x = _arrays.vectors("x", x)
    n = x.shape[0]
    v = _arrays.vectors("v", v, n)
    m = _arrays.scalars("m", m, n)
    ids = _arrays.scalars("ids", np.arange(n) if ids is None else ids, n, dtype=np.int64)
    p = ffi.new("struct nb_particles *")
    p.n = n
    p.id = ffi.from_buffer("int64_t[]", ids)
    p.m = ffi.from_buffer("double[]", m)
    p.x = ffi.from_buffer("double[]", x)
    p.v = ffi.from_buffer("double[]", v)
    call(lib.nb_snapshot_write, _path("path", path), p,
         comment.encode() if comment else ffi.NULL)
