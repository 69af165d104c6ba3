#!/bin/bash
# usage: OUT=DIR bash tools/bench/md.sh   (on the GPU machine, from the project root)
# md.sh - the MD measurements on the GPU machine: the MD test suites on
# the card, then step times against N for the LJ liquid (rho 0.8442, rc 2.5,
# shifted) with cell lists, the O(N^2) kernel and the CPU backend (ETH Zürich HPCSE I 2013
# Table 1 / Figures 7 and 9), and Boyarchenkov & Potashnikov 2009's Table 4 (ionic crystals, open
# boundaries, all pairs).  Run from the project root:
#   OUT=DIR bash tools/bench/md.sh
#   (from a build of this tree: glnbody, spirv, tests/check_md_gpu,
#    tests/check_md_fragment; on a machine without libEGL, libepoxy, the
#    Debian packages in .gl/ that tools/bench/env.sh unpacks)
# Writes $OUT/md_scaling.csv, $OUT/md_ionic.csv and the logs; plot here with
# tools/bench/plot_md.sh.
set -u
source tools/bench/env.sh
for t in build/tests/check_md_gpu build/tests/check_md_fragment; do
    [ -x "$t" ] || continue
    "$t" > "$OUT/$(basename "$t").log" 2>&1
    echo "$(basename "$t"): exit $? -- $(grep -E '^[0-9]+%' "$OUT/$(basename "$t").log")"
done

# One md run; appends its --timing row, prefixed by the label.  Its log,
# thermo and row stay in $runs (tarred into $OUT at the end: the device
# returns a limited number of files).
runs=/tmp/md_runs
mkdir -p "$runs"
md_row() {   # label steps md-args...
    local label=$1 steps=$2; shift 2
    local log="$runs/$label.log" row="$runs/$label.row"
    if timeout 300 build/glnbody md --steps "$steps" --thermo-every "$steps" \
            --thermo "$runs/thermo_$label.csv" --timing "$row" "$@" > "$log" 2>&1; then
        tail -n 1 "$row" | sed "s/^/$label,/"
    else
        echo "# $label failed: $(tail -n 1 "$log")" >&2
    fi
}
header="label,backend,kernel,n,steps,seconds,atom_steps_per_s,k1_s,cells_s,force_s,k2_s,evaluations,drift_rel"

csv="$OUT/md_scaling.csv"
echo "$header" > "$csv"
lj="--ic fcc --density 0.8442 --temperature 1.44 --potential lj --cutoff 2.5 --shift --dt 0.005"
# cells -> atoms: 10 -> 4000, 16 -> 16384, 25 -> 62500, 40 -> 256000,
# 64 -> 1048576, 100 -> 4000000
for c in 10 16 25 40 64 100; do
    md_row lj${c}_compute_cells 200 --backend compute $lj --cells $c --cells-list on >> "$csv"
done
for c in 10 16 25 40; do
    steps=$([ $c -le 16 ] && echo 50 || echo 5)
    md_row lj${c}_compute_pairs $steps --backend compute $lj --cells $c --cells-list off >> "$csv"
done
for c in 10 16 25; do
    md_row lj${c}_cpu_cells 20 --backend cpu $lj --cells $c --cells-list on >> "$csv"
done
for c in 10 16; do
    md_row lj${c}_fragment_pairs 5 --backend fragment $lj --cells $c --cells-list off >> "$csv"
done
cat "$csv"

# Boyarchenkov & Potashnikov 2009 Table 4: 12-ion fluorite cells, k^3 of them, open, all pairs.
ion="$OUT/md_ionic.csv"
echo "$header" > "$ion"
for k in 3 4 5 6 7 8 9 10 12 14 16 18 20; do
    md_row ionic${k}_compute 20 --backend compute --ic ionic --cells $k --dt 0.0005 >> "$ion"
done
for k in 3 5 8 10; do
    md_row ionic${k}_cpu 3 --backend cpu --ic ionic --cells $k --dt 0.0005 >> "$ion"
done
cat "$ion"
tar -C /tmp -czf "$OUT/md_runs.tgz" md_runs
