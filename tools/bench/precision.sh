#!/bin/bash
# usage: OUT=DIR bash tools/bench/precision.sh [reports|runs]   (on the GPU machine, from the project root)
# precision.sh - Narumi et al.'s report on the card: the precision test
# suites, then f_err, f_offset and interactions/s of every accumulation
# mode (Figs. 10-12) for each system and pipeline, as CSV in $OUT, and the
# accumulation modes in runs: Hermite block steps, MD on the device and
# the Newton's-third-law kernels in every mode.  Two parts, each well
# under the device's ten minutes a call ("reports", "runs"; default both,
# about 90 s on the H200).  From the project root:
#   OUT=DIR bash tools/bench/precision.sh reports
#   (from a build of this tree: glnbody, spirv, tests; on a machine without
#    libEGL, libepoxy, the Debian packages in .gl/ that tools/bench/env.sh
#    unpacks)
# then here: unpack precision_<part>.tgz and
#   tools/bench/plot_precision.sh <CSV> tools/results/archive/<name>.png "<pipeline>, H200"
set -u
part=${1:-all}
source tools/bench/env.sh
{
if [ "$part" != runs ]; then
for t in check_precision check_md_precision check_fragment_precision \
         check_gaj_precision check_md_cell_precision check_md_run_precision \
         check_triangular; do
    [ -x tests/$t ] || continue
    tests/$t > "$OUT/$t.log" 2>&1
    echo "$t: exit $? -- $(grep -E '^[0-9]+%' "$OUT/$t.log")"
done
report() {     # name, then glnbody precision options
    local name=$1
    shift
    echo "== $name"
    build/glnbody precision --runs 5 --warmup 1 --csv "$OUT/precision_$name.csv" "$@" 2>&1 |
        grep -v renderer
}
# GA: a Plummer sphere (compute, then the fragment pipeline, which runs on
# the few graphics multiprocessors of a Hopper card: a smaller N)
report plummer65536 --ic plummer --n 65536 --seed 1
report plummer16384_fragment --ic plummer --n 16384 --seed 1 --backend fragment
# Narumi et al.'s System 2 and the crystal of Boyarchenkov & Potashnikov
# 2009: all pairs, then cell lists
report lj16_65536 --ic lj16 --n 65536 --seed 1
report lj16_16384_fragment --ic lj16 --n 16384 --seed 1 --backend fragment
report ionic49152 --ic ionic --n 49152
report lj16_65536_rc2.5 --ic lj16 --n 65536 --seed 1 --cutoff 2.5
report ionic49152_rc3 --ic ionic --n 49152 --cutoff 3
fi
if [ "$part" != reports ]; then
# Hermite block steps (GAJ) in every mode with host prediction (G needs
# the double j-set), and A and H with device prediction; three runs each,
# since t_comm (wall less device time) varies from run to run
for mode in A B C D E F G H; do
    for pred in host gpu; do
        [ $pred = gpu ] && [ $mode != A ] && [ $mode != H ] && continue
        echo "== run precision $mode predict $pred"
        for r in 1 2 3; do
            build/glnbody run --ic plummer --n 16384 --t-end 0.125 --precision $mode \
                --predict $pred 2>&1 | grep -E "energy error|time split|variant"
        done
    done
done
# MD runs on the device (glnbody md --precision): LJ liquid, cell lists
# (16384 atoms) and all pairs (4000), per-phase device seconds
for kernel in cells pairs; do
    if [ $kernel = cells ]; then size="--cells 16"; list=on; else size="--cells 10"; list=off; fi
    for mode in A B D F H G; do
        echo "== md $kernel precision $mode"
        build/glnbody md --ic fcc $size --density 0.8442 --temperature 1 --seed 1 \
            --potential lj --cutoff 2.5 --shift --cells-list $list --dt 0.005 --steps 400 \
            --thermo-every 400 --precision $mode --timing "$OUT/md_${kernel}_$mode.csv" 2>&1 |
            grep -E "atom-steps|device seconds"
    done
done
# Newton's third law in every mode (Boyarchenkov & Potashnikov 2009's crystal, LJ fcc; G has no
# double pow for the ionic law)
for mode in A B C D E F G H; do
    if [ $mode != G ]; then
        echo "== newton3 ionic precision $mode"
        build/glnbody newton3 --ic ionic --cells 3,6,8,16 --precision $mode \
            --csv "$OUT/newton3_ionic_$mode.csv" 2>&1 | grep -v renderer
    fi
    echo "== newton3 fcc precision $mode"
    build/glnbody newton3 --ic fcc --cells 10 --precision $mode \
        --csv "$OUT/newton3_fcc_$mode.csv" 2>&1 | grep -v renderer
done
fi
} 2>&1 | tee "$OUT/device_precision_$part.txt"
# One archive: the device hands back only a few files.
cd "$OUT" && tar czf "precision_$part.tgz" --remove-files -- *.csv *.txt $(ls -- *.log 2>/dev/null)
