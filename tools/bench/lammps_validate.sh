#!/bin/bash
# usage: bash tools/bench/lammps_validate.sh [OUTDIR]
# lammps_validate.sh [OUTDIR] - validation against LAMMPS: an fcc LJ liquid
# (500 atoms, rho 0.8442, T0 1.44, rc 2.5 shifted, dt 0.005) run from the
# same initial LAMMPS dump by LAMMPS (Debian package lammps, `lmp`) and by
# glnbody md on the cpu and compute backends; thermo rows every 10 steps.
# Writes OUTDIR/lammps_thermo.csv (step, then temp/pe/etotal/press of each
# code), OUTDIR/lammps_compare.txt (the differences) and lammps_thermo.png.
set -eu
out=${1:-tools/results/archive}
steps=${STEPS:-2000}
backends=${BACKENDS:-cpu compute}
command -v lmp >/dev/null || { echo "lammps_validate: lmp not found (apt-get install lammps)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common="--potential lj --cutoff 2.5 --shift --dt 0.005 --thermo-every 10"

build/glnbody md --backend cpu --ic fcc --cells 5 --density 0.8442 --temperature 1.44 --seed 7 \
    $common --steps 0 --dump "$work/init.dump" --dump-every 1 --thermo "$work/t0.csv" > /dev/null
len=$(awk '/ITEM: BOX BOUNDS/ { getline; print $2; exit }' "$work/init.dump")

cat > "$work/in.lj" <<LMP
units lj
atom_style atomic
boundary p p p
region box block 0 $len 0 $len 0 $len
create_box 1 box
mass 1 1.0
read_dump $work/init.dump 0 x y z vx vy vz box yes add keep
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
pair_modify shift yes
neighbor 0.3 bin
neigh_modify every 1 delay 0 check yes
fix 1 all nve
timestep 0.005
thermo_style custom step time temp pe ke etotal press
thermo_modify norm no format float %.15g
thermo 10
run $steps
LMP
(cd "$work" && lmp -in in.lj -log log.lammps -screen none) || { tail -5 "$work/log.lammps" >&2; exit 1; }
awk 'BEGIN { OFS = "," } /^ *Step +Time +Temp/ { on = 1; print "step,time,temp,pe,ke,etotal,press"; next }
     /^Loop time/ { on = 0 } on && NF == 7 { $1 = $1; print }' "$work/log.lammps" > "$work/lammps.csv"

for b in $backends; do
    build/glnbody md --backend "$b" --input "$work/init.dump" $common --steps "$steps" \
        --thermo "$work/$b.csv" > "$work/$b.log"
    grep -E "atoms|steps of" "$work/$b.log"
done

# step, then temp pe etotal press of lammps and of each backend.
files="$work/lammps.csv"
for b in $backends; do files="$files $work/$b.csv"; done
paste -d, $files | awk -F, -v codes="lammps $backends" '
    BEGIN { k = split(codes, name, " ") }
    NR == 1 { printf "step"; for (c = 1; c <= k; c++) printf ",temp_%s,pe_%s,etotal_%s,press_%s",
              name[c], name[c], name[c], name[c]; print ""; next }
    { printf "%s", $1; for (c = 0; c < k; c++) printf ",%s,%s,%s,%s", $(7*c+3), $(7*c+4),
      $(7*c+6), $(7*c+7); print "" }' > "$out/lammps_thermo.csv"

awk -F, -v codes="lammps $backends" '
    BEGIN { k = split(codes, name, " ") }
    NR == 1 { next }
    { for (c = 2; c <= k; c++) {
          dt = $(4*(c-1)+2) - $2; de = $(4*(c-1)+4) - $4; dp = $(4*(c-1)+5) - $5
          if (!first[c]) { first[c] = 1; }
          if ($1 <= 100 && (dt < 0 ? -dt : dt) > t100[c]) t100[c] = (dt < 0 ? -dt : dt)
          if ((de < 0 ? -de : de) > emax[c]) emax[c] = (de < 0 ? -de : de)
          if ((dt < 0 ? -dt : dt) > tmax[c]) tmax[c] = (dt < 0 ? -dt : dt)
          st[c] += $(4*(c-1)+2); }
      sl += $2; if (!e0) e0 = $4; elast = $4; rows++ }
    END { printf "lammps: mean temp %.6f, etotal drift %.3e (steps 0..%d)\n", sl / rows, elast - e0, $1
          for (c = 2; c <= k; c++)
              printf "%s vs lammps: max |dT| over steps <= 100 %.3e, over the run %.3e; max |dE_total| %.3e; mean temp %.6f\n",
                     name[c], t100[c], tmax[c], emax[c], st[c] / rows }' "$out/lammps_thermo.csv" \
    | tee "$out/lammps_compare.txt"

gnuplot <<GP
set terminal pngcairo size 1200,450 font ",10" noenhanced
set output "$out/lammps_thermo.png"
set datafile separator ","
set multiplot layout 1,2 title "fcc LJ liquid, 500 atoms, rho 0.8442, rc 2.5 shifted, dt 0.005: LAMMPS vs glnbody"
set key bottom right
set xlabel "step"
set ylabel "temperature"
plot for [c=0:words("lammps $backends")-1] "$out/lammps_thermo.csv" every ::1 using 1:(column(2+4*c)) with lines title word("lammps $backends", c+1)
set ylabel "total energy"
plot for [c=0:words("lammps $backends")-1] "$out/lammps_thermo.csv" every ::1 using 1:(column(4+4*c)) with lines title word("lammps $backends", c+1)
unset multiplot
GP
echo "lammps_validate: $out/lammps_thermo.csv, $out/lammps_compare.txt, $out/lammps_thermo.png"
