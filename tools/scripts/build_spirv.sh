#!/bin/sh
# build_spirv.sh GLNBODY GLSLANG OUTDIR - compiles every shader program for
# OpenGL SPIR-V.  The sources are emitted by the binary itself, exactly as
# its GLSL loader assembles them, so both paths compile the same text.
# Any glslangValidator error fails the build.
set -eu
bin=$1 glslang=$2 out=$3
command -v "$glslang" >/dev/null 2>&1 || {
    echo "build_spirv: $glslang not found (Debian package glslang-tools)" >&2; exit 1; }
work=build/glsl
rm -rf "$work" && mkdir -p "$work" "$out"
GLNBODY_SHADER_DIR=. "$bin" shaders --emit "$work" > "$work/list"
# One glslangValidator per processor: the stages are independent.  A stage
# that fails prints its log and stops xargs (exit 255), failing the build.
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
xargs -P "$jobs" -I{} sh -c '
    src=$1 glslang=$2 out=$3
    if ! "$glslang" -G --quiet -o "$out/$(basename "$src").spv" "$src" > "$src.log" 2>&1; then
        echo "build_spirv: $src (assembled from glsl/) does not compile:" >&2
        cat "$src.log" >&2
        exit 255
    fi' sh {} "$glslang" "$out" < "$work/list"
echo "build_spirv: $(wc -l < "$work/list") shader stages compiled to $out/"
