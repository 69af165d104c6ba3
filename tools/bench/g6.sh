#!/bin/bash
# usage: OUT=DIR bash tools/bench/g6.sh   (on the GPU machine, from the project root)
# g6.sh - libg6gl on the GPU machine: its check suite,
# then the cost of a block step through the GRAPE-6 interface and of a
# whole Hermite run through it against `glnbody run`, at N = 16k, 64k and
# 256k.  Everything is built here (Debian 12) and carried; run from the
# project root (about 4 minutes on an H100/H200):
#   OUT=DIR bash tools/bench/g6.sh
#   (from a build of this tree: glnbody, spirv, tools/g6/g6_bench,
#    tests/g6_driver, tests/g6_driver_f, tests/check_g6; on a machine
#    without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
# ($OUT gets: summary.txt, the card, the suite's tally, the g6gl statistics
# (GLNBODY_G6_STATS, in a run of its own) of each run and the two codes' largest position
# difference; check_g6.log; g6_bench.csv, Sapporo2's protocol: per block the
# ni corrected j-particles sent, g6_set_ti, firsthalf + lasthalf in chunks of
# g6_npipes(), median of 21 blocks; g6_bench_H.csv the same in mode H;
# hermite.csv, the same Plummer sphere and eta, eps, dt_max integrated by
# `glnbody run --predict gpu|host` and by tests/g6_driver through the g6
# API, with the time per block step and the t_host/t_force/t_comm split
# (Portegies Zwart et al. 2007 eq. 10) of glnbody run.)
set -u
source tools/bench/env.sh
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"

NB_TEST_SEED=7 build/tests/check_g6 > "$OUT/check_g6.log" 2>&1
echo "check_g6: exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_g6.log")" | tee -a "$S" >&2
# GLNBODY_G6_STATS reads the clock twice a g6_set_j_particle: never while timing

# plummer N FILE: glnbody's Plummer sphere (seed 1) as the drivers read it.
plummer() {
    build/glnbody run --ic plummer --n "$1" --seed 1 --t-end 0 --output "$2.snap" > /dev/null 2>&1
    { echo "$1"; grep -v '^#' "$2.snap" | awk '{ print $2, $3, $4, $5, $6, $7, $8 }'; } > "$2"
}
echo "n,ni,us_per_block,interactions_per_s,us_set_j,us_firsthalf,us_lasthalf" > "$OUT/g6_bench.csv"
echo "n,ni,us_per_block,interactions_per_s,us_set_j,us_firsthalf,us_lasthalf" > "$OUT/g6_bench_H.csv"
for n in 16384 65536 262144; do
    plummer $n /tmp/plummer_$n.txt
    build/tools/g6/g6_bench /tmp/plummer_$n.txt 1,4,16,32,64,128,256,1024,4096,16384,65536,262144 21 \
        2>> "$S" | tail -n +2 | tee -a "$OUT/g6_bench.csv"
    GLNBODY_G6_PRECISION=H build/tools/g6/g6_bench /tmp/plummer_$n.txt 64,1024,16384 11 2>> "$S" |
        tail -n +2 >> "$OUT/g6_bench_H.csv"
done

# Whole runs: glnbody run (both prediction paths) and the g6 driver.
echo "n,code,t_end,block_steps,particle_steps,wall,us_per_block,t_host,t_force,t_comm,g6_seconds" \
    > "$OUT/hermite.csv"
for n in 16384 65536 262144; do
    t=0.25
    [ $n -ge 262144 ] && t=0.125
    for p in gpu host; do
        out=$(build/glnbody run --ic plummer --n $n --seed 1 --eta 0.02 --softening 0.01 \
              --dt-max 0.125 --t-end $t --backend compute --predict $p 2>&1)
        echo "$out" | grep -E "^(block steps|time split)" | sed "s/^/run $n $p: /" >> "$S"
        echo "$out" | awk -v n=$n -v t=$t -v p=$p '
            /^block steps/ { bs = $3; gsub(",", "", bs); ps = $6 }
            /time split/ { for (i = 1; i <= NF; i++) {
                if ($i == "t_host") th = $(i+1); if ($i == "t_force") tf = $(i+1)
                if ($i == "t_comm") tc = $(i+1) } }
            END { w = th + tf + tc
                  printf "%s,glnbody-run-predict-%s,%s,%s,%s,%.4f,%.2f,%s,%s,%s,\n",
                         n, p, t, bs, ps, w, 1e6 * w / bs, th, tf, tc }' |
            tee -a "$OUT/hermite.csv"
    done
    for code in g6_driver; do
        # once with GLNBODY_G6_STATS for the device seconds, once timed
        GLNBODY_G6_STATS=1 tests/$code /tmp/plummer_$n.txt /tmp/out_$n.txt $t 0.02 0.01 \
            0.125 2>&1 | grep '^g6gl:' | sed "s/^/$code $n: /" >> "$S"
        r=$(tests/$code /tmp/plummer_$n.txt /tmp/out_$n.txt $t 0.02 0.01 0.125 2>&1)
        echo "$r" | sed "s/^/$code $n: /" >> "$S"
        echo "$r" | awk -v n=$n -v t=$t -v c=$code '/^blocks/ {
            printf "%s,%s-g6gl,%s,%s,%s,%.4f,%.2f,%.4f,,,%s\n", n, c, t, $2, $4, $6,
                   1e6 * $6 / $2, $6 - $8, $8 }' | tee -a "$OUT/hermite.csv"
    done
    # the two codes' final states (same Plummer sphere, same eta, eps, dt_max)
    build/glnbody run --ic plummer --n $n --seed 1 --eta 0.02 --softening 0.01 --dt-max 0.125 \
        --t-end $t --backend compute --output /tmp/ref_$n.snap > /dev/null 2>&1
    grep -v '^#' /tmp/ref_$n.snap | paste -d' ' - /tmp/out_$n.txt | awk -v n=$n '
        { d = sqrt(($3 - $9)^2 + ($4 - $10)^2 + ($5 - $11)^2); if (d > w) w = d }
        END { printf "n %d: largest position difference g6_driver vs glnbody run: %.3g\n", n, w }' |
        tee -a "$S"
done
