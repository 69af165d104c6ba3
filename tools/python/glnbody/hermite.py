"""Hermite block-step runs (Makino & Aarseth 1992) in REBOUND's manner."""
import numpy as np

from . import _arrays
from ._errors import ArgumentError, call
from ._handles import Forces, Handle, _text
from ._lib import ffi, lib, libc as lib_c
from ._render import Renderer, panels

T_MAX = 8192.0


def _params(eta, eps, dt_max, shared_dt, predict_on_device, positions="float"):
    par = ffi.new("struct nb_hermite_params *")
    lib.nb_hermite_params_default(par)
    if eta is not None:
        par.eta = _arrays.number("eta", eta, positive=True)
    if eps is not None:
        par.eps = _arrays.number("eps", eps, low=0.0)
    if dt_max is not None:
        par.dt_max = _arrays.number("dt_max", dt_max, positive=True)
    par.shared_dt = 1 if shared_dt else 0
    par.predict_on_device = _arrays.integer("predict_on_device", predict_on_device, 0, 2)
    if not isinstance(positions, str):
        raise ArgumentError("positions: %r is not 'ds' or 'float'" % (positions,))
    fmt = ffi.new("enum nb_positions *")
    call(lib.nb_positions_parse, b"positions", positions.encode(), fmt)
    par.positions = fmt[0]
    return par


