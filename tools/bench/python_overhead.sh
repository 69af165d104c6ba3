#!/bin/bash
# python_overhead.sh - what the Python package adds to the C library:
#   bash tools/bench/python_overhead.sh [OUTDIR]      (after make; OUTDIR or $OUT,
#        default ./python_overhead) -> OUTDIR/python_overhead.csv
#   N=16384 RUNS=21 T_END=1 RUN_N=1024 ENGINES="compute fragment" set the sizes.
# 1. the per-call overhead of cffi (ABI mode) and ctypes on the same
#    functions (a trivial call; nb_forces_ga on 2 bodies) and of the package;
# 2. nb_forces_ga on the same N-body cube, median wall seconds of RUNS calls,
#    from C (python_overhead.c) and from glnbody.forces;
# 3. Hermite.plummer(RUN_N) evolved to T_END with its energies, against the
#    wall time `glnbody run` reports for the same run.
# Each row: what,engine,n,median_s,min_s; the ratios close the file.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-${OUT:-python_overhead}}
N=${N:-16384} RUNS=${RUNS:-21} WARMUP=${WARMUP:-3} T_END=${T_END:-1} RUN_N=${RUN_N:-1024}
ENGINES=${ENGINES:-compute}
PY=${PYTHON:-/usr/bin/python3}
lib=${GLNBODY_LIBRARY:-$root/build/libglnbody.so.0}
prog=${GLNBODY_PROGRAM:-$root/build/glnbody}
for f in "$lib" "$prog"; do
    [ -e "$f" ] || { echo "python_overhead.sh: $f is missing: run make first" >&2; exit 1; }
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -std=c11 -I"$root/host" -o "$work/python_overhead" "$root/tools/bench/python_overhead.c" \
    "$lib" -Wl,-rpath,"$(dirname "$lib")"
export GLNBODY_LIBRARY="$lib" PYTHONPATH="$root/tools/python"
csv=$work/python_overhead.csv
echo "what,engine,n,median_s,min_s" > "$csv"
# One OpenMP thread: the call's own cost, not a thread team's wake-up.
OMP_NUM_THREADS=1 "$PY" "$root/tools/bench/python_overhead.py" calls 200000 >> "$csv"
for e in $ENGINES; do
    echo "forces_c,$e,$N,$("$work/python_overhead" "$e" "$N" "$RUNS" "$WARMUP" | tr ' ' ,)" >> "$csv"
    "$PY" "$root/tools/bench/python_overhead.py" forces "$e" "$N" "$RUNS" "$WARMUP" >> "$csv"
    wall=$("$prog" run --n "$RUN_N" --seed 1 --t-end "$T_END" --backend "$e" 2>&1 |
           sed -n 's/.*; wall \([0-9.]*\) s$/\1/p')
    [ -n "$wall" ] || { echo "python_overhead.sh: no wall time from glnbody run" >&2; exit 1; }
    echo "evolve_program,$e,$RUN_N,$wall,$wall" >> "$csv"
    "$PY" "$root/tools/bench/python_overhead.py" evolve "$e" "$RUN_N" "$T_END" >> "$csv"
done
# Python over C, each pair: 1.03 means 3% slower.
awk -F, 'NR > 1 { v[$1 "," $2] = $4 }
    END { for (k in v) { split(k, p, ","); e = p[2]
            if (p[1] == "forces_python" && v["forces_c," e] > 0)
                printf "ratio,forces_python/forces_c,%s,%.4f,\n", e, v[k] / v["forces_c," e]
            if (p[1] == "evolve_python" && v["evolve_program," e] > 0)
                printf "ratio,evolve_python/evolve_program,%s,%.4f,\n", e, v[k] / v["evolve_program," e] } }' \
    "$csv" >> "$csv.tail"
cat "$csv.tail" >> "$csv" 2>/dev/null || true
if grep -qiE 'nan|inf' "$csv"; then echo "python_overhead.sh: a non-finite value" >&2; exit 1; fi
cp "$csv" "$out/python_overhead.csv.tmp" && mv "$out/python_overhead.csv.tmp" "$out/python_overhead.csv"
cat "$out/python_overhead.csv"
