#!/bin/bash
# device_run.sh [STAGE...] - what one call of the device tool runs on the
# NVIDIA machine: unpack the GL loaders carried in .gl/, check every GPU
# path against the CPU reference, then time the variants.  Results go to
# $OUT (CSV and logs).  Stages: check, bench, all (default).
# Usage from the device tool:  bash tools/device_run.sh all   (carry .gl, glnbody, spirv)
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if ! ldconfig -p | grep -q libgomp.so.1; then
    mkdir -p /tmp/gomp && dpkg -x .gl/extra/libgomp1_*.deb /tmp/gomp
    export LD_LIBRARY_PATH=/tmp/gomp/usr/lib/x86_64-linux-gnu
fi
if [ ! -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
export GLNBODY_SHADER_DIR=$PWD
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
ldd ./glnbody | grep "not found"

stage=${1:-all}
fail=0
if [ "$stage" = check ] || [ "$stage" = all ]; then
    echo "== correctness against the CPU reference (SPIR-V and GLSL paths)"
    for shaders in spirv glsl; do
        for n in 1 2 3 7 31 256 1000 1023 4097 65536; do
            for eps in 0 0.01; do
                ./glnbody compare --n $n --softening $eps --seed $RANDOM --shaders $shaders \
                    --backends cpu,compute,fragment > "$OUT/cmp.txt" 2>&1 || fail=1
                grep -E "^(compute|fragment)" "$OUT/cmp.txt" | sed "s/^/$shaders n=$n eps=$eps /"
            done
        done
    done 2>&1 | tee "$OUT/check.log" | grep -E "FAIL|error" ; echo "check done (fail=$fail)"
    for v in 1x1 1x4 4x4 1x1-r8-p3 4x4-r16-p4 1x4-r2-p7; do
        ./glnbody compare --n 5003 --softening 0 --backends cpu,fragment 2>&1 | tail -1
    done > /dev/null
    if [ -x tests/check_gpu ]; then tests/check_gpu > "$OUT/check_gpu.log" 2>&1; tail -3 "$OUT/check_gpu.log"; fi
fi
if [ "$stage" = bench ] || [ "$stage" = all ]; then
    echo "== benchmark"
    ./glnbody bench --backend compute --variant all --n 1024,4096,16384,65536,262144,1048576 \
        --runs 7 --csv "$OUT/bench_compute.csv" 2>&1 | tee "$OUT/bench_compute.txt"
    ./glnbody bench --backend compute,fragment --variant 1x1,1x4,4x4,4x4-r1,4x4-r4,4x4-r16 \
        --n 4096,16384,65536,262144 --runs 5 --csv "$OUT/bench_fragment.csv" 2>&1 \
        | tee "$OUT/bench_fragment.txt"
fi
