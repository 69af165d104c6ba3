#!/bin/bash
# usage: bash tools/bench/gaj_positions.sh [OUTDIR]    (OUTDIR defaults to $OUT)
#
# gaj_positions.sh - the Hermite GAJ kernel of glnbody run in each position
# format (--positions ds and float): the device seconds of one block of
# all N particles (median of GAJPOS_RUNS after a warm-up) on the compute
# and fragment engines, and the force, potential and jerk errors against
# the double CPU GAJ (1024 sampled particles plus a hard binary and a far
# close pair; tools/bench/gaj_positions.c), at N = 16384, 65536, 262144.
#
# On the GPU machine, from the project root, with what was built here
# (make build/glnbody build/spirv.stamp build/tools/gaj_positions; the
# packages in .gl/ that tools/bench/env.sh unpacks):
#   OUT=DIR bash tools/bench/gaj_positions.sh
# Here (llvmpipe) at small N:
#   GAJPOS_N=2048 GAJPOS_RUNS=3 bash tools/bench/gaj_positions.sh /tmp/gajpos
# Writes OUTDIR/gaj_positions.csv (engine,positions,n,seconds,
# interactions_per_s,err_a_max,err_phi_max,err_jerk_max,err_a_binary,
# err_jerk_binary,renderer,note; a format an engine refuses has its message
# in note) whole or not at all, and gaj_positions.log.
set -u
out=${1:-${OUT:-}}
[ -n "$out" ] || { echo "gaj_positions.sh: give OUTDIR or set OUT" >&2; exit 2; }
bin=build/tools/gaj_positions
[ -x "$bin" ] || { echo "gaj_positions.sh: $bin is missing: make $bin" >&2; exit 1; }
if [ -d .gl ]; then OUT=$out source tools/bench/env.sh; fi
mkdir -p "$out"
export GLNBODY_SHADER_DIR=${GLNBODY_SHADER_DIR:-$PWD}
csv=$out/gaj_positions.csv log=$out/gaj_positions.log
tmp=$(mktemp "$out/.gaj_positions.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$bin" --header > "$tmp"
: > "$log"
status=0
for n in ${GAJPOS_N:-16384 65536 262144}; do
    for engine in compute fragment; do
        for fmt in float ds; do
            if ! "$bin" "$n" "$engine" "$fmt" "${GAJPOS_RUNS:-5}" >> "$tmp" 2>> "$log"; then
                echo "gaj_positions.sh: N = $n $engine $fmt failed (see $log)" >&2
                status=1
            fi
        done
    done
done
[ "$status" = 0 ] || exit 1
mv "$tmp" "$csv"
trap - EXIT
column -s, -t < "$csv"
