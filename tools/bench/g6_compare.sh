#!/bin/bash
# usage: OUT=DIR bash tools/bench/g6_compare.sh   (on the GPU machine, from the project root)
# g6_compare.sh - this tree against an earlier build, on the GPU
# machine: the GAJ, Hermite and g6 suites, then, with the two
# builds' runs interleaved so that drifts of the card hit both alike,
#   g6_bench.csv: a block step through the GRAPE-6 interface (Sapporo2's
#     protocol, tools/g6/g6_bench.c: the ni corrected j-particles sent,
#     g6_set_ti, firsthalf + lasthalf; median of 21 blocks), G6_REPS times;
#   runs.csv: the same Plummer sphere, eta, eps and dt_max integrated by
#     `glnbody run --predict gpu` (its t_host/t_force/t_comm split,
#     Portegies Zwart et al. 2007 eq. 10) and by tests/g6_driver through
#     the g6 interface (the wall seconds inside its g6 calls), G6_REPS times.
# Every other build is a folder of build/ (G6_BUILDS=DIR: of DIR) that
# holds g6_bench: g6_driver and g6_bench of a variant or an earlier commit
# (built with `make` in a clone of it), and where it has them, its
# glnbody (then also run) and its glsl/ and spirv/ (else it reads this
# tree's).  build/prof is not one: where its g6_driver is there (a build
# that times the phases of a block step and prints "PROF ..." on stderr),
# summary.txt gets its lines.  G6_REPS sets the rounds (3).  Run from the
# project root (about 3 minutes a build on an H100/H200):
#   OUT=DIR bash tools/bench/g6_compare.sh
#   (from a build of this tree: glnbody, spirv, tests/check_gpu,
#    tests/check_g6, tests/g6_driver, build/tools/g6/g6_bench, build/old; on a
#    machine without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
# (eight paths at most: G6_BUILDS=build/cmp with old/ and prof/ in it
# carries both as one.)  G6_SIZES and G6_NI pick other N
# and block sizes.
set -u
source tools/bench/env.sh
source tools/bench/hermite_lib.sh
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"
for t in check_gpu check_run_gpu check_g6; do
    [ -x tests/$t ] || continue
    NB_TEST_SEED=11 tests/$t > "$OUT/$t.log" 2>&1
    echo "$t: exit $? -- $(grep -E '^[0-9]+%' "$OUT/$t.log")" | tee -a "$S" >&2
done
sizes=${G6_SIZES:-16384 65536 262144}
B=${G6_BUILDS:-build}    # where old/ (and prof/) are
reps=${G6_REPS:-3}
builds=""
for d in $B/*/; do
    b=$(basename "$d")
    [ "$b" != prof ] && [ -x "$d/g6_bench" ] && builds="$builds $b"
done
builds="$builds new"

# in BUILD: run the rest of the line with that build's binaries and shaders
in_build() {
    local b=$1
    shift
    local shaders=$PWD
    [ -d $B/$b/glsl ] && shaders=$PWD/$B/$b
    if [ $b = new ]; then
        "$@"
    else
        (cd $B/$b && GLNBODY_SHADER_DIR=$shaders "$@")
    fi
}
# plummer N FILE: glnbody's Plummer sphere (seed 1) as the g6 programs read it
plummer() {
    build/glnbody run --ic plummer --n "$1" --seed 1 --t-end 0 --output "$2.snap" > /dev/null 2>&1
    { echo "$1"; grep -v '^#' "$2.snap" | awk '{ print $2, $3, $4, $5, $6, $7, $8 }'; } > "$2"
}
bin_of() {   # build program: the path to run from inside in_build
    if [ $1 = new ]; then
        case $2 in g6_bench) echo build/tools/g6/g6_bench ;; g6_driver) echo build/tests/g6_driver ;;
                   *) echo build/glnbody ;; esac
    else
        case $2 in glnbody) echo build/glnbody ;; *) echo ./$2 ;; esac
    fi
}

echo "build,rep,n,ni,us_per_block,interactions_per_s,us_set_j,us_firsthalf,us_lasthalf" > "$OUT/g6_bench.csv"
for n in $sizes; do
    plummer $n /tmp/plummer_$n.txt
    ni=${G6_NI:-1,4,16,32,48,64,128,256,1024,4096,16384}
    [ $n -ge 262144 ] && ni=$ni,65536
    for rep in $(seq $reps); do
        for b in $builds; do
            in_build $b $(bin_of $b g6_bench) /tmp/plummer_$n.txt $ni 21 2>> "$S" |
                tail -n +2 | sed "s/^/$b,$rep,/"
        done
    done
done | tee -a "$OUT/g6_bench.csv"

echo "build,rep,code,n,block_steps,particle_steps,t_host,t_force,t_comm,g6_seconds" \
    > "$OUT/runs.csv"
for n in $sizes; do
    t=0.25
    [ $n -ge 262144 ] && t=0.125
    for rep in $(seq $reps); do
        for b in $builds; do
            if [ $b = new ] || [ -x $B/$b/glnbody ]; then
                out=$(in_build $b $(bin_of $b glnbody) run --ic plummer --n $n --seed 1 \
                      --eta 0.02 --softening 0.01 --dt-max 0.125 --t-end $t \
                      --backend compute --predict gpu 2>&1)
                echo "$out" | summary | awk -v b=$b -v r=$rep -v n=$n '{
                    printf "%s,%s,glnbody-run,%s,%s,%s,%s,%s,%s,\n", b, r, n, $2, $3, $4, $5,
                           $6 }'
            fi
            r=$(in_build $b $(bin_of $b g6_driver) /tmp/plummer_$n.txt /tmp/out_$n.txt $t \
                0.02 0.01 0.125 2>&1)
            echo "$r" | awk -v b=$b -v r=$rep -v n=$n '/^blocks/ {
                printf "%s,%s,g6_driver,%s,%s,%s,,,,%s\n", b, r, n, $2, $4, $8 }'
        done
    done
done | tee -a "$OUT/runs.csv"

if [ -x $B/prof/g6_driver ]; then
    for n in $sizes; do
        t=0.25
        [ $n -ge 262144 ] && t=0.125
        $B/prof/g6_driver /tmp/plummer_$n.txt /tmp/out_$n.txt $t 0.02 0.01 0.125 2>&1 |
            sed "s/^/prof $n: /" >> "$S"
    done
fi
