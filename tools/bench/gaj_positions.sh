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
# Then `glnbody run` of a Plummer sphere of GAJPOS_ENERGY_N (65536) to
# t = GAJPOS_ENERGY_T (1) on the compute engine with --predict gpu --correct
# gpu in each format: its energy error and time split (GAJPOS_ENERGY_N=0
# skips it; here GAJPOS_ENERGY_N=1024 GAJPOS_ENERGY_T=0.125).
# Writes OUTDIR/gaj_positions.csv (engine,positions,n,seconds,
# interactions_per_s,err_a_max,err_phi_max,err_jerk_max,err_a_binary,
# err_jerk_binary,renderer,note; a format an engine refuses has its message
# in note) and OUTDIR/gaj_positions_energy.csv (positions,n,t_end,de_rel,
# t_force,t_comm,wall), each whole or not at all, and gaj_positions.log.
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
cat "$csv"
en=${GAJPOS_ENERGY_N:-65536} et=${GAJPOS_ENERGY_T:-1}
[ "$en" = 0 ] && { trap - EXIT; exit 0; }
echo "positions,n,t_end,de_rel,t_force,t_comm,wall" > "$tmp"
for fmt in float ds; do
    summary=$(build/glnbody run --n "$en" --t-end "$et" --predict gpu --correct gpu \
              --positions "$fmt" 2>> "$log") ||
        { echo "gaj_positions.sh: glnbody run --positions $fmt failed (see $log)" >&2; exit 1; }
    echo "$summary" >> "$log"
    de=$(echo "$summary" | sed -n 's/.*(E - E0)\/|E0| = \([^,]*\),.*/\1/p')
    tf=$(echo "$summary" | sed -n 's/.*t_force \([0-9.e+-]*\) s.*/\1/p')
    tc=$(echo "$summary" | sed -n 's/.*t_comm \([0-9.e+-]*\) s.*/\1/p')
    wall=$(echo "$summary" | sed -n 's/.*; wall \([0-9.e+-]*\) s.*/\1/p')
    [ -n "$de" ] && [ -n "$tf" ] && [ -n "$wall" ] ||
        { echo "gaj_positions.sh: no energy error in the run's summary (see $log)" >&2; exit 1; }
    echo "$fmt,$en,$et,$de,$tf,$tc,$wall" >> "$tmp"
done
mv "$tmp" "$out/gaj_positions_energy.csv"
trap - EXIT
cat "$out/gaj_positions_energy.csv"
