#!/bin/bash
# usage: bash tools/bench/g6_accuracy.sh [OUTDIR]     (OUTDIR defaults to $OUT)
#
# g6_accuracy.sh - libg6gl's accuracy and speed in each position format
# (GLNBODY_G6_POSITIONS=ds, the default, float and fixed64) and accumulation mode
# (GLNBODY_G6_PRECISION=A, H, G), beside Sapporo2 on the same particles
# where its benchmark is there.  One binary, tools/g6/g6_bench, measures
# both: `g6_bench --accuracy` the forces, jerks and potentials against a
# double direct sum (1024 sampled i-particles; without and with device
# prediction; eps^2 = 1e-4 and 1e-8), plain `g6_bench` the block steps
# (Sapporo2's protocol, median of G6ACC_REPEATS blocks after two
# unmeasured ones) for ni = 1, 16, 64 (time a block) and 1024, 4096, 16384
# (throughput), on glnbody's Plummer spheres of N = 16384, 65536, 262144.
#
# On the GPU machine, from the project root, with what was built here
# (make build/glnbody build/spirv.stamp build/tools/g6/g6_bench; on a
# machine without libEGL or libepoxy, the packages in .gl/ that
# tools/bench/env.sh unpacks):
#   OUT=DIR bash tools/bench/g6_accuracy.sh
# Sapporo2 too: its benchmark is taken from $SAPPORO2_BENCH, else from
# /tmp/sapporo2/g6_bench, which `bash tools/bench/sapporo2.sh` leaves
# there (run it first in the same command, after its --prepare here, and
# carry .peer/sapporo2).  Here (llvmpipe) it runs at small N:
#   G6ACC_N="2048 4096" G6ACC_REPEATS=5 bash tools/bench/g6_accuracy.sh /tmp/g6acc
# G6ACC_MODES (default "A H G") and G6ACC_POSITIONS (default "ds float
# fixed64") choose what libg6gl runs; G6ACC_BLOCKS (e.g. "1 64") adds
# accuracy rows for blocks of those sizes (256 sampled i-particles; the
# Sapporo2 benchmark then has to be built from this g6_bench.c, by
# sapporo2.sh --prepare here and --build there).  Mode A, ds, with
# Sapporo2, blocks of 1 and 64 too:
#   G6ACC_MODES=A G6ACC_POSITIONS=ds G6ACC_BLOCKS="1 64" OUT=DIR bash tools/bench/g6_accuracy.sh
# Writes into OUTDIR: accuracy.csv (code,positions,mode,n,sample,eps2,case,
# force_mean,force_max,jerk_mean,jerk_max,pot_mean,pot_max,block; block
# "all" for blocks of g6_npipes()), timing.csv
# (code,positions,mode,n,ni,us_per_block,interactions_per_s,us_set_j,
# us_firsthalf,us_lasthalf), g6_accuracy.log (the runs' messages), each CSV
# whole or not at all.  fixed64 needs GL_ARB_gpu_shader_int64: where a
# run of it fails, the log says why and the other formats go on.
set -u
die() { echo "g6_accuracy: $*" >&2; exit 1; }

out=${1:-${OUT:-}}
[ -n "$out" ] || die "no output directory: give one, or set OUT"
[ ! -e "$out" ] || [ -d "$out" ] || die "$out exists and is not a directory"
mkdir -p "$out" || die "cannot make $out"
for f in accuracy.csv timing.csv; do
    [ ! -e "$out/$f" ] || die "$out/$f exists: give an empty directory"
done
[ -x build/tools/g6/g6_bench ] && [ -x build/glnbody ] ||
    die "no build/tools/g6/g6_bench or build/glnbody: build them (make build/glnbody build/spirv.stamp build/tools/g6/g6_bench)"
if command -v nvidia-smi > /dev/null 2>&1; then     # the GPU machine: its GL loaders
    OUT=$out source tools/bench/env.sh > /dev/null
fi
export GLNBODY_SHADER_DIR=${GLNBODY_SHADER_DIR:-$PWD}
NS=${G6ACC_N:-16384 65536 262144}
REPEATS=${G6ACC_REPEATS:-7}
SAMPLE=${G6ACC_SAMPLE:-1024}
MODES=${G6ACC_MODES:-A H G}
POSITIONS=${G6ACC_POSITIONS:-ds float fixed64}
BLOCKS=${G6ACC_BLOCKS:-}
for b in $BLOCKS; do
    case $b in [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9]) ;;
        *) die "G6ACC_BLOCKS: '$b' is not a block size from 1 to 9999" ;; esac
