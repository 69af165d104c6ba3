#!/bin/bash
# usage: OUT=DIR bash tools/bench/block_step.sh   (on the GPU machine, from the project root)
# block_step.sh - the Hermite block step of `glnbody run --predict
# gpu` on the GPU machine: the GAJ, Hermite and inspector suites, then the
# same Plummer sphere at N = 16k, 64k and 256k, five runs each, with whole
# blocks, with blocks in pieces (GLNBODY_BLOCK_PIECES=auto: the host
# corrects piece k while the GPU computes the rest) and, where a baseline
# build is carried in build/old (glnbody, glsl/, spirv/ of an earlier
# commit), with that build.  BLOCK_VARIANTS="old:1 prev:1 new:1 new:4"
# names other BUILD:PIECES, each BUILD but new carried in build/BUILD;
# BLOCK_SIZES other N.  The runs are interleaved so that drifts of the card
# or host hit all alike; each row has the t_host/t_force/t_comm split
# (Portegies Zwart et al. 2007 eq. 10) and the force share t_force /
# (t_host + t_force + t_comm).  Then the GA benchmark of new and old.
# Run from the project root (about 5 minutes on an H100/H200):
#   OUT=DIR bash tools/bench/block_step.sh
#   (from a build of this tree: glnbody, spirv, tests/check_gpu,
#    tests/check_run_gpu, tests/check_precision, tests/check_render,
#    build/old; on a machine without libEGL, libepoxy, the Debian packages
#    in .gl/ that tools/bench/env.sh unpacks)
# ($OUT gets summary.txt, the suites' logs, block_step.csv and
# ga_bench_{new,old}.csv.)
set -u
source tools/bench/env.sh
source tools/bench/hermite_lib.sh
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"
for t in check_gpu check_run_gpu check_precision check_render; do
    [ -x tests/$t ] || continue
    tests/$t > "$OUT/$t.log" 2>&1
    echo "$t: exit $? -- $(grep -E '^[0-9]+%' "$OUT/$t.log")" | tee -a "$S" >&2
done
# BUILD:PIECES; BUILD is new (this tree) or a build/BUILD carried beside it
builds="new"
[ -x build/old/glnbody ] && builds="old new"
variants=${BLOCK_VARIANTS:-new:1 new:auto}
[ -z "${BLOCK_VARIANTS:-}" ] && [ -x build/old/glnbody ] && variants="old:1 $variants"
echo "build,pieces,rep,$HERMITE_CSV_HEADER,force_share" > "$OUT/block_step.csv"
for n in ${BLOCK_SIZES:-16384 65536 262144}; do
    t=0.25
    [ $n -ge 262144 ] && t=0.125
    for rep in 1 2 3 4 5; do
        for v in $variants; do
            b=${v%%:*} p=${v#*:}
            if [ $b != new ]; then
                row=$(cd build/$b && GLNBODY_SHADER_DIR=$PWD run $n compute gpu 0.02 $t)
            else
                row=$(GLNBODY_BLOCK_PIECES=$p run $n compute gpu 0.02 $t)
            fi
            echo "$b,$p,$rep,$row" | awk -F, '{ w = $12 + $13 + $14
                printf "%s,%.3f\n", $0, (w > 0 ? $13 / w : 0) }'
        done
    done
done | tee -a "$OUT/block_step.csv"
for b in $builds; do
    if [ $b = old ]; then
        (cd build/old && GLNBODY_SHADER_DIR=$PWD ./glnbody bench --kernel ga --backend compute \
            --n 16384,65536,262144 --quiet --csv "$OUT/ga_bench_old.csv" > /dev/null)
    else
        build/glnbody bench --kernel ga --backend compute --n 16384,65536,262144 --quiet \
            --csv "$OUT/ga_bench_new.csv" > /dev/null
    fi
done
