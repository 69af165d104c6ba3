#!/bin/bash
# usage: OUT=DIR bash tools/bench/gles.sh [levels|reports|timing|all]   (on the GPU machine, from the project root)
# gles.sh [levels|reports|timing|all] - OpenGL and OpenGL ES on an NVIDIA card:
# the API levels (OpenGL 3.3 core and OpenGL ES 3.2 through the same
# surfaceless EGL display; NVIDIA's driver gives exactly the version asked
# for), the self-describing reports on OpenGL 4.6 and OpenGL ES 3.2, and
# GL against ES for the best fragment and compute variants at N = 65536
# and 262144.  Everything lands in $OUT (JSON reports, tables, logs).
#
# Once, on this (Debian 12) machine, in the project root: the GL loaders
# of tools/bench/env.sh in .gl/, and the program's own libraries (jansson
# for the reports, cairo and its X/font libraries for --plot; the device
# image has none of them) in .gl/report/:
#   mkdir -p .gl/report && (cd .gl/report && apt-get download libjansson4 \
#     libcairo2 libpixman-1-0 libpng16-16 libfontconfig1 fontconfig-config \
#     libfreetype6 libbrotli1 libx11-6 libx11-data libxcb1 libxcb-render0 \
#     libxcb-shm0 libxext6 libxrender1 libxau6 libxdmcp6 libbsd0 libmd0 libexpat1)
#   make NB_MPI=0 glnbody spirv/.stamp tests/check_levels
# (or make it with MPI and carry .ompi as well, see tools/bench/env.sh).
# Then on the GPU machine, from the project root, one stage at a time
# (each well under 10 minutes; `all` runs the three in one call):
#   OUT=DIR bash tools/bench/gles.sh levels
#   (from a build of this tree: glnbody, spirv, tests/check_levels; on a
#    machine without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
#   OUT=DIR bash tools/bench/gles.sh reports
#   (from a build of this tree: glnbody, spirv; on a machine without libEGL,
#    libepoxy, the Debian packages in .gl/ that tools/bench/env.sh unpacks)
#   OUT=DIR bash tools/bench/gles.sh timing
#   (from a build of this tree: glnbody, spirv; on a machine without libEGL,
#    libepoxy, the Debian packages in .gl/ that tools/bench/env.sh unpacks)
# and copy $OUT's nvidia-gl46.json and nvidia-es32.json to
# tools/results/current/reports/.
set -u
stage=${1:-all}
source tools/bench/env.sh
# The program's libraries, unpacked beside (not over) the image's.
mkdir -p /tmp/nbreport
for f in .gl/report/*.deb; do dpkg -x "$f" /tmp/nbreport; done
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/tmp/nbreport/usr/lib/x86_64-linux-gnu:/tmp/nbreport/lib/x86_64-linux-gnu
if ! build/glnbody help >/dev/null 2>"$OUT/glnbody_start.log"; then
    echo "glnbody does not start here (missing libraries? fill .gl/report as the header says):"
    cat "$OUT/glnbody_start.log"; ldd build/glnbody | grep "not found"
    exit 1
fi

levels() {
    echo "== the levels: renderer lines, compare (N = 4096) on each"
    for level in "--gl-version 4.6" "--gl-version 4.3" "--gl-version 3.3" "--api gles" \
                 "--api gles --gl-version 3.1" "--api gles --gl-version 3.0"; do
        build/glnbody compare --n 4096 $level > "$OUT/compare_${level//[ -.]/_}.txt" 2>&1
        echo "$level: exit $? -- $(grep renderer "$OUT/compare_${level//[ -.]/_}.txt")"
        grep -E "^(compute|fragment) " "$OUT/compare_${level//[ -.]/_}.txt"
    done
    echo "== build/tests/check_levels on GL 3.3 core and ES 3.2 (the fragment kernels, compute"
    echo "   on ES, the refusals), as make test runs them on Mesa"
    NB_TEST_LEVELS="gl:3.3,gles:3.2,gles:3.1,gles:3.0" build/tests/check_levels \
        > "$OUT/check_levels.log" 2>&1
    echo "check_levels: exit $?"
    grep -E "^check_levels|%:|:F:|:E:" "$OUT/check_levels.log"
}

reports() {
    echo "== reports: GA, GAJ and MD on cpu, compute and fragment (median of 5 after 2)"
    local common=(--kernel ga,gaj,md --backend cpu,compute,fragment --n 1024,4096,16384,65536
                  --runs 5 --warmup 2 --quiet)
    build/glnbody bench --report "$OUT/nvidia-gl46.json" --gl-version 4.6 "${common[@]}" \
        > "$OUT/bench_gl46.txt" 2>&1; echo "GL 4.6: exit $?"
    build/glnbody bench --report "$OUT/nvidia-es32.json" --api gles "${common[@]}" \
        > "$OUT/bench_es32.txt" 2>&1; echo "ES 3.2: exit $?"
    build/glnbody report "$OUT/nvidia-gl46.json" "$OUT/nvidia-es32.json" \
        --plot "$OUT/nvidia_gl_es.png" | tee "$OUT/report_gl46_es32.txt"
}

timing() {
    echo "== GL 4.6 (SPIR-V, and GLSL) against ES 3.2: every variant at N = 65536, 262144"
    local common=(--kernel ga,gaj --backend compute,fragment --variant all --n 65536,262144
                  --runs 5 --warmup 1 --quiet)
    build/glnbody bench --report "$OUT/timing-gl46-spirv.json" --gl-version 4.6 "${common[@]}" \
        > "$OUT/timing_gl46_spirv.txt" 2>&1; echo "GL 4.6 SPIR-V: exit $?"
    build/glnbody bench --report "$OUT/timing-gl46-glsl.json" --gl-version 4.6 --shaders glsl \
        "${common[@]}" > "$OUT/timing_gl46_glsl.txt" 2>&1; echo "GL 4.6 GLSL: exit $?"
    build/glnbody bench --report "$OUT/timing-es32.json" --api gles "${common[@]}" \
        > "$OUT/timing_es32.txt" 2>&1; echo "ES 3.2: exit $?"
    for b in compute fragment; do
        echo "-- best $b variant; ratio to GL 4.6 with SPIR-V (the aim: ES within 10%)"
        build/glnbody report "$OUT/timing-gl46-spirv.json" "$OUT/timing-gl46-glsl.json" \
            "$OUT/timing-es32.json" --backend $b | tee "$OUT/timing_$b.txt"
    done
}

case $stage in
    levels) levels ;;
    reports) reports ;;
    timing) timing ;;
    all) levels; reports; timing ;;
    *) echo "usage: tools/bench/gles.sh [levels|reports|timing|all]"; exit 2 ;;
esac
