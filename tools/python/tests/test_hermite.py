"""Hermite runs against `glnbody run`, bit for bit, and checkpoints."""
import re
import struct

import numpy as np
import pytest

import glnbody
from conftest import clustered, run

N, SEED, T = 64, 3, 0.25


def program_run(program, tmp_path, backend, t_end, extra=()):
    out = tmp_path / "final.txt"
    log = tmp_path / "energy.csv"
    done = run([program, "run", "--t-end", repr(t_end), "--backend", backend,
                "--output", str(out), "--energy-log", str(log), "--quiet"] + list(extra))
    final = np.loadtxt(out, comments="#", ndmin=2)
    rows = np.genfromtxt(log, delimiter=",", names=True)
    blocks = int(re.search(r"block steps (\d+)", done.stdout + done.stderr).group(1))
    return final, rows, blocks


def assert_same_state(sim, final):
    assert np.array_equal(sim.x, final[:, 2:5])
    assert np.array_equal(sim.v, final[:, 5:8])


def test_plummer_cpu_equals_program(program, tmp_path):
    final, rows, blocks = program_run(program, tmp_path, "cpu", T,
                                      ["--n", str(N), "--seed", str(SEED)])
    with glnbody.Hermite.plummer(N, seed=SEED, backend="cpu") as sim:
        assert sim.e0 == rows["etot"][0]
        sim.evolve(T)
        assert sim.t == T
        assert_same_state(sim, final)
        assert np.array_equal(sim.m, final[:, 1])
        assert sim.energy() == rows["etot"][-1]
        assert sim.stats()["block_steps"] == blocks


def test_arrays_compute_equals_program(program, gl, tmp_path):
    m, x, v = clustered(45)
    snap = tmp_path / "in.txt"
    glnbody.write_snapshot(snap, m, x, v)
    variant = "t64i1"           # one variant for both ("auto" times them)
    final, rows, blocks = program_run(program, tmp_path, "compute", 0.0625,
                                      ["--input", str(snap), "--softening", "0.01",
                                       "--variant", variant])
    sim = glnbody.Hermite(m, x, v, eps=0.01, backend="compute", variant=variant,
                          context=gl)
    sim.evolve(0.0625)
    assert_same_state(sim, final)
    assert sim.stats()["block_steps"] == blocks
    sim.close()


def test_positions_ds_equals_program(program, gl, tmp_path):
    """positions="ds" is `glnbody run --positions ds`, bit for bit; a bad
    format is refused by name."""
    m, x, v = clustered(45)
    snap = tmp_path / "in.txt"
    glnbody.write_snapshot(snap, m, x, v)
    final, rows, blocks = program_run(program, tmp_path, "compute", 0.0625,
                                      ["--input", str(snap), "--softening", "0.01",
                                       "--variant", "t64i1", "--positions", "ds"])
    with glnbody.Hermite(m, x, v, eps=0.01, backend="compute", variant="t64i1",
                         context=gl, positions="ds") as sim:
        assert sim.params["positions"] == "ds"
        sim.evolve(0.0625)
        assert_same_state(sim, final)
    with pytest.raises(glnbody.ArgumentError, match="position format"):
        glnbody.Hermite(m, x, v, backend="cpu", positions="double")


def sections(path):
    """The tagged sections of a checkpoint file: {tag: bytes}."""
    data = path.read_bytes()
    assert data[:8] == b"GLNBCKPT"
    at, end, out = 40, len(data) - 8, {}
    while at < end:
        tag = data[at:at + 4]
        size = struct.unpack("<Q", data[at + 8:at + 16])[0]
        out[tag] = data[at + 16:at + 16 + size]
        at += 16 + (size + 7) // 8 * 8
    return data[:40], out


def test_checkpoint_same_bytes_and_restarts(program, tmp_path):
    half = T / 2
    ours, theirs = tmp_path / "py.ckpt", tmp_path / "run.ckpt"
    run([program, "run", "--n", str(N), "--seed", str(SEED), "--backend", "cpu",
         "--t-end", repr(half), "--checkpoint", str(theirs), "--quiet"])
    sim = glnbody.Hermite.plummer(N, seed=SEED, backend="cpu")
    sim.evolve(half)
    sim.checkpoint(ours)
    head_a, a = sections(ours)
    head_b, b = sections(theirs)
    assert set(a) == set(b)
    for tag in a:           # every byte of the state; the program's own
        if tag != b"APP ":  # section holds its typed options
            assert a[tag] == b[tag], tag
    # The program continues the Python run exactly as the Python run goes on.
    sim.evolve(T)
    final = tmp_path / "cont.txt"
    run([program, "run", "--restart", str(ours), "--t-end", repr(T), "--output",
         str(final), "--quiet"])
    assert_same_state(sim, np.loadtxt(final, comments="#", ndmin=2))
    # Python continues the program's run the same way.
    with glnbody.Hermite.restore(theirs, backend="cpu") as back:
        assert back.t == half and back.e0 == sim.e0
        back.evolve(T)
        assert np.array_equal(back.x, sim.x) and np.array_equal(back.v, sim.v)
    sim.close()


def test_restore_refuses_bad_files(tmp_path):
    with pytest.raises(glnbody.IOError, match="missing.ckpt"):
        glnbody.Hermite.restore(tmp_path / "missing.ckpt", backend="cpu")
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"GLNBCKPT" + b"\0" * 100)
    with pytest.raises(glnbody.IOError, match="bad.ckpt"):
        glnbody.Hermite.restore(bad, backend="cpu")
    sim = glnbody.Hermite.plummer(8, backend="cpu")
    with pytest.raises(glnbody.IOError):
        sim.checkpoint(tmp_path / "no" / "such" / "dir.ckpt")
    assert not (tmp_path / "no").exists()


def test_energy_conserved_and_lifetimes():
    with glnbody.Hermite.plummer(128, seed=2, backend="cpu") as sim:
        e0 = sim.energy()
        sim.evolve(0.5)
        assert abs((sim.energy() - e0) / e0) < 1e-5       # eta 0.02, Makino & Aarseth
        st = sim.stats()
        assert st["particle_steps"] >= st["block_steps"] > 0
    assert sim.closed
    with pytest.raises(glnbody.ArgumentError, match="closed"):
        sim.evolve(1.0)
