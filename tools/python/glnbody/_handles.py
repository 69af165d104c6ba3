"""GL contexts and force engines, and the lifetime rules of handles.

Every handle is destroyed once: by close(), at the end of a `with` block,
or when its object goes.  A handle made on a context is closed before the
context (the library's rule), so a context's close() closes what was made
on it first."""
import atexit
import threading
import weakref

import numpy as np

from . import _arrays
from ._errors import ArgumentError, call, check, new_error
from ._lib import ffi, lib


def _text(s):
    return ffi.string(s).decode("utf-8", "replace") if s != ffi.NULL else ""


class Handle:
    """Something holding a library handle: closed once, children first."""

    def __init__(self):
        self._children = weakref.WeakSet()
        self._closed = False

    def _adopt(self, child):
        if self._closed:
            raise ArgumentError("%s is closed" % type(self).__name__)
        self._children.add(child)

    def _release(self):     # the library's destroy call of this handle
        pass

    def close(self):
        """Frees the library's handle now (and those made on it first)."""
        if self._closed:
            return
        for child in list(self._children):
            child.close()
        self._closed = True
        self._release()

    @property
    def closed(self):
        return self._closed

    def _need_open(self):
        if self._closed:
            raise ArgumentError("%s is closed" % type(self).__name__)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Context(Handle):
    """A headless GL context (EGL) for the compute and fragment engines.

    Context(device=-1, api="auto", shaders="auto", version=None)
      device  -- EGL device index, -1 for the first;
      api     -- "auto", "gl" or "gles";
      shaders -- "auto", "spirv" or "glsl";
      version -- (major, minor) to use exactly that level."""

    _APIS = {"auto": "NB_GL_API_AUTO", "gl": "NB_GL_API_GL", "gles": "NB_GL_API_GLES"}
    _SHADERS = {"auto": "NB_SHADERS_AUTO", "spirv": "NB_SHADERS_SPIRV",
                "glsl": "NB_SHADERS_GLSL"}

    def __init__(self, device=-1, api="auto", shaders="auto", version=None):
        super().__init__()
        self._gl = ffi.NULL
        self._forces_cache = {}
        opt = ffi.new("struct nb_gl_options *")
        lib.nb_gl_options_default(opt)
        opt.device = _arrays.integer("device", device, low=-1)
        if api not in self._APIS or shaders not in self._SHADERS:
            raise ArgumentError("Context: api must be one of %s and shaders one of %s"
                                % (sorted(self._APIS), sorted(self._SHADERS)))
        opt.api = getattr(lib, self._APIS[api])
        opt.shaders = getattr(lib, self._SHADERS[shaders])
        if version is not None:
            opt.version_major, opt.version_minor = (int(v) for v in version)
        gl = ffi.new("struct nb_gl **")
        call(lib.nb_gl_create, gl, opt)
        self._gl = gl[0]

    def _release(self):
        self._forces_cache = {}
        if self._gl != ffi.NULL:
            lib.nb_gl_destroy(self._gl)
            self._gl = ffi.NULL

    @property
    def renderer(self):
        """"GL_RENDERER, LEVEL (GL_VERSION)"."""
        self._need_open()
        return _text(lib.nb_gl_renderer(self._gl))


_default = None
_default_lock = threading.Lock()


def default_context():
    """The context shared by every object made without one (made on first
    use, closed at exit)."""
    global _default
    with _default_lock:
        if _default is None or _default.closed:
            _default = Context()
        return _default


@atexit.register
def _close_default():
    if _default is not None:
        _default.close()


def engine(name):
    """"cpu", "compute" or "fragment" to the library's engine number."""
    if not isinstance(name, str):
        raise ArgumentError("backend: %r is not a name (cpu, compute, fragment)" % (name,))
    e = ffi.new("enum nb_engine *")
    call(lib.nb_engine_parse, name.encode(), e)
    return e[0]


def precision(text):
    """"A".."H" to the library's mode."""
    if not isinstance(text, str):
        raise ArgumentError("precision: %r is not a mode (A..H)" % (text,))
    mode = ffi.new("enum nb_precision *")
    call(lib.nb_precision_parse, b"precision", text.encode(), mode)
    return mode[0]


def context_for(backend, context):
    """The context a backend's handle goes on: None for the CPU."""
    if not lib.nb_engine_needs_gl(engine(backend)):
        return None
    ctx = context if context is not None else default_context()
    ctx._need_open()
    return ctx