class Hermite(Handle):
    """A collisional N-body run: fourth-order Hermite with block time steps.

    Hermite(m, x, v, eps=0.01, eta=0.02, dt_max=0.125, shared_dt=False,
            backend="compute", precision="A", variant=None,
            predict_on_device=0, context=None, positions="float")

    m (N,), x and v (N, 3) at time 0, in G = 1 units.  The run has a
    force engine of its own on context (the shared default context when
    None; none for backend "cpu").  positions "ds" keeps positions and
    velocities double-single in the GAJ kernel (precision A), as `glnbody
    run --positions ds`."""

    def __init__(self, m, x, v, eps=None, eta=None, dt_max=None, shared_dt=False,
                 backend="compute", precision="A", variant=None, predict_on_device=0,
                 context=None, _make=None, positions="float"):
        super().__init__()
        self._h = ffi.NULL
        self._render = None
        self.forces = None
        par = _params(eta, eps, dt_max, shared_dt, predict_on_device, positions)
        if _make is None:
            x = _arrays.vectors("x", x)
            n = x.shape[0]
            v = _arrays.vectors("v", v, n)
            m = _arrays.scalars("m", m, n, positive=True)
        self.forces = Forces(backend, precision, variant, context)
        self.forces._adopt(self)
        h = ffi.new("struct nb_hermite **")
        try:
            if _make is None:
                call(lib.nb_hermite_create, h, self.forces._f, n,
                     ffi.from_buffer("double[]", m), ffi.from_buffer("double[]", x),
                     ffi.from_buffer("double[]", v), par)
            else:
                _make(h, self.forces._f, par)
        except Exception:
            self.forces.close()
            raise
        self._h = h[0]
        self.n = lib.nb_hermite_particles(self._h).n
        # E0, the reference of energy errors and of a checkpoint's resume-e0.
        self.e0 = _saved_e0(_make.path) if getattr(_make, "path", None) else None
        if self.e0 is None:
            self.e0 = self.energy()

    @classmethod
    def plummer(cls, n, seed=1, **kw):
        """An equal-mass Plummer sphere of n >= 2 bodies in Henon units
        (E = -1/4), drawn with seed, as `glnbody run --n N --seed S`."""
        n = _arrays.integer("n", n, low=2, high=2**32 - 1)
        seed = _arrays.integer("seed", seed, low=0, high=2**63 - 1)
        return cls(None, None, None, _make=lambda h, f, par: call(
            lib.nb_hermite_create_plummer, h, f, n, seed, par), **kw)

    @classmethod
    def restore(cls, path, backend="compute", precision="A", variant=None,
                predict_on_device=-1, context=None):
        """The run saved in path (by checkpoint() or `glnbody run
        --checkpoint`), continued on backend: on the saved engine, variant
        and mode every later step is the one the saved run would take."""
        path = _path("path", path)
        pod = _arrays.integer("predict_on_device", predict_on_device, -1, 2)

        def make(h, f, par):
            call(lib.nb_hermite_restore, h, f, path, pod)
        make.path = path
        return cls(None, None, None, backend=backend, precision=precision, variant=variant,
                   context=context, _make=make)

    def _release(self):
        if self._h != ffi.NULL:
            lib.nb_hermite_destroy(self._h)
            self._h = ffi.NULL
        if self.forces is not None:
            self.forces.close()

    # ---- stepping and state ----

    def evolve(self, t):
        """Block steps up to time t (>= sim.t, below 8192); the state then
        reads as of t (each particle predicted in double)."""
        self._need_open()
        t = _arrays.number("t", t)
        call(lib.nb_hermite_integrate, self._h, t)

    @property
    def t(self):
        self._need_open()
        return lib.nb_hermite_time(self._h)

    def _state(self):
        self._need_open()
        x = np.empty((self.n, 3))
        v = np.empty((self.n, 3))
        call(lib.nb_hermite_state, self._h, ffi.from_buffer("double[]", x),
             ffi.from_buffer("double[]", v))
        return x, v

    @property
    def x(self):
        """Positions (N, 3) at sim.t (a copy)."""
        return self._state()[0]

    @property
    def v(self):
        """Velocities (N, 3) at sim.t (a copy)."""
        return self._state()[1]

    @property
    def m(self):
        self._need_open()
        p = lib.nb_hermite_particles(self._h)
        return np.frombuffer(ffi.buffer(p.m, 8 * self.n), dtype=np.float64).copy()

    @property
    def params(self):
        """{"eta", "eps", "dt_max", "shared_dt", "predict_on_device",
        "positions"} in use."""
        self._need_open()
        par = ffi.new("struct nb_hermite_params *")
        lib.nb_hermite_get_params(self._h, par)
        return {"eta": par.eta, "eps": par.eps, "dt_max": par.dt_max,
                "shared_dt": bool(par.shared_dt), "predict_on_device": par.predict_on_device,
                "positions": _text(lib.nb_positions_name(par.positions))}

    def energies(self):
        """(kinetic, potential) at sim.t; the potential in double, as
        `glnbody run` reports it."""
        self._need_open()
        k = ffi.new("double *")
        w = ffi.new("double *")
        call(lib.nb_hermite_energy, self._h, k, w)
        return k[0], w[0]

    def energy(self):
        """The total energy at sim.t."""
        k, w = self.energies()
        return k + w

    def stats(self):
        """Block and particle steps, and the time split of Portegies Zwart
        et al. 2007 eq. 10: t_host, t_force, t_comm (t_reduce)."""
        self._need_open()
        st = ffi.new("struct nb_hermite_stats *")
        lib.nb_hermite_stats(self._h, st)
        return {"block_steps": st.block_steps, "particle_steps": st.particle_steps,
                "t_host": st.t_host, "t_force": st.t_force, "t_comm": st.t_comm,
                "t_reduce": st.t_reduce}

    @property
    def renderer(self):
        return self.forces.renderer

    # ---- checkpoints ----

    def checkpoint(self, path):
        """Saves the whole run to path, in the format of `glnbody run
        --checkpoint` (written whole or not at all); `glnbody run --restart
        PATH --t-end T` continues it, and so does Hermite.restore."""
        self._need_open()
        path = _path("path", path)
        app = _app_text(self)
        call(lib.nb_hermite_checkpoint, self._h, path, app, len(app))

    # ---- pictures ----

    def render(self, width=640, height=480, color="speed", **camera):
        """The run drawn by the library's renderer at its last block step:
        an RGB uint8 array (height, width, 3).  color "speed" or "type";
        camera: distance, azimuth, elevation, fov, center, point_size,
        brightness."""
        self._need_open()
        r = self._renderer(width, height, color, camera)
        return r.draw(lambda err: lib.nb_render_draw_hermite(r._r, self._h, err))

    def inspect(self, width=640, height=480, color="speed", **camera):
        """The texture inspector: the frame with the engine's last force
        pass as it lies on the GPU drawn over its right side, and the text
        naming the panels.  Returns (image, text)."""
        self.render(width, height, color, **camera)
        r = self._render
        return r.inspect(lambda text, size, err: lib.nb_render_inspect_hermite(
            r._r, self._h, text, size, err))

    def targets(self):
        """The inspector's panels as numbers: the render targets (fragment)
        or output buffers (compute) of the last force pass, read back as
        they lie on the GPU (see _render.panels); [] for the CPU engine."""
        self._need_open()
        return panels(lib.nb_hermite_inspect_panel, self._h)

    def _renderer(self, width, height, color, camera):
        if self.forces.context is None:
            raise ArgumentError("render: the cpu backend has no GL context; make the "
                                "run on compute or fragment")
        if self._render is None or self._render.closed:
            self._render = Renderer(self.forces.context, width, height, color, camera)
            self._adopt(self._render)
        else:
            self._render.configure(width, height, color, camera)
        return self._render


