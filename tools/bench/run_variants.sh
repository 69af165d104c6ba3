#!/bin/bash
# usage: OUT=DIR bash tools/bench/run_variants.sh   (on the GPU machine, from the project root)
# run_variants.sh - `glnbody run --predict gpu` of several builds
# on the GPU machine, interleaved, on the same Plummer sphere: for each
# N in RUN_SIZES (16k 64k 256k; to t = RUN_T_END, 0.25, at 256k
# RUN_T_END_LARGE, 0.125) and each of RUN_REPS rounds (3), every
# directory of RUN_BUILDS (build/var) that holds a glnbody runs once with
# RUN_ARGS (--correct gpu), with the shaders of its own glsl/ where it has
# one.  Prints one CSV row a run: the split of Portegies Zwart et al.
# 2007 eq. 10, the loop's microseconds a block step and the force share
# t_force / (t_host + t_force + t_comm); then the median of each.  Run from
# the project root:
#   OUT=DIR bash tools/bench/run_variants.sh
#   (from a build of this tree: build/var; on a machine without libEGL,
#    libepoxy, the Debian packages in .gl/ that tools/bench/env.sh unpacks)
set -u
source tools/bench/env.sh
source tools/bench/hermite_lib.sh
S=$OUT/summary.txt
CSV=$OUT/variants.csv
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"
echo "build,rep,$HERMITE_CSV_HEADER,us_per_block,force_share" > "$CSV"
for n in ${RUN_SIZES:-16384 65536 262144}; do
    t=${RUN_T_END:-0.25}
    [ $n -ge 262144 ] && t=${RUN_T_END_LARGE:-0.125}
    for rep in $(seq ${RUN_REPS:-3}); do
        for d in ${RUN_BUILDS:-build/var}/*/; do
            b=$(basename $d)
            [ -x $d/glnbody ] || continue
            export GLNBODY_SHADER_DIR=$PWD GLNBODY_SHADERS=
            [ -d $d/glsl ] && export GLNBODY_SHADER_DIR=$PWD/$d GLNBODY_SHADERS=glsl
            out=$($d/glnbody run --ic plummer --n $n --seed 1 --backend compute \
                  --predict gpu ${RUN_ARGS:---correct gpu} --eta 0.02 --t-end $t \
                  --softening 0.01 --output /tmp/final_${n}_$b.txt 2>&1) || {
                echo "FAILED: $b $n: $out" >> "$S"; continue; }
            echo "$b,$rep,$n,compute,gpu,0.02,$t,$(echo "$out" | summary |
                sed 's/ *$//; s/ /,/g')" | awk -F, '{ w = $11 + $12 + $13
                printf "%s,%.1f,%.3f\n", $0, 1e6 * w / $9, (w > 0 ? $12 / w : 0) }'
        done
    done
done >> "$CSV"
# medians: build, n -> us_per_block, force share, t_force
awk -F, 'NR > 1 { k = $1 " " $3; u[k] = u[k] " " $15; f[k] = f[k] " " $16; tf[k] = tf[k] " " $12 }
    function med(s,   a, m, i, j, x) { m = split(s, a, " ")
        for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] + 0 > x + 0; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return a[int((m + 1) / 2)] }
    END { for (k in u) printf "%s: %s us a block, force share %s, t_force %s s\n", k,
          med(u[k]), med(f[k]), med(tf[k]) }' "$CSV" | sort -k2n -k1 | tee -a "$S"
for n in ${RUN_SIZES:-16384 65536 262144}; do
    md5sum /tmp/final_${n}_*.txt | awk '{ print $1 }' | sort -u | wc -l |
        sed "s/^/n $n: distinct final states: /" | tee -a "$S"
done