class Forces(Handle):
    """A force engine: Forces(backend="compute", precision="A", variant=None,
    context=None).  Its ga() and gaj() evaluate the gravitational forces."""

    def __init__(self, backend="compute", precision="A", variant=None, context=None):
        super().__init__()
        self._f = ffi.NULL
        eng = engine(backend)
        mode = globals()["precision"](precision)
        self.backend = backend
        self.precision_name = _text(lib.nb_precision_name(mode))
        self.variant_asked = variant
        self.context = context_for(backend, context)
        f = ffi.new("struct nb_forces **")
        call(lib.nb_forces_create, f, self.context._gl if self.context else ffi.NULL, eng)
        self._f = f[0]
        if self.context:
            self.context._adopt(self)
        if variant is not None:
            call(lib.nb_forces_set_variant, self._f, str(variant).encode())
        if mode != lib.NB_PRECISION_A:
            call(lib.nb_forces_set_precision, self._f, mode)

    def _release(self):
        if self._f != ffi.NULL:
            lib.nb_forces_destroy(self._f)
            self._f = ffi.NULL

    @property
    def renderer(self):
        self._need_open()
        return _text(lib.nb_forces_renderer(self._f))

    @property
    def variant(self):
        """The variant the last evaluation ran ("none" before any)."""
        self._need_open()
        return _text(lib.nb_forces_variant(self._f))

    @property
    def seconds(self):
        """Device seconds of the last evaluation."""
        self._need_open()
        return lib.nb_forces_seconds(self._f)

    def ga(self, x, m, eps):
        """Accelerations (N, 3) and potentials (N,) of particles at x with
        masses m, softened by eps."""
        self._need_open()
        x = _arrays.vectors("x", x)
        n = x.shape[0]
        m = _arrays.scalars("m", m, n)
        eps = _arrays.number("eps", eps, low=0.0)
        acc = np.empty((n, 3))
        pot = np.empty(n)
        err = new_error()
        check(lib.nb_forces_ga(self._f, n, ffi.from_buffer("double[]", x),
                               ffi.from_buffer("double[]", m), eps,
                               ffi.from_buffer("double[]", acc),
                               ffi.from_buffer("double[]", pot), err), err)
        return acc, pot

    def gaj(self, x, v, m, eps, active=None):
        """Accelerations, jerks (N, 3) and potentials (N,) of the particles
        whose indices are in active (all by default), from every other."""
        self._need_open()
        x = _arrays.vectors("x", x)
        n = x.shape[0]
        v = _arrays.vectors("v", v, n)
        m = _arrays.scalars("m", m, n)
        eps = _arrays.number("eps", eps, low=0.0)
        if active is None:
            idx = np.arange(n, dtype=np.uint32)
        else:
            idx = np.asarray(active)
            if idx.ndim != 1 or idx.dtype.kind not in "iu" or idx.size == 0:
                raise ArgumentError("active: give a non-empty 1-D array of indices")
            if (idx < 0).any() or (idx >= n).any() or (np.diff(idx) <= 0).any():
                raise ArgumentError("active: indices must be ascending and in 0..%d"
                                    % (n - 1))
            idx = np.ascontiguousarray(idx, dtype=np.uint32)
        k = idx.shape[0]
        acc = np.empty((k, 3))
        jerk = np.empty((k, 3))
        pot = np.empty(k)
        call(lib.nb_forces_set_j, self._f, n, ffi.from_buffer("double[]", x),
             ffi.from_buffer("double[]", v), ffi.from_buffer("double[]", m))
        call(lib.nb_forces_gaj, self._f, eps, k, ffi.from_buffer("uint32_t[]", idx),
             ffi.from_buffer("double[]", acc), ffi.from_buffer("double[]", jerk),
             ffi.from_buffer("double[]", pot))
        return acc, jerk, pot


_cache = {}
_cache_lock = threading.Lock()


def forces(x, m, eps, backend="compute", precision="A", kernel="ga", v=None,
           variant=None, context=None):
    """Gravitational forces of particles at x (N, 3) with masses m (N),
    softened by eps, on an engine kept between calls.

    kernel "ga": returns (acc, pot); "gaj" (needs v): (acc, jerk, pot).
    float64 or float32, contiguous or not: copied only where the library
    needs another layout (C-contiguous float64)."""
    if kernel not in ("ga", "gaj"):
        raise ArgumentError("kernel: %r; give \"ga\" or \"gaj\"" % (kernel,))
    if kernel == "gaj" and v is None:
        raise ArgumentError("kernel \"gaj\" needs the velocities v")
    ctx = context_for(backend, context)
    key = (backend, precision, variant)
    # The engines live in their context's cache (the CPU's in the module's),
    # so that they go when the context goes.
    cache = ctx._forces_cache if ctx is not None else _cache
    with _cache_lock:
        f = cache.get(key)
        if f is None or f.closed:
            f = Forces(backend, precision, variant, ctx)
            cache[key] = f
    if kernel == "ga":
        return f.ga(x, m, eps)
    return f.gaj(x, v, m, eps)
