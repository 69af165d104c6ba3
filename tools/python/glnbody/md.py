"""Molecular dynamics (struct nb_md): velocity Verlet in reduced LJ units."""
import numpy as np

from . import _arrays
from ._errors import ArgumentError, call
from ._handles import Handle, context_for, engine, precision as _precision, _text
from ._lib import ffi, lib
from ._render import Renderer, panels
from .hermite import _path


def _box(box, periodic=(True, True, True)):
    """A struct nb_md_box from L (the cube [0, L)^3), (lo, hi) or a (2, 3)
    array, periodic along the axes where periodic says so."""
    b = ffi.new("struct nb_md_box *")
    arr = np.asarray(box, dtype=object)
    if arr.ndim == 0:
        side = _arrays.number("box", box, positive=True)
        lo, hi = np.zeros(3), np.full(3, side)
    else:
        try:
            lo = _arrays.scalars("box lo", box[0], 3)
            hi = _arrays.scalars("box hi", box[1], 3)
        except (TypeError, IndexError, KeyError):
            raise ArgumentError("box: give L, or (lo, hi) with three values each") from None
        if len(box) != 2:
            raise ArgumentError("box: give L, or (lo, hi) with three values each")
    per = list(periodic) if not isinstance(periodic, bool) else [periodic] * 3
    if len(per) != 3:
        raise ArgumentError("periodic: give three flags, one an axis")
    b.lo = list(lo)
    b.hi = list(hi)
    b.periodic = [1 if p else 0 for p in per]
    return b


def _box_out(b):
    return {"lo": np.array(list(b.lo)), "hi": np.array(list(b.hi)),
            "periodic": tuple(bool(p) for p in b.periodic)}


def _law(potential):
    if not isinstance(potential, str):
        raise ArgumentError("potential: %r is not a law name" % (potential,))
    law = ffi.new("enum nb_md_law *")
    call(lib.nb_md_law_parse, potential.encode(), law)
    return law[0]


