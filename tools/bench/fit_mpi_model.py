#!/usr/bin/env python3
# usage: python3 tools/bench/fit_mpi_model.py [--allreduce CSV] [--hermite TXT] [--runs CSV] [--markdown]
"""fit_mpi_model.py [--allreduce CSV] [--hermite TXT] [--runs CSV] [--markdown]

The performance model of Belleman et al. 2008 (eq. 10: t = t_host + t_GPU +
t_comm per block step, with eqs. 11-17 as tools/bench/fit_hermite_model.py fits
them) extended with the MPI_Allreduce of a j-parallel run on P GPUs
(Harfst et al. 2007): every rank corrects the same block on its host, its
GPU sums the block against N/P j-particles, and one allreduce adds the
partial sums, m = 56 n_b bytes (7 doubles a block particle):

  t(P) = t_host + g0 + n_b N / (P R) + t_comm + t_pred + t_ar(P, m)

  t_ar(P, m) = alpha ceil(log2 P) + 2 (P-1)/P m / B        (one node)
  t_ar(P, m) = t_ar_node(8, m) + alpha_ib ceil(log2 k)
               + 2 (k-1)/k m / B_ib                         (k nodes of 8)

the second a hierarchical allreduce: the node's 8 ranks reduce through
shared memory, the k nodes over InfiniBand.  alpha and B are fitted to the
measured allreduce (mpi_allreduce_bench: the slowest rank's median time)
by least squares in relative error; without measurements, to the two
H100 points of a first probe (96 KB: 34 us on 2 ranks, 59 us on 4).
alpha_ib, B_ib are published numbers for HDR InfiniBand (200 Gb/s): about
1.5 us MPI latency and 24 GB/s per port (NVIDIA ConnectX-6 data sheet;
OSU micro-benchmarks).  t_pred: --predict gpu predicts all N on every
GPU each step (the i-particles and the H bounds need the whole set), N
times 112 bytes read and written at 3 TB/s of HBM (an assumption, not a
fit).  Efficiency E(P) = t(1) / (P t(P)) per block step with the mean block
n_b = a N^b of the Hermite fit: the MODEL's prediction, not a measurement.
Plain Python, standard library only."""
import argparse
import csv
import math
import re

ALPHA_IB = 1.5e-6          # s, MPI latency over HDR InfiniBand (published)
B_IB = 24e9                # bytes/s, HDR 200 Gb/s per port (published)
HBM_BYTES_PER_S = 3.0e12   # effective, for the O(N) prediction (assumed)
PRED_BYTES = 112           # state read + j-set written per particle


def hermite_params(path):
    """h0, h1, L, tau, g0, R, a, b of 'compute, predict gpu'."""
    text = open(path).read()
    sec = text.split("== compute, predict gpu")[1].split("==")[0]
    num = r"([0-9.eE+-]+)"
    h0, h1 = map(float, re.search(r"t_host = %s s \+ %s s per particle" % (num, num), sec).groups())
    L, tau = map(float, re.search(r"t_comm = %s s \+ %s s per byte" % (num, num), sec).groups())
    g0, R = map(float, re.search(r"t_GPU  = %s s \+ n_b N / %s" % (num, num), sec).groups())
    a, b = map(float, re.search(r"n_b = %s N\^%s" % (num, num), sec).groups())
    return dict(h0=h0, h1=h1, L=L, tau=tau, g0=g0, R=R, a=a, b=b)


def fit_allreduce(rows):
    """alpha, B from (P, bytes, seconds): t = alpha x1 + x2 / B, relative LSQ."""
    s11 = s12 = s22 = r1 = r2 = 0.0
    for p, m, t in rows:
        x1 = math.ceil(math.log2(p)) / t
        x2 = 2.0 * (p - 1) / p * m / t
        s11 += x1 * x1
        s12 += x1 * x2
        s22 += x2 * x2
        r1 += x1
        r2 += x2
    det = s11 * s22 - s12 * s12
    alpha = (r1 * s22 - r2 * s12) / det
    inv_b = (s11 * r2 - s12 * r1) / det
    return alpha, 1.0 / inv_b


def t_allreduce(p, m, alpha, bw):
    if p <= 1:
        return 0.0
    if p <= 8:
        return alpha * math.ceil(math.log2(p)) + 2.0 * (p - 1) / p * m / bw
    k = p // 8
    return (t_allreduce(8, m, alpha, bw) + ALPHA_IB * math.ceil(math.log2(k)) +
            2.0 * (k - 1) / k * m / B_IB)


