"""MD systems against `glnbody md`, bit for bit; dump and XYZ files."""
import numpy as np
import pytest

import glnbody
from conftest import run


def program_md(program, tmp_path, backend, steps):
    out = tmp_path / "final.txt"
    thermo = tmp_path / "thermo.csv"
    run([program, "md", "--ic", "fcc", "--cells", "3", "--density", "0.8442",
         "--temperature", "1", "--seed", "5", "--potential", "lj", "--cutoff", "2.5",
         "--shift", "--dt", "0.005", "--steps", str(steps), "--thermo-every", str(steps),
         "--thermo", str(thermo), "--backend", backend, "--output", str(out), "--quiet"])
    return np.loadtxt(out, comments="#", ndmin=2), np.genfromtxt(thermo, delimiter=",",
                                                                 names=True)


@pytest.mark.parametrize("backend", ["cpu", "compute"])
def test_fcc_equals_program(program, request, tmp_path, backend):
    gl = request.getfixturevalue("gl") if backend != "cpu" else None
    final, thermo = program_md(program, tmp_path, backend, 20)
    with glnbody.MD.fcc(3, 0.8442, 1.0, cutoff=2.5, shift=True, seed=5, backend=backend,
                        context=gl) as md:
        md.step(20)
        assert md.step_count == 20
        assert np.array_equal(md.x, final[:, 3:6])
        assert np.array_equal(md.v, final[:, 6:9])
        th = md.thermo()
        assert th["etotal"] == thermo["etotal"][-1] and th["temp"] == thermo["temp"][-1]


def test_from_arrays_and_files(tmp_path):
    with glnbody.MD.fcc(3, 0.8442, 0.5, backend="cpu") as md:
        x, v, box = md.x, md.v, md.box
    types = np.where(np.arange(len(x)) % 2 == 0, 1, 2)
    with glnbody.MD(types, x, v, (box["lo"], box["hi"]), backend="cpu", cutoff=2.5,
                    shift=True) as md:
        e0 = md.thermo()["etotal"]
        md.step(50)
        # Velocity Verlet at dt 0.005 keeps LJ energy to ~1e-4 relative.
        assert abs(md.thermo()["etotal"] - e0) < 1e-3 * abs(e0)
        md.write(tmp_path / "a.dump")
        md.write(tmp_path / "a.xyz", format="extxyz")
        xs, vs = md.x, md.v
    back = glnbody.read_lammps_dump(tmp_path / "a.dump")
    assert np.array_equal(back["x"], xs) and np.array_equal(back["v"], vs)
    assert np.array_equal(back["type"], types) and np.array_equal(back["box"]["lo"], box["lo"])
    frames = glnbody.read_extxyz(tmp_path / "a.xyz")
    assert len(frames) == 1 and np.array_equal(frames[0]["x"], xs)
    assert np.array_equal(frames[0]["type"], types)
    with glnbody.DumpWriter(tmp_path / "t.xyz", "extxyz") as w:
        for k in range(3):
            w.write(xs, vs, types, np.ones(len(xs)), box, time=0.1 * k)
    assert [f["time"] for f in glnbody.read_extxyz(tmp_path / "t.xyz")] == [0.0, 0.1, 0.2]


def test_bad_systems_and_files(tmp_path):
    x = np.random.default_rng(1).uniform(0, 5, size=(10, 3))
    with pytest.raises(glnbody.ArgumentError):
        glnbody.MD(np.zeros(10), x, x, 5.0, backend="cpu")           # type 0
    with pytest.raises(glnbody.ArgumentError, match="potential|law|lj"):
        glnbody.MD(np.ones(10), x, x, 5.0, potential="morse", backend="cpu")
    with pytest.raises(glnbody.ArgumentError):
        glnbody.MD(np.ones(10), x, x, 3.0, cutoff=2.5, backend="cpu")   # box < 2 rc
    bad = tmp_path / "bad.dump"
    bad.write_text("ITEM: TIMESTEP\nzero\n")
    with pytest.raises(glnbody.IOError, match="bad.dump:2"):
        glnbody.read_lammps_dump(bad)
    bad.write_text("2\nLattice=\"1 0 0 0 1 0 0 0 1\"\nT1 0 0 0\n")
    with pytest.raises(glnbody.IOError, match="bad.dump"):
        glnbody.read_extxyz(bad)
    # A writer that fails leaves no file.
    with pytest.raises(glnbody.ArgumentError):
        with glnbody.DumpWriter(tmp_path / "never.dump") as w:
            w.write(x, x, np.ones(10), np.ones(10) * np.nan, 5.0)
    assert not (tmp_path / "never.dump").exists()
