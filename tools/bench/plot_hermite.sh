#!/bin/sh
# usage: bash tools/bench/plot_hermite.sh ETA_CSV TIME_CSV MODEL_DAT OUT_PREFIX
# plot_hermite.sh ETA_CSV TIME_CSV MODEL_DAT OUT_PREFIX - the Hermite
# reports as PNG (gnuplot): |dE/E| after one time unit against eta per
# backend and N (Portegies Zwart et al. 2007 Fig. 2), and seconds per N-body time unit
# against N, measured points and the fitted model of
# tools/bench/fit_hermite_model.py (Portegies Zwart et al. 2007 Fig. 3).
set -eu
eta_csv=$1 time_csv=$2 model=$3 out=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -F, -v dir="$work" 'FNR > 1 && $6 != "" {
        v = $6 < 0 ? -$6 : $6
        print $4, v >> (dir "/eta_" $1 "_" $2 "_" $3 ".dat") }' "$eta_csv"
awk -F, -v dir="$work" 'FNR > 1 && $12 != "" {
        print $1, ($9 + $10 + $11) / $5 >> (dir "/time_" $2 "_" $3 ".dat") }' "$time_csv"
models() {   # the model curves, named by their "# name" lines
    k=0 plots=""
    for name in $(sed -n 's/^# //p' "$model"); do
        plots="$plots${plots:+, }'$model' index $k using 1:2 with lines dt 2 title 'model $name'"
        k=$((k + 1))
    done
    echo "$plots"
}
series() {   # prefix -> gnuplot plot list
    plots=""
    for f in "$work"/"$1"_*.dat; do
        name=$(basename "$f" .dat | sed "s/^$1_//")
        plots="$plots${plots:+, }'$f' using 1:2 with linespoints title '$name'"
    done
    echo "$plots"
}
gnuplot <<GP
set terminal pngcairo size 900,600 font ",10" noenhanced
set logscale xy
set grid
set key outside right
set output "${out}_energy.png"
set title "Plummer sphere, one N-body time unit, softening 0.01: |dE/E| against eta (N_backend_predict)"
set xlabel "eta"
set ylabel "|E(1) - E(0)| / |E(0)|"
plot $(series eta)
set output "${out}_time.png"
set title "Seconds per N-body time unit (t_host + t_force + t_comm), eta 0.02; lines: fitted model"
set xlabel "N"
set ylabel "seconds per time unit"
plot $(series time), $(models)
GP
echo "plot_hermite: wrote ${out}_energy.png ${out}_time.png"