def step_time(h, n, p, alpha, bw):
    nb = min(n, h["a"] * n ** h["b"])
    host = h["h0"] + h["h1"] * 2 * nb
    gpu = h["g0"] + nb * n / (p * h["R"])
    comm = h["L"] + h["tau"] * 120 * nb
    pred = n * PRED_BYTES / HBM_BYTES_PER_S
    mpi = t_allreduce(p, 56 * nb, alpha, bw) if p > 1 else 0.0
    return host + gpu + comm + pred + mpi, nb, mpi


def summarize_runs(path):
    """Median wall and rank 0's split per (n, predict, ranks)."""
    groups = {}
    for r in csv.DictReader(open(path)):
        try:
            key = (int(r["n"]), r["predict"], int(r["ranks"]))
            groups.setdefault(key, []).append(r)
        except (KeyError, ValueError):
            continue
    lines = ["N        predict ranks  wall_s  t_force_s  t_comm_s  (PCIe_s + MPI_s)  cost of MPI layer"]
    for key in sorted(groups):
        rs = sorted(groups[key], key=lambda r: float(r["wall"] or "inf"))
        r = rs[len(rs) // 2]
        base = groups.get((key[0], key[1], 1))
        cost = ""
        if key[2] > 1 and base:
            b = sorted(base, key=lambda r: float(r["wall"]))[len(base) // 2]
            cost = "%+.1f%% wall" % (100.0 * (float(r["wall"]) / float(b["wall"]) - 1.0))
        lines.append("%-8d %-7s %5d %7s %10s %9s  (%s + %s)  %s" % (
            key[0], key[1], key[2], r["wall"], r["t_force"], r["t_comm"],
            r.get("pcie") or "-", r.get("mpi") or "-", cost))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--allreduce", help="mpi_allreduce_bench CSV")
    ap.add_argument("--hermite", default="tools/results/archive/hermite_model_h200.txt")
    ap.add_argument("--runs", help="mpi.sh's mpi_runs.csv")
    ap.add_argument("--markdown", action="store_true", help="the README table")
    args = ap.parse_args()

    h = hermite_params(args.hermite)
    if args.allreduce:
        rows = [(int(r["ranks"]), int(r["bytes"]), float(r["median_us"]) * 1e-6)
                for r in csv.DictReader(open(args.allreduce)) if r["type"] == "double"
                and int(r["bytes"]) >= 1024]
        source = "%d allreduce timings of %s" % (len(rows), args.allreduce)
    else:
        rows = [(2, 98304, 34e-6), (4, 98304, 59e-6)]
        source = "a first probe's 96 KB allreduce on 2 and 4 ranks (H100 machine)"
    alpha, bw = fit_allreduce(rows)
    print("allreduce fit (%s): alpha = %.2f us, B = %.2f GB/s" % (source, alpha * 1e6, bw / 1e9))
    print("Hermite fit (compute, predict gpu, %s): t_host = %.3g + %.3g/particle s, "
          "t_comm = %.3g + %.3g/byte s, t_GPU = %.3g s + n_b N / %.3g, n_b = %.3g N^%.3f"
          % (args.hermite, h["h0"], h["h1"], h["L"], h["tau"], h["g0"], h["R"], h["a"], h["b"]))
    if args.allreduce:
        print("  P  bytes      measured_us  model_us")
        for p, m, t in rows:
            print("%3d  %-9d  %11.1f  %8.1f" % (p, m, t * 1e6, t_allreduce(p, m, alpha, bw) * 1e6))
    if args.runs:
        print(summarize_runs(args.runs))

    gpus = [4, 8, 16, 32, 64]
    sizes = [1 << 20, 1 << 22, 1 << 24]
    if args.markdown:
        print("| N | mean block n_b | t per step, 1 GPU | " +
              " | ".join("%d GPUs%s" % (p, " (1 node)" if p <= 8 else " (%d nodes)" % (p // 8))
                         for p in gpus) + " |")
        print("|---|---|---|" + "---|" * len(gpus))
    else:
        print("predicted parallel efficiency E(P) = t(1) / (P t(P)) (MODEL, not measured):")
        print("N          n_b      t(1)_ms  " + "  ".join("P=%-3d" % p for p in gpus))
    for n in sizes:
        t1, nb, _ = step_time(h, n, 1, alpha, bw)
        eff = []
        for p in gpus:
            tp, _, mpi = step_time(h, n, p, alpha, bw)
            eff.append((t1 / (p * tp), mpi))
        if args.markdown:
            print("| %dM | %.0f | %.1f ms | " % (n >> 20, nb, t1 * 1e3) +
                  " | ".join("%.2f (allreduce %.2f ms)" % (e, m * 1e3) for e, m in eff) + " |")
        else:
            print("%-9d  %-7.0f  %7.1f  " % (n, nb, t1 * 1e3) +
                  "  ".join("%.3f" % e for e, _ in eff))


if __name__ == "__main__":
    main()
