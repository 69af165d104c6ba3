#!/bin/sh
# usage: bash tools/bench/plot_precision.sh CSV OUT.png [LABEL]
# plot_precision.sh CSV OUT.png [LABEL] - Narumi et al. Figs. 10-12 for one
# system from `glnbody precision --csv`: f_err, f_offset (0 drawn at 1e-20)
# and interactions/s per accumulation mode, three panels (gnuplot).  LABEL
# (e.g. "fragment pipeline, H200") goes into the title.  Modes refused for
# the system (no row) are left out.
set -eu
csv=$1 out=$2 label=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The system name is quoted and may hold a comma ("ionic, cutoff 3").
sed -E 's/"([^",]*), ([^"]*)"/"\1 \2"/' "$csv" > "$work/rows.csv"
awk -F, 'NR > 1 { off = $6 > 0 ? $6 : 1e-20; print NR - 2, $4, $5, off, $10 }' \
    "$work/rows.csv" > "$work/rows.dat"
system=$(awk -F, 'NR == 2 { gsub(/"/, "", $1); print $1 ", N = " $2; exit }' "$work/rows.csv")
[ -n "$label" ] && system="$system, $label"
gnuplot <<GP
set terminal pngcairo size 1200,400 font ",10" noenhanced
set output "$out"
set multiplot layout 1,3 title "Accumulation modes (Narumi et al., Table 1), $system"
set style fill solid 0.6
set boxwidth 0.6
set grid ytics
set logscale y
set xtics ()
set xrange [-0.7:*]
set title "f_err (eq. 10) against the CPU in double"
plot "$work/rows.dat" using 1:3:xtic(2) with boxes notitle
set title "f_offset (eq. 11); 0 drawn at 1e-20"
plot "$work/rows.dat" using 1:4:xtic(2) with boxes notitle
set title "interactions/s (median, GL timer)"
plot "$work/rows.dat" using 1:5:xtic(2) with boxes notitle
unset multiplot
GP
echo "plot_precision: wrote $out"
