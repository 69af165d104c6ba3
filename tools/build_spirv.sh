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
count=0
while read -r src; do
    name=$(basename "$src")
    if ! log=$("$glslang" -G --quiet -o "$out/$name.spv" "$src" 2>&1); then
        echo "build_spirv: $src (assembled from glsl/) does not compile:" >&2
        echo "$log" >&2
        exit 1
    fi
    count=$((count + 1))
done < "$work/list"
echo "build_spirv: $count shader stages compiled to $out/"
