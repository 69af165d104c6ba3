"""glnbody: direct N-body and molecular dynamics forces on any OpenGL GPU,
from Python, with numpy arrays in and out.

    import glnbody
    sim = glnbody.Hermite.plummer(1024, seed=1, backend="compute")
    e0 = sim.energy()
    sim.evolve(1.0)
    print((sim.energy() - e0) / abs(e0))

The package calls libglnbody through cffi's ABI mode; see
tools/docs/python.md."""
from ._lib import lib as _clib, ffi as _ffi, path as library_path
from ._errors import (Error, ArgumentError, GLError, IOError, NumericError,
                      MemoryError_ as OutOfMemoryError)
from ._handles import Context, Forces, default_context, forces
from .hermite import Hermite
from .md import MD, DumpWriter, read_lammps_dump, read_extxyz
from .report import bench, read_report, Report
from .snapshot import read_snapshot, write_snapshot

__version__ = _ffi.string(_clib.nb_version()).decode()

__all__ = ["Error", "ArgumentError", "GLError", "IOError", "NumericError",
           "OutOfMemoryError", "Context", "Forces", "default_context", "forces", "Hermite",
           "MD", "DumpWriter", "read_lammps_dump", "read_extxyz", "bench", "read_report",
           "Report", "read_snapshot", "write_snapshot", "library_path", "__version__"]
