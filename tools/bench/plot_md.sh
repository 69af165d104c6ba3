#!/bin/sh
# usage: bash tools/bench/plot_md.sh SCALING.csv IONIC.csv OUTDIR
# plot_md.sh SCALING.csv IONIC.csv OUTDIR - the MD device report as PNGs
# (gnuplot), from tools/bench/md.sh's CSVs:
#   md_scaling.png  ETH Zürich HPCSE I 2013 Figures 7 and 9: atom-steps/s and seconds per
#                   step against N, compute with cell lists, compute all
#                   pairs, fragment all pairs, CPU with cell lists;
#   md_kernels.png  ETH Zürich HPCSE I 2013 Table 1: seconds per step in K1, cell-list
#                   build, forces and K2 (compute, cell lists);
#   md_ionic.png    Boyarchenkov & Potashnikov 2009 Table 4: seconds per step and per pair
#                   interaction of the ionic crystals (all pairs, open).
set -eu
scaling=$1 ionic=$2 out=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for kind in compute_cells compute_pairs fragment_pairs cpu_cells; do
    b=${kind%_*} k=${kind#*_}
    awk -F, -v b="$b" -v k="$k" 'NR > 1 && $2 == b && $3 == k {
        print $4, $7, $6 / $5, $8 / $5, $9 / $5, $10 / $5, $11 / $5 }' "$scaling" \
        | sort -n > "$work/$kind.dat"
done
for b in compute cpu; do
    awk -F, -v b="$b" 'NR > 1 && $2 == b { n = $4; s = $6 / $5;
        print n, s, s / (n * (n - 1)) }' "$ionic" | sort -n > "$work/ionic_$b.dat"
done
gnuplot <<GP
set terminal pngcairo size 1200,450 font ",10" noenhanced
set output "$out/md_scaling.png"
set multiplot layout 1,2 title "LJ liquid, rho 0.8442, rc 2.5 (ETH Zürich HPCSE I 2013, Figs. 7 and 9)"
set logscale xy
set grid
set key top left
set xlabel "atoms N"
set ylabel "atom-steps / s"
plot "$work/compute_cells.dat" u 1:2 w lp t "compute, cell lists", \
     "$work/compute_pairs.dat" u 1:2 w lp t "compute, all pairs", \
     "$work/fragment_pairs.dat" u 1:2 w lp t "fragment, all pairs", \
     "$work/cpu_cells.dat" u 1:2 w lp t "CPU, cell lists"
set ylabel "seconds per step"
plot "$work/compute_cells.dat" u 1:3 w lp t "compute, cell lists", \
     "$work/compute_pairs.dat" u 1:3 w lp t "compute, all pairs", \
     "$work/fragment_pairs.dat" u 1:3 w lp t "fragment, all pairs", \
     "$work/cpu_cells.dat" u 1:3 w lp t "CPU, cell lists"
unset multiplot
set output "$out/md_kernels.png"
set title "Device seconds per step by kernel, compute pipeline with cell lists (ETH Zürich HPCSE I 2013, Table 1)"
set ylabel "seconds per step"
plot "$work/compute_cells.dat" u 1:4 w lp t "K1 (kick, drift, wrap)", \
     "$work/compute_cells.dat" u 1:5 w lp t "cell lists (hash, scan, place, sort, gather)", \
     "$work/compute_cells.dat" u 1:6 w lp t "forces (27 cells)", \
     "$work/compute_cells.dat" u 1:7 w lp t "K2 (kick)"
set output "$out/md_ionic.png"
unset title
set multiplot layout 1,2 title "Ionic crystals, open boundaries, all pairs (Boyarchenkov & Potashnikov 2009, Table 4)"
set ylabel "seconds per step"
set xlabel "ions N"
plot "$work/ionic_compute.dat" u 1:2 w lp t "compute", "$work/ionic_cpu.dat" u 1:2 w lp t "CPU"
set ylabel "seconds per pair interaction"
plot "$work/ionic_compute.dat" u 1:3 w lp t "compute", "$work/ionic_cpu.dat" u 1:3 w lp t "CPU", \
     1.1e-10 w l dt 2 t "GeForce 8800 GTX (Boyarchenkov & Potashnikov 2009)"
unset multiplot
GP
echo "plot_md: $out/md_scaling.png $out/md_kernels.png $out/md_ionic.png"
