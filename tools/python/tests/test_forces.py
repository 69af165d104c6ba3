"""glnbody.forces against the C library through the program, bit for bit."""
import numpy as np
import pytest

import glnbody
from conftest import clustered, run


def cli_forces(program, tmp_path, m, x, eps, backend, variant=None):
    snap = tmp_path / "in.txt"
    out = tmp_path / "forces.txt"
    glnbody.write_snapshot(snap, m, x, np.zeros_like(x))
    args = [program, "forces", "--input", str(snap), "--softening", repr(eps),
            "--backend", backend, "--output", str(out), "--quiet"]
    if variant:
        args += ["--variant", variant]
    run(args)
    rows = np.loadtxt(out, comments="#", ndmin=2)
    return rows[:, 1:4], rows[:, 4]


@pytest.mark.parametrize("n", [1, 2, 77])
def test_cpu_equals_program(program, tmp_path, n):
    m, x, _ = clustered(max(n, 2))
    m, x = m[:n], x[:n]
    acc, pot = glnbody.forces(x, m, 0.01, backend="cpu")
    ref_acc, ref_pot = cli_forces(program, tmp_path, m, x, 0.01, "cpu")
    assert np.array_equal(acc, ref_acc) and np.array_equal(pot, ref_pot)


@pytest.mark.parametrize("backend", ["compute", "fragment"])
def test_gpu_equals_program(program, gl, tmp_path, backend):
    m, x, _ = clustered(203)
    f = glnbody.Forces(backend, context=gl)
    f.ga(x, m, 0.01)            # "auto" picks a variant: fix it for both
    variant = f.variant
    acc, pot = glnbody.Forces(backend, variant=variant, context=gl).ga(x, m, 0.01)
    ref_acc, ref_pot = cli_forces(program, tmp_path, m, x, 0.01, backend, variant)
    # Mode A's results are floats, which the program prints with %.9g: exact
    # once read back as float32.
    as_float = lambda a: a.astype(np.float32).astype(np.float64)
    assert np.array_equal(acc, as_float(acc)) and np.array_equal(pot, as_float(pot))
    assert np.array_equal(acc, as_float(ref_acc)) and np.array_equal(pot, as_float(ref_pot))
    # Float sums of N terms: within N float roundings of the double reference.
    cpu_acc, cpu_pot = glnbody.forces(x, m, 0.01, backend="cpu")
    scale = np.abs(cpu_acc).max()
    assert np.abs(acc - cpu_acc).max() < 203 * 2**-23 * scale * 10


def test_layouts_give_the_same_forces():
    m, x, _ = clustered(64)
    acc, pot = glnbody.forces(x, m, 0.01, backend="cpu")
    wide = np.zeros((64, 6))
    wide[:, ::2] = x            # a strided view, not C-contiguous
    view = wide[:, ::2]
    assert not view.flags.c_contiguous
    a2, p2 = glnbody.forces(view, m, 0.01, backend="cpu")
    assert np.array_equal(acc, a2) and np.array_equal(pot, p2)
    fortran = np.asfortranarray(x)
    a3, _ = glnbody.forces(fortran, m, 0.01, backend="cpu")
    assert np.array_equal(acc, a3)
    x32, m32 = x.astype(np.float32), m.astype(np.float32)
    a4, _ = glnbody.forces(x32, m32, 0.01, backend="cpu")
    a5, _ = glnbody.forces(x32.astype(np.float64), m32.astype(np.float64), 0.01,
                           backend="cpu")
    assert np.array_equal(a4, a5)


def test_gaj_against_double_loop():
    m, x, v = clustered(33)
    acc, jerk, pot = glnbody.forces(x, m, 0.02, backend="cpu", kernel="gaj", v=v)
    eps2 = 0.02**2
    for i in (0, 1, 20):
        d = x - x[i]
        dv = v - v[i]
        r2 = (d * d).sum(1) + eps2
        r2[i] = np.inf
        rinv3 = r2**-1.5
        a = (m[:, None] * d * rinv3[:, None]).sum(0)
        rv = (d * dv).sum(1)
        j = (m[:, None] * (dv * rinv3[:, None] - 3 * (rv / r2)[:, None] * d *
                           rinv3[:, None])).sum(0)
        p = -(m / np.sqrt(r2)).sum()
        # Double sums of 32 terms: a few ulps of the terms' magnitudes.
        assert np.abs(acc[i] - a).max() < 1e-12 * np.abs(m[:, None] * d * rinv3[:, None]).sum()
        assert np.abs(jerk[i] - j).max() < 1e-11 * (np.abs(j).max() + 1)
        assert abs(pot[i] - p) < 1e-12 * abs(p)
