#!/bin/bash
# usage: OUT=DIR bash tools/bench/hermite_time.sh   (on the GPU machine, from the project root)
# hermite_time.sh - the Hermite GPU paths on the card, then the
# wall-clock seconds per N-body time unit against N with the
# t_host/t_force/t_comm split (Portegies Zwart et al. 2007 Table 2, eq. 10), measured over
# t = 0..0.25 (multiply by 4 for one time unit).  A second table repeats
# the compute rows with OMP_WAIT_POLICY=active: OpenMP threads that spin
# between block steps instead of sleeping through the GPU's share of each.
# Run from the project root (about 4 minutes on the H200):
#   OUT=DIR bash tools/bench/hermite_time.sh
#   (from a build of this tree: glnbody, spirv, tests/check_gpu,
#    tests/check_run; on a machine without libEGL, libepoxy, the Debian
#    packages in .gl/ that tools/bench/env.sh unpacks)
set -u
source tools/bench/env.sh
source tools/bench/hermite_lib.sh
for t in check_gpu check_run; do
    tests/$t > "$OUT/$t.log" 2>&1
    echo "$t: exit $? -- $(grep -E '^[0-9]+%' "$OUT/$t.log")" >&2
done
echo "$HERMITE_CSV_HEADER" > "$OUT/hermite_time.csv"
for n in ${HERMITE_SIZES:-1024 4096 16384 65536 262144}; do
    run $n compute gpu 0.02 0.25
    run $n compute host 0.02 0.25
    [ $n -le 65536 ] && run $n fragment gpu 0.02 0.25
    [ $n -le 16384 ] && run $n fragment host 0.02 0.25
    [ $n -le 16384 ] && run $n cpu host 0.02 0.25
done | tee -a "$OUT/hermite_time.csv"
echo "$HERMITE_CSV_HEADER" > "$OUT/hermite_time_spin.csv"
for n in 16384 65536 262144; do
    OMP_WAIT_POLICY=active run $n compute gpu 0.02 0.25
    OMP_WAIT_POLICY=active run $n compute host 0.02 0.25
done | tee -a "$OUT/hermite_time_spin.csv"
