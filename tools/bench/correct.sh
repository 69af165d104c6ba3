#!/bin/bash
# usage: OUT=DIR bash tools/bench/correct.sh   (on the GPU machine, from the project root)
# correct.sh - the corrector on the device (--correct gpu) on the
# GPU machine: the Hermite suite (host and device corrector against each
# other, bad records, refusals), then `glnbody run --predict gpu` with
# --correct host and gpu on the same Plummer sphere at N = 16k, 64k and
# 256k, interleaved, CORRECT_REPS times (5): the t_host/t_force/t_comm
# split (Portegies Zwart et al. 2007 eq. 10), the force share
# t_force / (t_host + t_force + t_comm), and the final states of the two
# correctors compared.  Run from the project root (about 3 minutes on an
# H100/H200):
#   OUT=DIR bash tools/bench/correct.sh
#   (from a build of this tree: glnbody, spirv, tests/check_run_gpu; on a
#    machine without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
# ($OUT gets summary.txt, check_run_gpu.log and correct.csv.)
set -u
source tools/bench/env.sh
source tools/bench/hermite_lib.sh
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"
if [ -x build/tests/check_run_gpu ]; then
    build/tests/check_run_gpu > "$OUT/check_run_gpu.log" 2>&1
    echo "check_run_gpu: exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_run_gpu.log")" |
        tee -a "$S" >&2
fi
echo "correct,rep,$HERMITE_CSV_HEADER,force_share" > "$OUT/correct.csv"
for n in ${CORRECT_SIZES:-16384 65536 262144}; do
    t=0.25
    [ $n -ge 262144 ] && t=0.125
    for rep in $(seq ${CORRECT_REPS:-5}); do
        for c in host gpu; do
            out=$(build/glnbody run --ic plummer --n $n --seed 1 --backend compute --predict gpu \
                  --correct $c --eta 0.02 --t-end $t --softening 0.01 \
                  --output /tmp/final_${n}_$c.txt 2>&1) || {
                echo "FAILED: $n $c: $out" >> "$S"; continue; }
            echo "$c,$rep,$n,compute,gpu,0.02,$t,$(echo "$out" | summary |
                sed 's/ *$//; s/ /,/g')" | awk -F, '{ w = $11 + $12 + $13
                printf "%s,%.3f\n", $0, (w > 0 ? $12 / w : 0) }'
        done
    done
    paste -d' ' /tmp/final_${n}_host.txt /tmp/final_${n}_gpu.txt | grep -v '^#' | awk -v n=$n '
        { for (c = 3; c <= 8; c++) { d = $c - $(c + 8); if (d < 0) d = -d; if (d > w) w = d } }
        END { printf "n %d: largest difference of x, v between the correctors: %.3g\n", n, w }' |
        tee -a "$S"
done | tee -a "$OUT/correct.csv"
grep -v '^n ' "$OUT/correct.csv" > "$OUT/correct.tmp" && mv "$OUT/correct.tmp" "$OUT/correct.csv"