def _path(name, path):
    import os
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise ArgumentError("%s: %r is not a path" % (name, path))
    p = os.fsencode(path)
    if not p or b"\0" in p:
        raise ArgumentError("%s: an empty path or one with a NUL byte" % name)
    return p


def _saved_e0(path):
    """The program's resume-e0 of the checkpoint at path, or None."""
    app = ffi.new("char **")
    size = ffi.new("size_t *")
    call(lib.nb_checkpoint_app, path, lib.NB_CHECKPOINT_HERMITE, app, size, ffi.NULL)
    try:
        text = ffi.string(app[0], size[0]).decode("utf-8", "replace")
    finally:
        lib_c.free(app[0])
    for line in text.split("\n"):
        if line.startswith("resume-e0="):
            try:
                return float.fromhex(line[len("resume-e0="):])
            except ValueError:
                return None
    return None


def _hex(x):
    """%a as C prints it."""
    return "0x0p+0" if x == 0 and str(x)[0] != "-" else float(x).hex()


def _app_text(sim):
    """The program's section of a checkpoint (`name=value` lines, reals in
    %a): what `glnbody run --restart` needs to continue the run."""
    par = sim.params
    # The options as if typed: a restart takes each one not given again.
    typed = [("t-end", repr(sim.t)), ("eta", repr(par["eta"])),
             ("softening", repr(par["eps"])), ("dt-max", repr(par["dt_max"])),
             ("backend", sim.forces.backend)]
    if sim.forces.variant_asked:
        typed.append(("variant", sim.forces.variant_asked))
    typed += [("predict", "gpu" if par["predict_on_device"] else "host"),
              ("correct", "gpu" if par["predict_on_device"] == 2 else "host"),
              ("precision", sim.forces.precision_name)]
    if par["positions"] != "float":
        typed.append(("positions", par["positions"]))
    lines = typed + [("glnbody", _text(lib.nb_version())),
             ("shared-dt", "1" if par["shared_dt"] else "0"),
             ("input", "python"),
             ("backend-run", sim.forces.backend),
             ("variant-run", sim.forces.variant),
             ("precision-run", sim.forces.precision_name),
             ("positions-run", par["positions"]),
             ("predict-run", "gpu" if par["predict_on_device"] else "host"),
             ("correct-run", "gpu" if par["predict_on_device"] == 2 else "host"),
             ("renderer", sim.forces.renderer),
             ("t", _hex(sim.t)), ("eta-value", _hex(par["eta"])),
             ("eps-value", _hex(par["eps"])), ("dt-max-value", _hex(par["dt_max"])),
             ("resume-e0", _hex(sim.e0)), ("resume-log-k", "0"), ("resume-snap-k", "0"),
             ("resume-log-bytes", "-1")]
    return "".join("%s=%s\n" % kv for kv in lines).encode()
