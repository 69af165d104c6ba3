#!/bin/bash
# usage: OUT=DIR bash tools/bench/newton3.sh   (on the GPU machine, from the project root)
# newton3.sh - Boyarchenkov & Potashnikov 2009's Table 5 on the card: the
# triangular-kernel test suite, then median device seconds, pairs/s and the
# speed-up over the square loop of every variant on Boyarchenkov & Potashnikov 2009's fluorite
# crystal (open box, all pairs): the one-work-group variants from N = 324
# (3^3 cells, the seed's size) to 6144, the whole-GPU ones to 96000, and
# the whole-GPU ones on an open LJ fcc lattice.  Variants a size exceeds
# (tri3-wg above 2048, tri1/tri2 pair matrices over the storage-block
# limit, -wg above 16384) are skipped with the reason in the logs.  Run
# from the project root:
#   OUT=DIR bash tools/bench/newton3.sh
#   (from a build of this tree: glnbody, spirv, tests/check_triangular; on a
#    machine without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
# Writes $OUT/check_triangular.log, $OUT/newton3_{wg,gpu,lj}.csv and .log.
set -u
source tools/bench/env.sh
if [ -x build/tests/check_triangular ]; then
    build/tests/check_triangular > "$OUT/check_triangular.log" 2>&1
    echo "check_triangular: exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_triangular.log")"
fi

# One newton3 call: label, then its arguments; table on stdout, CSV in $OUT.
newton3() {
    local label=$1; shift
    timeout 300 build/glnbody newton3 --runs 7 --warmup 2 --csv "$OUT/newton3_$label.csv" "$@" \
        > "$OUT/newton3_$label.log" 2>&1
    echo "newton3 $label: exit $?"
    grep -v renderer "$OUT/newton3_$label.log"
}
# cells -> ions: 3 -> 324, 4 -> 768, 5 -> 1500, 6 -> 2592, 8 -> 6144,
# 12 -> 20736, 16 -> 49152, 20 -> 96000
newton3 wg --ic ionic --cells 3,4,5,6,8 --variants square-wg,tri1-wg,tri2-wg,tri3-wg
newton3 gpu --ic ionic --cells 3,4,6,8,12,16,20 \
    --variants square-gpu,lean-gpu,tri1-gpu,tri2-gpu,tri3-gpu
# fcc cells -> atoms: 10 -> 4000, 16 -> 16384, 25 -> 62500
newton3 lj --ic fcc --cells 10,16,25 --variants square-gpu,lean-gpu,tri1-gpu,tri2-gpu,tri3-gpu
