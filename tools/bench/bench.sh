#!/bin/bash
# usage: OUT=DIR bash tools/bench/bench.sh   (on the GPU machine, from the project root)
# bench.sh - everything for one GPU machine in one go: the GPU test suite
# on the NVIDIA card (SPIR-V and GLSL shaders), then the benchmark sweep of
# every variant, as CSV in $OUT.  Run on the GPU machine from the
# project root:
#   OUT=DIR bash tools/bench/bench.sh
#   (from a build of this tree: glnbody, spirv, tests/check_gpu; on a
#    machine without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
# then on this machine: tools/bench/plot_bench.sh <fetched CSVs> tools/results/current/ga_h200.png
set -u
source tools/bench/env.sh
echo "== tests on $(nvidia-smi --query-gpu=name --format=csv,noheader)"
for s in spirv glsl; do
    GLNBODY_SHADERS=$s build/tests/check_gpu > "$OUT/check_gpu_$s.log" 2>&1
    echo "check_gpu ($s): exit $? -- $(grep -E '^[0-9]+%' "$OUT/check_gpu_$s.log")"
done
echo "== benchmark (median of 5 after 1 warm-up, GL timer queries)"
bench() { build/glnbody bench --kernel ga --runs 5 --warmup 1 "$@" 2>&1 | grep -v renderer; }
bench --backend compute --variant all --n 1024,4096,16384,65536,262144,1048576 \
    --csv "$OUT/ga_compute_spirv.csv" | tee "$OUT/ga_compute_spirv.txt" | tail -13
GLNBODY_SHADERS=glsl bench --backend compute --variant t64i1,t128i2,t256i4,t256i8 \
    --n 4096,65536,262144,1048576 --csv "$OUT/ga_compute_glsl.csv" > "$OUT/ga_compute_glsl.txt"
bench --backend fragment,compute --variant 1x1,1x4,4x4,auto --n 1024,4096,16384,65536,262144 \
    --csv "$OUT/ga_fragment.csv" | tee "$OUT/ga_fragment.txt" | grep -E "ratio|262144"
bench --backend cpu --n 1024,4096,16384 --csv "$OUT/ga_cpu.csv" | tail -3
