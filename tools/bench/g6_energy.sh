#!/bin/bash
# usage: OUT=DIR bash tools/bench/g6_energy.sh     (N, T_END, MODE, FORMATS in the environment)
#
# g6_energy.sh - the energy error of a Hermite run through libg6gl in each
# position format (GLNBODY_G6_POSITIONS): tests/g6_driver, a block-step
# code that talks to the GRAPE-6 calls alone, integrates glnbody's Plummer
# sphere (seed 1) to T_END with eta 0.02, softening 0.01 and dt_max 0.125;
# the energies at the start and at T_END are exact sums in double on the
# CPU (`glnbody run --backend cpu --t-end 0 --energy-log`).
# Defaults: N=65536 T_END=1 MODE=A FORMATS="ds float".  From a build of
# this tree (make build/glnbody build/tests/g6_driver); on the GPU machine,
# tools/bench/env.sh sets up the carried GL loaders.  Here, on llvmpipe:
#   N=512 T_END=0.25 OUT=/tmp/g6e bash tools/bench/g6_energy.sh
# Writes $OUT/g6_energy.csv: format,mode,n,t_end,e0,e1,de_rel,block_steps,
# seconds (the driver's wall seconds in its block steps).
set -u
die() { echo "g6_energy: $*" >&2; exit 1; }
[ -n "${OUT:-}" ] || die "set OUT to an output directory"
N=${N:-65536} T_END=${T_END:-1} MODE=${MODE:-A} FORMATS=${FORMATS:-ds float}
[ -x build/glnbody ] && [ -x build/tests/g6_driver ] ||
    die "no build/glnbody or build/tests/g6_driver: make build/glnbody build/tests/g6_driver"
if command -v nvidia-smi > /dev/null 2>&1; then
    source tools/bench/env.sh > /dev/null
fi
mkdir -p "$OUT" || die "cannot make $OUT"
[ ! -e "$OUT/g6_energy.csv" ] || die "$OUT/g6_energy.csv exists: give an empty directory"
tmp=$(mktemp -d) || die "no temporary directory"
trap 'rm -rf "$tmp"' EXIT

# energy SNAPSHOT: the total energy, a double direct sum on the CPU.
energy() {
    build/glnbody run --input "$1" --t-end 0 --backend cpu --softening 0.01 \
        --energy-log "$tmp/e.csv" > /dev/null 2>&1 || die "glnbody could not read $1"
    awk -F, 'NR == 2 { print $4 }' "$tmp/e.csv"
    rm -f "$tmp/e.csv"
}

build/glnbody run --ic plummer --n "$N" --seed 1 --t-end 0 --output "$tmp/p.snap" \
    > /dev/null 2>&1 || die "glnbody could not make the Plummer sphere of $N"
{ echo "$N"; grep -v '^#' "$tmp/p.snap" | awk '{ print $2, $3, $4, $5, $6, $7, $8 }'; } > "$tmp/in.txt"
e0=$(energy "$tmp/p.snap")
echo "format,mode,n,t_end,e0,e1,de_rel,block_steps,seconds" > "$tmp/g6_energy.csv"
for format in $FORMATS; do
    GLNBODY_G6_POSITIONS=$format GLNBODY_G6_PRECISION=$MODE \
        build/tests/g6_driver "$tmp/in.txt" "$tmp/out.txt" "$T_END" 0.02 0.01 0.125 \
        > "$tmp/driver.txt" 2> "$tmp/driver.err" ||
        die "g6_driver failed in format $format: $(tail -1 "$tmp/driver.err")"
    { echo "# final state"; paste -d' ' <(grep -v '^#' "$tmp/p.snap" | awk '{ print $1, $2 }') \
          "$tmp/out.txt"; } > "$tmp/f.snap"
    e1=$(energy "$tmp/f.snap")
    # "blocks B particle_steps P wall W g6 G ..."
    read -r _ steps _ _ _ seconds _ < "$tmp/driver.txt"
    awk -v f="$format" -v m="$MODE" -v n="$N" -v t="$T_END" -v a="$e0" -v b="$e1" \
        -v s="$steps" -v w="$seconds" \
        'BEGIN { printf "%s,%s,%s,%s,%.17g,%.17g,%.3e,%s,%s\n", f, m, n, t, a, b, (b - a) / (a < 0 ? -a : a), s, w }' \
        | tee -a "$tmp/g6_energy.csv"
done
mv "$tmp/g6_energy.csv" "$OUT/" || die "cannot write $OUT/g6_energy.csv"
