#!/bin/bash
# device_precision.sh - seed 004's report on the card: the precision test
# suite, then f_err, f_offset and interactions/s of every accumulation mode
# for a Plummer sphere of N = 65536 (GA), as CSV in $OUT.  Run from the
# project root:
#   run(command="bash tools/device_precision.sh",
#       carry=[".gl", "glnbody", "spirv", "tests/check_precision",
#              "tests/check_md_precision"])
# then here: tools/plot_precision.sh <fetched CSV> tools/results/precision_h200.png
set -u
source tools/device_env.sh
tests/check_precision > "$OUT/check_precision.log" 2>&1
echo "check_precision: exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_precision.log")"
./glnbody precision --ic plummer --n 65536 --seed 1 --runs 5 --warmup 1 \
    --csv "$OUT/precision_plummer65536.csv" 2>&1 | grep -v renderer
# seed 004's System 2 and seed 003's crystal (16^3 cells, 49152 ions), on
# the MD all-pairs kernel
if [ -x tests/check_md_precision ]; then
    tests/check_md_precision > "$OUT/check_md_precision.log" 2>&1
    echo "check_md_precision: exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_md_precision.log")"
fi
./glnbody precision --ic lj16 --n 65536 --seed 1 --runs 5 --warmup 1 \
    --csv "$OUT/precision_lj16_65536.csv" 2>&1 | grep -v renderer
./glnbody precision --ic ionic --n 49152 --runs 5 --warmup 1 \
    --csv "$OUT/precision_ionic49152.csv" 2>&1 | grep -v renderer
