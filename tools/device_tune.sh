#!/bin/bash
# device_tune.sh - a short tuning sweep on the device: compute and fragment
# variants with SPIR-V and GLSL shaders, plus experiments on copies of the
# GLSL sources (GLSL path only).  Output in $OUT.
set -u
source tools/device_env.sh
./glnbody compare --n 4097 --softening 0 --seed $RANDOM --shaders glsl 2>&1 | grep -E "^(compute|fragment)|glnbody:"
for s in glsl spirv; do
    ./glnbody bench --shaders $s --backend compute --variant t64i2,t128i8,t256i4,t256i8 --n 262144 \
        --runs 5 --warmup 1 2>&1 | grep -v renderer | sed "s/^/$s /"
done
mkdir -p /tmp/step1 && cp -r glsl /tmp/step1/ && sed -i 's/#define NB_JJ_STEP 4/#define NB_JJ_STEP 1/' /tmp/step1/glsl/ga.comp
GLNBODY_SHADER_DIR=/tmp/step1 ./glnbody bench --shaders glsl --backend compute \
    --variant t128i8,t256i4,t256i8 --n 262144 --runs 5 --warmup 1 2>&1 | grep -v renderer | sed "s/^/step1 /"
mkdir -p /tmp/step8 && cp -r glsl /tmp/step8/ && sed -i 's/#define NB_JJ_STEP 4/#define NB_JJ_STEP 8/' /tmp/step8/glsl/ga.comp
GLNBODY_SHADER_DIR=/tmp/step8 ./glnbody bench --shaders glsl --backend compute \
    --variant t128i8,t256i4,t256i8 --n 262144 --runs 5 --warmup 1 2>&1 | grep -v renderer | sed "s/^/step8 /"
./glnbody bench --shaders glsl --backend fragment --variant 4x4-r1,4x4-r4,4x4-r4-p4,4x4-r16-p1,1x4-r4 --n 65536 \
    --runs 5 --warmup 1 2>&1 | grep -v renderer | sed "s/^/frag /"
./glnbody bench --shaders glsl --backend fragment --variant 4x4-r1-p16,4x4-r4-p16,4x4-r1-p64 --n 262144 \
    --runs 5 --warmup 1 2>&1 | grep -v renderer | sed "s/^/frag /"
