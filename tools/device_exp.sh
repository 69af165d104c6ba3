#!/bin/bash
# device_exp.sh - timing experiments on variants of the GLSL sources kept in
# .gl/exp (GLSL path; the C host is unchanged).
set -u
source tools/device_env.sh
run() {
    local name=$1; shift
    rm -rf /tmp/$name && mkdir -p /tmp/$name && cp -r glsl /tmp/$name/
    "$@"
    GLNBODY_SHADER_DIR=/tmp/$name GLNBODY_SHADERS=glsl ./glnbody bench --backend compute,fragment \
        --variant t256i4,t256i8,4x4-r1-p16 --n 262144 --runs 5 --warmup 1 2>&1 | grep -E "^ +[0-9]" | sed "s/^/$name /"
}
run base true
run e1 cp .gl/exp/ga_e1.comp /tmp/e1/glsl/ga.comp
run e9 cp .gl/exp/ga_e9.glsl /tmp/e9/glsl/ga.glsl
run e10 cp .gl/exp/ga_e10.glsl /tmp/e10/glsl/ga.glsl
run base2 true
