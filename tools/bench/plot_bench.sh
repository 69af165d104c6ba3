#!/bin/sh
# usage: bash tools/bench/plot_bench.sh OUT.png CSV...
# plot_bench.sh OUT.png CSV... - interactions/s against N, one line per
# backend and variant (the j-split suffixes -sS, -rR-pP are dropped, since
# the automatic split changes with N), in the manner of Elsen et al. 2006 Fig. 1.
# Needs gnuplot (Debian package gnuplot-nox).
set -eu
png=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# CSV columns: n,backend,variant,"renderer",median_s,interactions_per_s,...
awk -F, -v dir="$work" 'FNR > 1 {
        v = $3; sub(/-[sr][0-9].*$/, "", v)
        key = $2 "_" v
        print $1, $(NF - 3) >> (dir "/" key ".dat")
        if ($2 != "cpu" && title == "") title = $4
    } END { print title > (dir "/renderer") }' "$@"
renderer=$(sed 's/"//g' "$work/renderer")
plots=""
for f in "$work"/*.dat; do
    name=$(basename "$f" .dat)
    sort -n "$f" -o "$f"
    plots="$plots${plots:+, }'$f' using 1:2 with linespoints title '$name'"
done
gnuplot <<GP
set terminal pngcairo size 1000,650 font ",10" noenhanced
set output "$png"
set logscale xy
set xlabel "N (particles)"
set ylabel "interactions / s"
set title "GA kernel (acceleration + potential), $renderer"
set key outside right
set grid
plot $plots
GP
echo "plot_bench: wrote $png"
