#!/bin/bash
# usage: OUT=DIR bash tools/bench/hermite.sh   (on the GPU machine, from the project root)
# hermite.sh - energy error after one N-body time unit against eta
# for Plummer spheres of N = 1024 and 16384 (Portegies Zwart et al. 2007 Fig. 2), the CPU in
# double against each GPU backend; one device call (carry .gl, glnbody,
# spirv), about 10 minutes on the H200 (the fragment run at N = 16384 and
# eta 0.0025 alone takes 331 s).  Writes $OUT/hermite_eta.csv.
# hermite_time.sh gives the seconds per time unit against N.
set -u
source tools/bench/env.sh
source tools/bench/hermite_lib.sh
echo "$HERMITE_CSV_HEADER" > "$OUT/hermite_eta.csv"
for eta in 0.04 0.02 0.01 0.005 0.0025; do
    run 1024 cpu host $eta 1
    run 1024 compute host $eta 1
    run 1024 compute gpu $eta 1
    run 1024 fragment host $eta 1
    run 16384 compute gpu $eta 1
    run 16384 fragment host $eta 1
done | tee -a "$OUT/hermite_eta.csv"
# The CPU at N = 16384 (16 threads, ~4e9 interactions/s): eta 0.04 to 0.01
# take ~4 minutes together; 0.005 and 0.0025 would take ~10 more.
for eta in ${HERMITE_CPU_ETAS:-0.04 0.02 0.01}; do run 16384 cpu host $eta 1; done |
    tee -a "$OUT/hermite_eta.csv"
