#!/bin/bash
# device_precision.sh - seed 004's report on the card: the precision test
# suites, then f_err, f_offset and interactions/s of every accumulation
# mode (Figs. 10-12) for each system and pipeline, as CSV in $OUT, and the
# Hermite integration in modes A and H.  Run from the project root:
#   run(command="bash tools/device_precision.sh", kind="nvidia-h200",
#       carry=[".gl", "glnbody", "spirv", "tests/check_precision",
#              "tests/check_md_precision", "tests/check_fragment_precision",
#              "tests/check_gaj_precision", "tests/check_md_cell_precision"])
# then here: unpack precision_results.tgz and
#   tools/plot_precision.sh <CSV> tools/results/<name>.png "<pipeline>, H200"
set -u
source tools/device_env.sh
for t in check_precision check_md_precision check_fragment_precision \
         check_gaj_precision check_md_cell_precision; do
    [ -x tests/$t ] || continue
    tests/$t > "$OUT/$t.log" 2>&1
    echo "$t: exit $? -- $(grep -E '^[0-9]+%' "$OUT/$t.log")"
done
report() {     # name, then glnbody precision options
    local name=$1
    shift
    echo "== $name"
    ./glnbody precision --runs 5 --warmup 1 --csv "$OUT/precision_$name.csv" "$@" 2>&1 |
        grep -v renderer
}
# GA: a Plummer sphere (compute, then the fragment pipeline, which runs on
# the few graphics multiprocessors of a Hopper card: a smaller N)
report plummer65536 --ic plummer --n 65536 --seed 1
report plummer16384_fragment --ic plummer --n 16384 --seed 1 --backend fragment
# seed 004's System 2 and seed 003's crystal: all pairs, then cell lists
report lj16_65536 --ic lj16 --n 65536 --seed 1
report lj16_16384_fragment --ic lj16 --n 16384 --seed 1 --backend fragment
report ionic49152 --ic ionic --n 49152
report lj16_65536_rc2.5 --ic lj16 --n 65536 --seed 1 --cutoff 2.5
report ionic49152_rc3 --ic ionic --n 49152 --cutoff 3
# Hermite block steps (GAJ) in modes A and H, host and device prediction
for mode in A H; do
    for pred in host gpu; do
        echo "== run precision $mode predict $pred"
        ./glnbody run --ic plummer --n 16384 --t-end 0.125 --precision $mode \
            --predict $pred 2>&1 | grep -E "energy error|time split|variant"
    done
done
# One archive: the device hands back only a few files.
(cd "$OUT" && tar czf precision_results.tgz ./*.csv ./*.log && rm -f ./*.csv ./*.log)
