#!/usr/bin/env python3
# usage: python3 tools/bench/fit_block_latency.py [-o OUT] [BENCH_CSV RUNS_CSV SUMMARY_TXT | --runs RUNS_CSV]
"""fit_block_latency.py [-o OUT] [BENCH_CSV RUNS_CSV SUMMARY_TXT | --runs RUNS_CSV] - the
per-block latency term of the block-step performance model (Belleman et
al. 2008 eq. 10; Portegies Zwart et al. 2007 eq. 10 is the split
t_host + t_force + t_comm that `glnbody run` prints), fitted to the
measurements of tools/bench/g6.sh (defaults: tools/results/archive/g6_bench_h100.csv,
g6_hermite_h100.csv, g6_summary_h100.txt).

1. One block through the GRAPE-6 interface (g6_bench: ni corrected
   j-particles sent, g6_set_ti, firsthalf, lasthalf):
       t_block = t_lat + t_j N + tau_i ni + ni N / R
   t_lat: the fixed cost of a block (calls, dispatches, fence, readback);
   t_j: per j-particle in memory (the force pass walks every j-slice,
   however small the block); tau_i: per block particle on the host and
   over PCIe (the j-update queued and sent, the i-particle written, its
   results read back); R: interactions per second once the GPU is full.
   Least squares in relative error over every (N, ni) row.

2. Whole Hermite runs (glnbody run --predict gpu|host, the same Plummer
   sphere and eta): over B block steps and P particle steps at N,
       t_force = B L_force + P N / R_run
       t_comm  = B L_comm  + P tau_comm
       t_host  = B L_host  + P tau_host
   each by least squares without intercept over the runs of one code
   (repeated runs at one N enter as their medians).  --runs fits these
   alone, from a CSV of tools/bench/block_step.sh or
   tools/bench/run_variants.sh.
   Printed: the terms, the force share t_force / (t_force + t_comm +
   t_host) the model gives against the measured one, and the per-particle
   cost tau_comm + tau_host that would leave a share of 0.8 and of 0.9
   with the per-block latencies as fitted (negative: the latencies alone
   are over that budget).

3. The block steps of tests/g6_driver through the g6 API (the
   GLNBODY_G6_STATS lines of the summary): the wall seconds in the g6
   calls less the device seconds of the force passes,
       overhead = B L_api + P tau_api.

Standard library only.  Writes OUT (default: standard output) under a
temporary name, renamed when complete."""
import csv
import os
import re
import statistics
import sys

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "archive")


def fail(message):
    sys.exit(f"fit_block_latency: {message}")