done
for m in $MODES; do
    case $m in [A-H]) ;; *) die "G6ACC_MODES: '$m' is not a mode A to H" ;; esac
done
for p in $POSITIONS; do
    case $p in ds | float | fixed64) ;; *) die "G6ACC_POSITIONS: '$p' is not ds, float or fixed64" ;; esac
done
case $REPEATS in [5-9] | [1-9][0-9]) ;; *) die "G6ACC_REPEATS=$REPEATS: at least 5" ;; esac
sapporo_at=${SAPPORO2_BENCH:-/tmp/sapporo2/g6_bench}
sapporo=$sapporo_at
[ -x "$sapporo" ] || sapporo=
log=$out/g6_accuracy.log
tmp=$(mktemp -d) || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
echo "code,positions,mode,n,sample,eps2,case,force_mean,force_max,jerk_mean,jerk_max,pot_mean,pot_max,block" \
    > "$tmp/accuracy.csv"
echo "code,positions,mode,n,ni,us_per_block,interactions_per_s,us_set_j,us_firsthalf,us_lasthalf" \
    > "$tmp/timing.csv"

# plummer N FILE: glnbody's Plummer sphere (seed 1), as tools/bench/g6.sh makes it.
plummer() {
    build/glnbody run --ic plummer --n "$1" --seed 1 --t-end 0 --output "$2.snap" > /dev/null 2>&1 ||
        die "glnbody could not make the Plummer sphere of $1"
    { echo "$1"; grep -v '^#' "$2.snap" | awk '{ print $2, $3, $4, $5, $6, $7, $8 }'; } > "$2"
}

# measure CODE BINARY POSITIONS MODE N: both measurements, rows prefixed;
# returns 1, saying so, where a run fails (its rows are left out).
measure() {
    local code=$1 bin=$2 pos=$3 mode=$4 n=$5 in=$tmp/plummer_$5.txt eps2 rows block
    for eps2 in 1e-4 1e-8; do
        for block in all $BLOCKS; do
            local args="$SAMPLE"
            [ "$block" = all ] || args="256 $block"
            rows=$(GLNBODY_G6_POSITIONS=$pos GLNBODY_G6_PRECISION=$mode CUDA_VISIBLE_DEVICES=0 \
                   timeout 300 "$bin" --accuracy "$in" $eps2 $args 2>> "$log") || {
                echo "g6_accuracy: $code $pos $mode at N = $n: g6_bench --accuracy failed (see $log)" >&2
                return 1; }
            echo "$rows" | grep -E '^[0-9]+,' | sed "s/^/$code,$pos,$mode,/; s/\$/,$block/" |
                tee -a "$tmp/accuracy.csv"
        done
    done
    rows=$(GLNBODY_G6_POSITIONS=$pos GLNBODY_G6_PRECISION=$mode CUDA_VISIBLE_DEVICES=0 \
           timeout 300 "$bin" "$in" 1,16,64,1024,4096,16384 $REPEATS 2>> "$log") || {
        echo "g6_accuracy: $code $pos $mode at N = $n: g6_bench failed (see $log)" >&2
        return 1; }
    echo "$rows" | grep -E '^[0-9]+,[0-9]+,' | sed "s/^/$code,$pos,$mode,/" | tee -a "$tmp/timing.csv"
}

for n in $NS; do
    plummer "$n" "$tmp/plummer_$n.txt"
    for mode in $MODES; do
        for pos in $POSITIONS; do
            [ $mode = G ] && [ $pos != ds ] && continue     # G's pair terms are double
            measure libg6gl build/tools/g6/g6_bench $pos $mode "$n" || [ $pos = fixed64 ] ||
                die "libg6gl $pos $mode failed at N = $n"
        done
    done
    # Sapporo2 has one format (double-single) and one mode (float sums)
    if [ -n "$sapporo" ]; then
        measure sapporo2 "$sapporo" ds - "$n" || die "Sapporo2 failed at N = $n"
    fi
done
[ -n "$sapporo" ] || echo "g6_accuracy: no Sapporo2 benchmark at $sapporo_at: libg6gl only" >&2
mv "$tmp/accuracy.csv" "$tmp/timing.csv" "$out/" || die "cannot write into $out"
echo "g6_accuracy: $out/accuracy.csv, $out/timing.csv"
