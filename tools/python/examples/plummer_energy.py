#!/usr/bin/python3
"""plummer_energy.py - a Plummer sphere integrated with glnbody's Hermite
block steps (Makino & Aarseth 1992), its relative energy error plotted
against time with matplotlib.

    /usr/bin/python3 plummer_energy.py [--n N] [--t-end T] [--backend B] [--output FILE.png]

Defaults: 512 bodies to t = 2 on the compute engine, plummer_energy.png."""
import argparse
import os
import sys
import tempfile

import matplotlib
matplotlib.use("Agg")           # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import glnbody  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=512, help="bodies (default 512)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--t-end", type=float, default=2.0, help="end time (default 2)")
    ap.add_argument("--backend", default="compute", help="cpu, compute or fragment")
    ap.add_argument("--output", default="plummer_energy.png", help="the plot (PNG)")
    a = ap.parse_args()
    if not (0 < a.t_end <= 64):
        ap.error("--t-end: %g must be in (0, 64]" % a.t_end)
    if not a.output.endswith(".png"):
        ap.error("--output: %s: give a .png name" % a.output)

    try:
        with glnbody.Hermite.plummer(a.n, seed=a.seed, backend=a.backend) as sim:
            times = np.linspace(0, a.t_end, 65)
            errors = []
            for t in times:
                sim.evolve(t)
                errors.append((sim.energy() - sim.e0) / abs(sim.e0))
            stats, renderer = sim.stats(), sim.renderer
    except glnbody.Error as e:
        sys.exit("plummer_energy: %s" % e)
    errors = np.array(errors)
    if not np.isfinite(errors).all():
        sys.exit("plummer_energy: the energy error is not finite")

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogy(times[1:], np.abs(errors[1:]) + 1e-17, marker=".")
    ax.set_xlabel("t (Henon units)")
    ax.set_ylabel("|E - E0| / |E0|")
    ax.set_title("Plummer sphere, N = %d, %s engine" % (a.n, a.backend))
    fig.tight_layout()
    # Written under a temporary name beside the target, then renamed: a
    # failed run leaves no partial plot.
    folder = os.path.dirname(os.path.abspath(a.output))
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=100)
        os.replace(tmp, a.output)
    except Exception:
        os.unlink(tmp)
        raise
    print("%s: N = %d to t = %g on %s: %d block steps, largest |dE/E0| = %.3e; plot in %s"
          % (os.path.basename(sys.argv[0]), a.n, a.t_end, renderer,
             stats["block_steps"], np.abs(errors).max(), a.output))


if __name__ == "__main__":
    main()