def solve(a, b):
    """a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if m[p][c] == 0:
            fail("the fit is singular: the data do not resolve every term")
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def least_squares(rows, ys, weights=None):
    """The x minimising sum w (rows . x - y)^2 (normal equations)."""
    k = len(rows[0])
    w = weights or [1.0] * len(ys)
    a = [[sum(wi * r[i] * r[j] for r, wi in zip(rows, w)) for j in range(k)] for i in range(k)]
    b = [sum(wi * r[i] * y for r, y, wi in zip(rows, ys, w)) for i in range(k)]
    return solve(a, b)


def read_csv(path, columns):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    if not rows or any(c not in rows[0] for c in columns):
        fail(f"{path}: expected the columns {', '.join(columns)}")
    return rows


def number(path, row, key):
    try:
        return float(row[key])
    except (TypeError, ValueError):
        fail(f"{path}: {key} is not a number in the row {dict(row)}")


def fit_bench(path, out):
    rows = read_csv(path, ["n", "ni", "us_per_block"])
    data = [(number(path, r, "n"), number(path, r, "ni"), 1e-6 * number(path, r, "us_per_block"))
            for r in rows]
    x = [[1.0, n, ni, ni * n] for n, ni, _ in data]
    t = [d[2] for d in data]
    lat, tj, tau, inv_r = least_squares(x, t, [1.0 / (ti * ti) for ti in t])
    out.append(f"== one block through the g6 API ({os.path.basename(path)}, {len(data)} rows)")
    out.append("  t_block = t_lat + t_j N + tau_i ni + ni N / R   (least squares, relative error)")
    out.append(f"  t_lat = {1e6 * lat:.1f} us   t_j = {1e9 * tj:.3f} ns a j-particle   "
               f"tau_i = {1e9 * tau:.0f} ns a block particle   R = {1 / inv_r:.3g} interactions/s")
    out.append(f"  {'N':>7} {'ni':>7} {'measured us':>12} {'model us':>10} {'model/measured':>15}")
    worst = 0.0
    for (n, ni, ti), xi in zip(data, x):
        model = lat * xi[0] + tj * xi[1] + tau * xi[2] + inv_r * xi[3]
        worst = max(worst, abs(model / ti - 1))
        out.append(f"  {n:7.0f} {ni:7.0f} {1e6 * ti:12.1f} {1e6 * model:10.1f} {model / ti:15.2f}")
    out.append(f"  largest relative misfit {100 * worst:.0f}%")
    return lat, tj, tau, 1 / inv_r


def run_code(row):
    """g6.sh names its code; block_step.sh its build and pieces;
    run_variants.sh its build."""
    if "code" in row:
        return row["code"]
    if "pieces" in row:
        return f"glnbody-run-{row['build']}-pieces-{row['pieces']}"
    return f"glnbody-run-{row['build']}"


def median_runs(runs):
    """Repeated runs of one code at one N as one run of their medians."""
    by_n = {}
    for r in runs:
        by_n.setdefault(r["N"], []).append(r)
    return [{k: statistics.median(r[k] for r in group) for k in group[0]}
            for group in by_n.values()]


def fit_runs(path, out):
    rows = read_csv(path, ["n", "block_steps", "particle_steps", "t_host", "t_force", "t_comm"])
    if "code" not in rows[0] and "build" not in rows[0]:
        fail(f"{path}: expected a code or a build column")
    codes = {}
    for r in rows:
        if r["t_force"] == "":
            continue                      # a run without the split (the g6 driver)
        codes.setdefault(run_code(r), []).append(
            {k: number(path, r, c) for k, c in (("N", "n"), ("B", "block_steps"),
                                                 ("P", "particle_steps"), ("host", "t_host"),
                                                 ("force", "t_force"), ("comm", "t_comm"))})
    if not codes:
        fail(f"{path}: no run with the t_host/t_force/t_comm split")
    codes = {code: median_runs(runs) for code, runs in codes.items()}
    fits = {}
    for code, runs in sorted(codes.items()):
        if len(runs) < 2:
            fail(f"{path}: {code}: two runs at least are needed to split block and particle terms")
        b = [[r["B"], r["P"]] for r in runs]
        l_comm, tau_comm = least_squares(b, [r["comm"] for r in runs])
        l_host, tau_host = least_squares(b, [r["host"] for r in runs])
        l_force, inv_r = least_squares([[r["B"], r["P"] * r["N"]] for r in runs],
                                       [r["force"] for r in runs])
        fits[code] = (l_force, 1 / inv_r, l_comm, tau_comm, l_host, tau_host)
        out.append(f"== whole runs, {code} ({os.path.basename(path)}, {len(runs)} runs)")
        out.append(f"  t_force = B {1e6 * l_force:.1f} us + P N / {1 / inv_r:.3g} interactions/s")
        out.append(f"  t_comm  = B {1e6 * l_comm:.1f} us + P {1e9 * tau_comm:.1f} ns")
        out.append(f"  t_host  = B {1e6 * l_host:.1f} us + P {1e9 * tau_host:.1f} ns")
        out.append(f"  per block step: latency {1e6 * (l_force + l_comm + l_host):.0f} us "
                   f"(force {1e6 * l_force:.0f}, comm {1e6 * l_comm:.0f}, host {1e6 * l_host:.0f})")
        out.append(f"  {'N':>7} {'blocks':>7} {'n_b':>6} {'share measured':>15} {'model':>6} "
                   f"{'tau_comm+tau_host for 0.8':>26} {'for 0.9':>8} (now {1e9 * (tau_comm + tau_host):.0f} ns)")
        for r in sorted(runs, key=lambda r: r["N"]):
            force = r["B"] * l_force + r["P"] * r["N"] * inv_r
            per_particle = r["P"] * (tau_comm + tau_host)
            model = force / (force + r["B"] * (l_comm + l_host) + per_particle)
            measured = r["force"] / (r["force"] + r["comm"] + r["host"])
            latency = r["B"] * (l_comm + l_host)
            budget = {g: 1e9 * (force / g - force - latency) / r["P"] for g in (0.8, 0.9)}
            out.append(f"  {r['N']:7.0f} {r['B']:7.0f} {r['P'] / r['B']:6.0f} {measured:15.2f} "
                       f"{model:6.2f} {budget[0.8]:23.0f} ns {budget[0.9]:5.0f} ns")
    return fits


def fit_driver(path, out, block):
    """The g6_driver lines of the summary: blocks, i-particles, wall seconds
    in the three calls, device seconds of the force passes; and the seconds
    in the calls that the one-block model (block: t_lat, t_j, tau_i, R)
    predicts for the same blocks.  Where the driver's own timed run is there
    too ("g6_driver N: blocks ... g6 S", without GLNBODY_G6_STATS, whose
    clock reads slow the calls down), its S is the seconds in the calls."""
    pattern = re.compile(r"^g6_driver (\d+): g6gl: (\d+) blocks, (\d+) i-particles: wall seconds "
                         r"in g6_set_j_particle ([\d.]+), g6calc_firsthalf ([\d.]+), "
                         r"g6calc_lasthalf ([\d.]+); device seconds ([\d.]+)")
    timed = re.compile(r"^g6_driver (\d+): blocks \d+ particle_steps \d+ wall [\d.]+ g6 ([\d.]+)")
    try:
        with open(path) as f:
            lines = f.readlines()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    runs = [[float(v) for v in m.groups()] for m in map(pattern.match, lines) if m]
    seconds = {float(m.group(1)): float(m.group(2)) for m in map(timed.match, lines) if m}
    for r in runs:              # the calls' seconds as the timed run measured them
        if r[0] in seconds:
            r[3], r[4], r[5] = seconds[r[0]], 0.0, 0.0
    if len(runs) < 2:
        out.append(f"== g6 driver: {os.path.basename(path)} has fewer than two runs; not fitted")
        return None
    over = [s + f + l - dev for _, _, _, s, f, l, dev in runs]
    l_api, tau_api = least_squares([[b, p] for _, b, p, *_ in runs], over)
    out.append(f"== Hermite block steps through the g6 API ({os.path.basename(path)}, "
               f"{len(runs)} runs of tests/g6_driver)")
    out.append(f"  seconds in the g6 calls - device seconds = B {1e6 * l_api:.1f} us + "
               f"P {1e9 * tau_api:.1f} ns")
    lat, tj, tau, rate = block
    out.append(f"  {'N':>7} {'blocks':>7} {'n_b':>6} {'overhead s':>11} {'model s':>8} "
               f"{'device share':>13} {'calls s':>8} {'one-block model s':>18}")
    for (n, b, p, s, f, l, dev), o in zip(runs, over):
        predicted = b * (lat + tj * n) + p * tau + p * n / rate
        out.append(f"  {n:7.0f} {b:7.0f} {p / b:6.0f} {o:11.3f} {b * l_api + p * tau_api:8.3f} "
                   f"{dev / (s + f + l):13.2f} {s + f + l:8.3f} {predicted:18.3f}")
    return l_api, tau_api


def main():
    args = sys.argv[1:]
    target = None
    if args[:1] == ["-o"]:
        if len(args) < 2:
            fail("-o needs a file name")
        target, args = args[1], args[2:]
    if args[:1] == ["--runs"]:          # whole runs alone (block_step.sh)
        if len(args) != 2:
            fail("--runs needs one CSV file")
        out = [f"# fit_block_latency.py: whole runs of {os.path.basename(args[1])} "
               f"(Belleman et al. 2008 eq. 10 with a per-block term)"]
        fit_runs(args[1], out)
        return write(target, "\n".join(out) + "\n")
    if args and len(args) != 3:
        sys.exit(__doc__.split("\n\n")[0])
    bench, runs, summary = args or [os.path.join(RESULTS, f) for f in
                                    ("g6_bench_h100.csv", "g6_hermite_h100.csv",
                                     "g6_summary_h100.txt")]
    out = [f"# fit_block_latency.py: the per-block latency term of the block-step model "
           f"(Belleman et al. 2008 eq. 10)",
           f"# data: {os.path.basename(bench)}, {os.path.basename(runs)}, "
           f"{os.path.basename(summary)}"]
    block = fit_bench(bench, out)
    fit_runs(runs, out)
    fit_driver(summary, out, block)
    write(target, "\n".join(out) + "\n")


def write(target, text):
    if target is None:
        sys.stdout.write(text)
        return
    temporary = f"{target}.tmp{os.getpid()}"
    try:
        with open(temporary, "w") as f:
            f.write(text)
        os.replace(temporary, target)
    except OSError as e:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        fail(f"{target}: {e.strerror}")


if __name__ == "__main__":
    main()
