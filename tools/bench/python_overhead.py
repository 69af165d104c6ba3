"""The Python side of tools/bench/python_overhead.sh.

  calls    per-call overhead of cffi (ABI mode) and ctypes on the same
           library functions: a trivial one and nb_forces_ga on 2 bodies;
  forces   glnbody.forces on the random cube of N as the C program times it;
  evolve   Hermite.plummer(N) + evolve(T) + energy, the work `glnbody run`
           reports as its wall time.
Each prints CSV rows: what,engine,n,median_s,min_s."""
import ctypes
import sys
import timeit

import numpy as np

import glnbody
from glnbody._lib import ffi, lib, path


def calls(reps):
    c = ctypes.CDLL(path)
    c.nb_hermite_time.restype = ctypes.c_double
    c.nb_hermite_time.argtypes = [ctypes.c_void_p]
    t_cffi = min(timeit.repeat(lambda: lib.nb_hermite_time(ffi.NULL), number=reps, repeat=5))
    t_ct = min(timeit.repeat(lambda: c.nb_hermite_time(None), number=reps, repeat=5))
    print("call_trivial_cffi,-,0,%.9f,%.9f" % (t_cffi / reps, t_cffi / reps))
    print("call_trivial_ctypes,-,0,%.9f,%.9f" % (t_ct / reps, t_ct / reps))
    # nb_forces_ga on 2 bodies: six pointer and size arguments.
    f = glnbody.Forces("cpu")
    x = np.array([[0.0, 0, 0], [1, 0, 0]])
    m = np.array([0.5, 0.5])
    acc, pot = np.empty((2, 3)), np.empty(2)
    err = ffi.new("struct nb_error *")

    def via_cffi():
        lib.nb_forces_ga(f._f, 2, ffi.from_buffer("double[]", x),
                         ffi.from_buffer("double[]", m), 0.01,
                         ffi.from_buffer("double[]", acc), ffi.from_buffer("double[]", pot),
                         err)
    dp = ctypes.POINTER(ctypes.c_double)
    c.nb_forces_ga.argtypes = [ctypes.c_void_p, ctypes.c_size_t, dp, dp, ctypes.c_double,
                               dp, dp, ctypes.c_void_p]
    c.nb_forces_ga.restype = ctypes.c_int
    fptr = int(ffi.cast("uintptr_t", f._f))
    eptr = int(ffi.cast("uintptr_t", err))

    def via_ctypes():
        c.nb_forces_ga(fptr, 2, x.ctypes.data_as(dp), m.ctypes.data_as(dp), 0.01,
                       acc.ctypes.data_as(dp), pot.ctypes.data_as(dp), eptr)
    for name, fn in (("cffi", via_cffi), ("ctypes", via_ctypes)):
        t = min(timeit.repeat(fn, number=reps // 100, repeat=5)) / (reps // 100)
        print("call_ga2_%s,cpu,2,%.9f,%.9f" % (name, t, t))
    # The package's own path: checks, copies only where needed, exceptions.
    t = min(timeit.repeat(lambda: f.ga(x, m, 0.01), number=reps // 100,
                          repeat=5)) / (reps // 100)
    print("call_ga2_package,cpu,2,%.9f,%.9f" % (t, t))
    f.close()


def cube(n):
    p = ffi.new("struct nb_particles *")
    err = ffi.new("struct nb_error *")
    assert lib.nb_particles_random_cube(p, n, 1, err) == 0
    x = np.frombuffer(ffi.buffer(p.x, 24 * n)).reshape(n, 3).copy()
    m = np.frombuffer(ffi.buffer(p.m, 8 * n)).copy()
    lib.nb_particles_free(p)
    return x, m


def forces(engine, n, runs, warmup):
    x, m = cube(n)
    f = glnbody.Forces(engine)
    t = []
    for k in range(-warmup, runs):
        t0 = lib.nb_clock_seconds()
        f.ga(x, m, 0.01)
        if k >= 0:
            t.append(lib.nb_clock_seconds() - t0)
    print("forces_python,%s,%d,%.9f,%.9f" % (engine, n, np.median(t), min(t)))


def evolve(engine, n, t_end):
    t0 = lib.nb_clock_seconds()
    with glnbody.Hermite.plummer(n, seed=1, backend=engine) as sim:
        sim.evolve(t_end)
        sim.energy()
    s = lib.nb_clock_seconds() - t0
    print("evolve_python,%s,%d,%.9f,%.9f" % (engine, n, s, s))


what = sys.argv[1]
if what == "calls":
    calls(int(sys.argv[2]))
elif what == "forces":
    forces(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
else:
    evolve(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
