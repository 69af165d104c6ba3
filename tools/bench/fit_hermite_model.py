#!/usr/bin/env python3
# usage: python3 tools/bench/fit_hermite_model.py CSV [OUT_PREFIX]
"""fit_hermite_model.py CSV [OUT_PREFIX] - Portegies Zwart et al. 2007's performance model
(eqs. 10-17) fitted to `glnbody run` timings (tools/bench/hermite_time.sh).

Per block step (eq. 10): t = t_host + t_GPU + t_comm, with
  t_host = h0 + h1 * (particles predicted and corrected on the host)   (eqs. 11-12)
  t_comm = L + tau * (bytes sent and received)                         (eq. 13)
  t_GPU  = g0 + n_b * N / R                                            (eq. 15)
and the block sizes and block-step counts as power laws of N:
  n_b = a N^b  (eq. 14),   S = c N^d block steps per time unit  (eq. 17),
so that the wall-clock time per N-body time unit is S (t_host + t_GPU +
t_comm)  (eq. 16).  Each backend/predict pair gets its own fit.  Plain
Python (standard library only): linear least squares in two unknowns.
Writes OUT_PREFIX.txt (parameters, measured against model) and
OUT_PREFIX.dat (the model curve for plotting)."""
import csv
import math
import sys

# Bytes a block step moves in each mode (float4 = 16 bytes):
#  host prediction: send all N positions and velocities (32 B) and the block's
#  indices (4 B), receive acc+pot and jerk (32 B) per block particle;
#  device prediction: send the corrected block (x, t0 in double, v a j as
#  three float4: 80 B) and its indices (4 B twice), receive 32 B;
#  the CPU backend moves nothing.
def step_bytes(backend, predict, n, nb):
    if backend == "cpu":
        return 0
    if predict == "host":
        return 32 * n + 4 * nb + 32 * nb
    return 80 * nb + 8 * nb + 32 * nb


def host_particles(predict, n, nb):
    return (n if predict == "host" else nb) + nb


def fit_line(xs, ys):
    """y = p0 + p1 x, least squares; p0 clamped at >= 0."""
    k = len(xs)
    mx, my = sum(xs) / k, sum(ys) / k
    sxx = sum((x - mx) ** 2 for x in xs)
    p1 = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    p0 = my - p1 * mx
    if p0 < 0:
        p0, p1 = 0.0, sum(x * y for x, y in zip(xs, ys)) / sum(x * x for x in xs)
    return p0, p1


def fit_power(ns, ys):
    """y = a N^b by a line in log-log."""
    la, b = fit_line([math.log(n) for n in ns], [math.log(y) for y in ys])
    return math.exp(la), b


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    prefix = sys.argv[2] if len(sys.argv) > 2 else "hermite_model"
    groups = {}
    for r in rows:
        groups.setdefault((r["backend"], r["predict"]), []).append(r)
    out, curves = [], []
    for (backend, predict), rs in sorted(groups.items()):
        ns = [int(r["n"]) for r in rs]
        t_end = [float(r["t_end"]) for r in rs]
        steps = [int(r["block_steps"]) for r in rs]
        nb = [int(r["particle_steps"]) / s for r, s in zip(rs, steps)]
        per = lambda key: [float(r[key]) / s for r, s in zip(rs, steps)]
        h0, h1 = fit_line([host_particles(predict, n, b) for n, b in zip(ns, nb)], per("t_host"))
        L, tau = fit_line([step_bytes(backend, predict, n, b) for n, b in zip(ns, nb)],
                          per("t_comm"))
        g0, inv_r = fit_line([b * n for n, b in zip(ns, nb)], per("t_force"))
        a, bexp = fit_power(ns, [b for b in nb])
        c, d = fit_power(ns, [s / t for s, t in zip(steps, t_end)])

        def model(n, a=a, bexp=bexp, c=c, d=d, h0=h0, h1=h1, L=L, tau=tau,
                  g0=g0, inv_r=inv_r, backend=backend, predict=predict):
            b = a * n ** bexp
            t = (h0 + h1 * host_particles(predict, n, b)) + \
                (L + tau * step_bytes(backend, predict, n, b)) + (g0 + b * n * inv_r)
            return c * n ** d * t

        out.append(f"== {backend}, predict {predict}")
        out.append(f"  host: t_host = {h0:.3e} s + {h1:.3e} s per particle")
        out.append(f"  comm: t_comm = {L:.3e} s + {tau:.3e} s per byte "
                   f"({1e-9 / tau if tau else float('inf'):.2f} GB/s)")
        out.append(f"  gpu:  t_GPU  = {g0:.3e} s + n_b N / {1 / inv_r if inv_r else float('inf'):.3e} "
                   "interactions/s")
        out.append(f"  n_b = {a:.3g} N^{bexp:.3f};  block steps per time unit = {c:.3g} N^{d:.3f}")
        out.append("  N        measured s/unit   model s/unit   force share")
        for r, n, s, t in zip(rs, ns, steps, t_end):
            meas = (float(r["t_host"]) + float(r["t_force"]) + float(r["t_comm"])) / t
            share = float(r["t_force"]) / (float(r["t_host"]) + float(r["t_force"]) + float(r["t_comm"]))
            out.append(f"  {n:<8d} {meas:14.4g} {model(n):14.4g} {share:12.2f}")
        curves.append((f"{backend}-{predict}", model, ns))
    text = "\n".join(out) + "\n"
    open(prefix + ".txt", "w").write(text)
    with open(prefix + ".dat", "w") as f:
        for name, model, ns in curves:
            f.write(f"# {name}\n")
            n = min(ns)
            while n <= 4 * max(ns):
                f.write(f"{n} {model(n):.6g}\n")
                n = int(n * 1.25) + 1
            f.write("\n\n")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