class MD(Handle):
    """A molecular dynamics system stepped by velocity Verlet.

    MD(types, x, v, box, potential="lj", cutoff=2.5, shift=True, dt=0.005,
       ntypes=None, coeffs=None, periodic=True, cell_list=None,
       backend="compute", precision="A", context=None)

    types (N,) from 1, x and v (N, 3); box L, or (lo, hi).  Masses come
    from the type table (1 each, or the coefficient file coeffs)."""

    def __init__(self, types, x, v, box, potential="lj", cutoff=2.5, shift=True, dt=0.005,
                 ntypes=None, coeffs=None, periodic=True, cell_list=None,
                 backend="compute", precision="A", context=None, _fcc=None):
        super().__init__()
        self._md = ffi.NULL
        self._render = None
        par = ffi.new("struct nb_md_params *")
        lib.nb_md_params_default(par)
        par.law = _law(potential)
        par.cutoff = _arrays.number("cutoff", cutoff, low=0.0)
        par.shift = 1 if shift else 0
        par.dt = _arrays.number("dt", dt, positive=True)
        par.precision = _precision(precision)
        par.cell_list = -1 if cell_list is None else (1 if cell_list else 0)
        self._coeffs = None
        if coeffs is not None:
            self._coeffs = ffi.new("char[]", _path("coeffs", coeffs))
            par.coeffs = self._coeffs
        eng = engine(backend)
        if _fcc is None:
            x = _arrays.vectors("x", x)
            n = x.shape[0]
            v = _arrays.vectors("v", v, n)
            types = _arrays.scalars("types", types, n, dtype=np.intc)
            if (types < 1).any():
                raise ArgumentError("types: numbered from 1 (as LAMMPS): %d found"
                                    % types.min())
            par.types = _arrays.integer("ntypes", ntypes if ntypes is not None
                                        else int(types.max()), 1, 16)
            b = _box(box, periodic)
            par.lo, par.hi, par.periodic = b.lo, b.hi, b.periodic
            self.box = _box_out(b)
        else:
            par.types = _arrays.integer("ntypes", ntypes or 1, 1, 16)
        self.context = context_for(backend, context)
        gl = self.context._gl if self.context else ffi.NULL
        md = ffi.new("struct nb_md **")
        if _fcc is None:
            call(lib.nb_md_create, md, gl, eng, n, ffi.from_buffer("int[]", types),
                 ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", v), par)
            self.types = types.copy()
        else:
            cells, rho, temp, seed = _fcc
            p = ffi.new("struct nb_particles *")
            b = ffi.new("struct nb_md_box *")
            call(lib.nb_md_fcc, p, b, cells, rho, temp, seed)
            lib.nb_particles_free(p)
            self.box = _box_out(b)
            call(lib.nb_md_create_fcc, md, gl, eng, cells, rho, temp, seed, par)
        self._md = md[0]
        if self.context:
            self.context._adopt(self)
        self.n = lib.nb_md_count(self._md)
        if _fcc is not None:
            self.types = np.ones(self.n, dtype=np.intc)
        self.masses = _masses(par, self.types)
        self.backend = backend

    @classmethod
    def fcc(cls, cells, density, temperature, potential="lj", cutoff=2.5, shift=True,
            seed=1, **kw):
        """cells^3 fcc unit cells (4 atoms each) at number density and
        temperature, type 1, mass 1, periodic box [0, L)^3, zero momentum."""
        cells = _arrays.integer("cells", cells, low=1, high=1000)
        rho = _arrays.number("density", density, positive=True)
        temp = _arrays.number("temperature", temperature, low=0.0)
        seed = _arrays.integer("seed", seed, low=0, high=2**63 - 1)
        return cls(None, None, None, None, potential=potential, cutoff=cutoff, shift=shift,
                   _fcc=(cells, rho, temp, seed), **kw)

    def _release(self):
        if self._md != ffi.NULL:
            lib.nb_md_destroy(self._md)
            self._md = ffi.NULL

    def step(self, count=1):
        """Advances count velocity-Verlet steps."""
        self._need_open()
        count = _arrays.integer("count", count, low=0, high=2**63 - 1)
        call(lib.nb_md_step, self._md, count)

    @property
    def step_count(self):
        self._need_open()
        return lib.nb_md_step_count(self._md)

    def thermo(self):
        """{"step", "time", "temp", "pe", "ke", "etotal", "press", "p", "l",
        "com"} as LAMMPS reports them (totals; p, l, com: 3 each)."""
        self._need_open()
        th = ffi.new("struct nb_md_thermo *")
        call(lib.nb_md_get_thermo, self._md, th)
        out = {k: getattr(th, k) for k in ("step", "time", "temp", "pe", "ke", "etotal",
                                          "press")}
        for k in ("p", "l", "com"):
            out[k] = np.array(list(getattr(th, k)))
        return out

    def _state(self):
        self._need_open()
        x = np.empty((self.n, 3))
        v = np.empty((self.n, 3))
        call(lib.nb_md_get_state, self._md, ffi.from_buffer("double[]", x),
             ffi.from_buffer("double[]", v))
        return x, v

    @property
    def x(self):
        """Positions (N, 3), wrapped into the box (a copy)."""
        return self._state()[0]

    @property
    def v(self):
        return self._state()[1]

    @property
    def uses_cell_lists(self):
        self._need_open()
        return bool(lib.nb_md_uses_cell_lists(self._md))

    @property
    def renderer(self):
        self._need_open()
        return _text(lib.nb_md_renderer(self._md))

    def write(self, path, format="lammps"):
        """The system now, as one LAMMPS dump timestep ("lammps") or one
        extended XYZ frame ("extxyz"), written whole or not at all."""
        x, v = self._state()
        with DumpWriter(path, format) as w:
            w.write(x, v, self.types, self.masses, self.box,
                    step=self.step_count, time=self.thermo()["time"])

    def render(self, width=640, height=480, color="speed", **camera):
        """The system drawn by the library's renderer: RGB uint8 (height,
        width, 3).  color "speed", "potential" or "type"."""
        self._need_open()
        if self.context is None:
            raise ArgumentError("render: the cpu backend has no GL context; make the "
                                "system on compute or fragment")
        if self._render is None or self._render.closed:
            self._render = Renderer(self.context, width, height, color, camera)
            self._adopt(self._render)
        else:
            self._render.configure(width, height, color, camera)
        r = self._render
        return r.draw(lambda err: lib.nb_render_draw_md(r._r, self._md, err))

    def targets(self):
        """The inspector's panels as numbers (see Hermite.targets)."""
        self._need_open()
        return panels(lib.nb_md_inspect_panel, self._md)

    def inspect(self, width=640, height=480, color="speed", **camera):
        """The texture inspector over a frame: (image, text)."""
        self.render(width, height, color, **camera)
        r = self._render
        return r.inspect(lambda text, size, err: lib.nb_render_inspect_md(
            r._r, self._md, text, size, err))


def _masses(par, types):
    pot = ffi.new("struct nb_md_potential *")
    lib.nb_md_potential_default(pot, par.law, par.types)
    if par.coeffs != ffi.NULL:
        call(lib.nb_md_types_read, par.coeffs, pot)
    elif par.law == lib.NB_LAW_IONIC and par.types == 2:
        lib.nb_md_ionic_default(pot)
    table = np.array(list(pot.types.mass))
    return table[types - 1]


# ---- files ------------------------------------------------------------------

class DumpWriter:
    """Frames into one file, LAMMPS dump ("lammps") or extended XYZ
    ("extxyz"), as the library writes them; the file appears whole at
    close() (a `with` block that raises leaves none)."""

    def __init__(self, path, format="lammps"):
        if format not in ("lammps", "extxyz"):
            raise ArgumentError("format: %r; give \"lammps\" or \"extxyz\"" % (format,))
        self.format = format
        self._f = ffi.new("struct nb_outfile *")
        self._open = False
        call(lib.nb_outfile_open, self._f, _path("path", path))
        self._open = True

    def write(self, x, v, types, masses, box, step=0, time=0.0, ids=None):
        if not self._open:
            raise ArgumentError("DumpWriter is closed")
        x = _arrays.vectors("x", x)
        n = x.shape[0]
        v = _arrays.vectors("v", v, n)
        types = _arrays.scalars("types", types, n, dtype=np.intc)
        masses = _arrays.scalars("masses", masses, n, positive=True)
        ids = _arrays.scalars("ids", np.arange(1, n + 1) if ids is None else ids, n,
                              dtype=np.int64)
        if isinstance(box, dict):
            b = _box((box["lo"], box["hi"]), box.get("periodic", True))
        else:
            b = _box(box)
        p = ffi.new("struct nb_particles *")
        p.n = n
        p.id = ffi.from_buffer("int64_t[]", ids)
        p.type = ffi.from_buffer("int[]", types)
        p.m = ffi.from_buffer("double[]", masses)
        p.x = ffi.from_buffer("double[]", x)
        p.v = ffi.from_buffer("double[]", v)
        if self.format == "lammps":
            call(lib.nb_lammps_dump_write, self._f.fp,
                 _arrays.integer("step", step, 0, 2**64 - 1), p, b)
        else:
            call(lib.nb_extxyz_write, self._f.fp, _arrays.number("time", time), p, b)

    def close(self):
        if self._open:
            self._open = False
            call(lib.nb_outfile_commit, self._f)

    def abort(self):
        if self._open:
            self._open = False
            lib.nb_outfile_abort(self._f)

    def __enter__(self):
        return self

    def __exit__(self, kind, *rest):
        if kind is None:
            self.close()
        else:
            self.abort()
        return False

    def __del__(self):
        self.abort()


def read_lammps_dump(path, ntypes=16):
    """The first timestep of a LAMMPS `write_dump ... custom` text:
    {"id", "type", "mass", "x", "v", "box"} (masses from a mass column, else
    1 per type).  Errors name file:line:column."""
    p = ffi.new("struct nb_particles *")
    b = ffi.new("struct nb_md_box *")
    pot = ffi.new("struct nb_md_potential *")
    lib.nb_md_potential_default(pot, lib.NB_LAW_LJ, _arrays.integer("ntypes", ntypes, 1, 16))
    call(lib.nb_lammps_dump_read, _path("path", path), p, b, pot)
    try:
        n = p.n
        out = {"id": np.frombuffer(ffi.buffer(p.id, 8 * n), dtype=np.int64).copy(),
               "type": np.frombuffer(ffi.buffer(p.type, ffi.sizeof("int") * n),
                                     dtype=np.intc).copy(),
               "mass": np.frombuffer(ffi.buffer(p.m, 8 * n), dtype=np.float64).copy(),
               "x": np.frombuffer(ffi.buffer(p.x, 24 * n)).reshape(n, 3).copy(),
               "v": np.frombuffer(ffi.buffer(p.v, 24 * n)).reshape(n, 3).copy(),
               "box": _box_out(b)}
    finally:
        lib.nb_particles_free(p)
    return out


def read_extxyz(path):
    """The frames of an extended XYZ file as the library writes it
    (species:S:1:pos:R:3:velo:R:3:Z:I:1, an orthogonal Lattice, Origin,
    pbc, Time): a list of {"type", "x", "v", "box", "time"}.  An
    ArgumentError names the line of anything else."""
    from ._errors import IOError as NbIOError
    name = _path("path", path).decode(errors="replace")
    try:
        with open(path) as fp:
            lines = fp.read().split("\n")
    except OSError as e:
        raise NbIOError("%s: %s" % (name, e.strerror), "NB_ERR_IO") from None
    frames, k = [], 0
    while k < len(lines) and lines[k].strip():
        frame, k = _xyz_frame(name, lines, k)
        frames.append(frame)
    if not frames:
        raise NbIOError("%s:1:1: no extended XYZ frame" % name, "NB_ERR_PARSE")
    return frames


def _xyz_frame(name, lines, k):
    import shlex
    from ._errors import IOError as NbIOError

    def bad(line, what):
        raise NbIOError("%s:%d:1: %s" % (name, line + 1, what), "NB_ERR_PARSE")
    try:
        n = int(lines[k])
    except ValueError:
        bad(k, "expected the atom count")
    if k + 1 + n >= len(lines) + 1 or n < 1:
        bad(k, "a frame of %d atoms is cut short" % n)
    try:
        keys = dict(item.split("=", 1) for item in shlex.split(lines[k + 1]))
        if keys.get("Properties") != "species:S:1:pos:R:3:velo:R:3:Z:I:1":
            bad(k + 1, "Properties is not species:S:1:pos:R:3:velo:R:3:Z:I:1")
        lattice = np.array(keys["Lattice"].split(), dtype=float).reshape(3, 3)
        lo = np.array(keys["Origin"].split(), dtype=float)
        pbc = tuple(f == "T" for f in keys["pbc"].split())
        time = float(keys.get("Time", "0"))
    except (ValueError, KeyError) as e:
        bad(k + 1, "a bad comment line (%s)" % e)
    rows = [lines[k + 2 + i].split() for i in range(n)]
    try:
        data = np.array([r[1:7] for r in rows], dtype=float)
        types = np.array([int(r[7]) for r in rows], dtype=np.intc)
        if any(len(r) != 8 for r in rows):
            raise ValueError("8 columns expected")
    except (ValueError, IndexError) as e:
        bad(k + 2, "a bad atom line (%s)" % e)
    box = {"lo": lo, "hi": lo + np.diag(lattice), "periodic": pbc}
    return ({"type": types, "x": data[:, :3].copy(), "v": data[:, 3:].copy(),
             "box": box, "time": time}, k + 2 + n)
