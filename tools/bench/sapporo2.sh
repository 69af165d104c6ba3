#!/bin/bash
# usage: OUT=DIR bash tools/bench/sapporo2.sh   (on the GPU machine, from the project root)
# sapporo2.sh - libg6gl and Sapporo2 (Gaburov et al. 2009; Bedorf et
# al. 2015), the CUDA GRAPE-6 library, side by side on the same card
#: the same benchmark, tools/g6/g6_bench.c, linked once with
# libg6gl and once with Sapporo2, on the same Plummer spheres (glnbody's,
# seed 1, as tools/bench/g6.sh makes them), with the same protocol: per
# block the ni corrected j-particles sent, g6_set_ti, then firsthalf and
# lasthalf in chunks of g6_npipes() (Sapporo2 aborts for ni above it),
# median of 21 blocks after two unmeasured ones, at N = 16k, 64k, 256k.
#
# Sapporo2's code never enters the project: its public source (GitHub
# treecode/sapporo2) is exported into the ignored folder .peer/sapporo2
# and carried; on the GPU machine this script copies it to /tmp, makes the
# three local edits that CUDA 13 needs (below), builds its PTX and
# library there, and links the benchmark with it through
# tools/g6/g6_c_names.c (Sapporo2's library exports only the Fortran names).
#
# Two modes:
#   bash tools/bench/sapporo2.sh --prepare    here (Debian 12, no GPU):
#       builds glnbody, spirv/ and tools/g6/g6_bench (libg6gl), compiles the
#       benchmark's objects for the Sapporo2 link into .gl/sapporo2_bench/,
#       and checks that the three edits apply to a copy of .peer/sapporo2.
#       Export the tree first, once:
#         git -C CLONE_OF_github.com/treecode/sapporo2 archive HEAD |
#             (mkdir -p .peer/sapporo2 && tar -x -C .peer/sapporo2)
#         echo /.peer/ >> .git/info/exclude
#   bash tools/bench/sapporo2.sh              on the GPU machine, from the
#       project root (about 2 minutes; .ompi because glnbody links Open MPI;
#       CUDA from $CUDA_HOME, default /usr/local/cuda):
#         OUT=DIR bash tools/bench/sapporo2.sh
#         (from a build of this tree: .peer/sapporo2, glnbody, spirv,
#          tools/g6/g6_bench; on a machine without libEGL, libepoxy or Open
#          MPI, the Debian packages in .gl/ and .ompi/ that
#          tools/bench/env.sh unpacks)
#         OUT=DIR bash tools/bench/sapporo2.sh --build
#         builds Sapporo2's benchmark at /tmp/sapporo2/g6_bench and stops,
#         for tools/bench/g6_accuracy.sh to measure both libraries.
# $OUT gets g6_peer.csv (code,n,ni,us_per_block,interactions_per_s and the
# block's split: us_set_j,us_firsthalf,us_lasthalf),
# summary.txt (card, compilers, the two codes side by side, their ratio)
# and the build and run logs.  Exits non-zero, saying why, when the
# machine lacks nvcc, the CUDA headers or a C++ compiler, or a build fails.
set -u
SRC=.peer/sapporo2
OBJ=.gl/sapporo2_bench
NI=1,4,16,32,64,128,256,1024,4096,16384,65536,262144
REPEATS=21

die() { echo "sapporo2.sh: $*" >&2; exit 1; }

# sapporo2_edit DIR: the three edits to a copy of Sapporo2's tree that
# CUDA 13 needs; each is checked, so that a changed upstream fails here.
sapporo2_edit() {
    local lib=$1/lib
    [ -f "$lib/CUDAKernels/kernels.cu" ] && [ -f "$lib/include/cudadev.h" ] ||
        die "$1 is not Sapporo2's tree (lib/CUDAKernels/kernels.cu, lib/include/cudadev.h)"
    # 1. its own atomicAdd(double *, double) only where CUDA has none (sm < 60)
    awk '/^__device__ double atomicAdd\(double\* address, double val\)/ {
             print "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600"; inside = 1 }
         { print }
         inside && /^}/ { print "#endif"; inside = 0 }' \
        "$lib/CUDAKernels/kernels.cu" > "$lib/CUDAKernels/kernels.cu.new" &&
        mv "$lib/CUDAKernels/kernels.cu.new" "$lib/CUDAKernels/kernels.cu"
    [ "$(grep -c '^#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600' \
          "$lib/CUDAKernels/kernels.cu")" = 1 ] || die "edit 1 (atomicAdd guard) did not apply"
    # 2. cuCtxCreate's v4 signature (CUDA 13), 3. no CU_TARGET_COMPUTE_20
    sed -i -e 's/cuCtxCreate(&Context, ctxCreateFlags, Device)/cuCtxCreate(\&Context, NULL, ctxCreateFlags, Device)/' \
        -e 's/CU_TARGET_COMPUTE_20/20/g' "$lib/include/cudadev.h"
    [ "$(grep -c 'cuCtxCreate(&Context, NULL, ctxCreateFlags, Device)' "$lib/include/cudadev.h")" = 2 ] ||
        die "edit 2 (cuCtxCreate v4) did not apply"
    ! grep -q CU_TARGET_COMPUTE_20 "$lib/include/cudadev.h" || die "edit 3 did not apply"
}

# ptx_embed PTX HEADER: the PTX as the byte array cudadev.h declares.
ptx_embed() {
    { echo "unsigned char CUDAKernels_kernels_ptx[] = {"
      od -An -v -tx1 "$1" | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'
      echo "};"
      echo "unsigned int CUDAKernels_kernels_ptx_len = $(stat -c %s "$1");"; } > "$2"
}

prepare() {
    [ -d "$SRC" ] || die "no $SRC: export Sapporo2's tree there first (see the header)"
    make -j2 build/glnbody build/spirv.stamp build/tools/g6/g6_bench || die "the build failed"
    mkdir -p "$OBJ"
    local cflags="-O2 -g -std=c11 -Wall -Wextra -Wpedantic -D_POSIX_C_SOURCE=200809L"
    cc $cflags -Itools/g6 -c -o "$OBJ/g6_bench.o" tools/g6/g6_bench.c &&
        cc $cflags -c -o "$OBJ/g6_c_names.o" tools/g6/g6_c_names.c ||
        die "compiling the benchmark's objects failed"
    local tmp
    tmp=$(mktemp -d) || exit 1
    cp -r "$SRC" "$tmp/s" && (sapporo2_edit "$tmp/s") || { rm -rf "$tmp"; exit 1; }
    diff -ru "$SRC/lib" "$tmp/s/lib" | grep '^[-+][^-+]' | sed 's/^/    /'
    rm -rf "$tmp/s"
    # Where this machine has CUDA too, the whole build is tried here as well.
    if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
        (build_sapporo2 "$tmp/s") > "$tmp/build.log" 2>&1 ||
            { tail -5 "$tmp/build.log"; rm -rf "$tmp"; die "Sapporo2 does not build here"; }
        echo "sapporo2.sh: Sapporo2 and its g6_bench build here too ($(tail -1 "$tmp/build.log"))"
    fi
    rm -rf "$tmp"
    echo "sapporo2.sh: ready; the three edits apply to $SRC"
}

# build_sapporo2 DIR: Sapporo2 built in DIR (a copy), its benchmark at DIR/g6_bench.
build_sapporo2() {
    local cuda=${CUDA_HOME:-/usr/local/cuda} arch
    command -v g++ > /dev/null || die "no C++ compiler (g++) on this machine: Sapporo2 cannot be built"
    [ -x $cuda/bin/nvcc ] || die "no nvcc at $cuda/bin: Sapporo2 cannot be built"
    [ -f $cuda/include/cuda.h ] || die "no CUDA headers ($cuda/include/cuda.h)"
    [ -f $cuda/lib64/stubs/libcuda.so ] || die "no $cuda/lib64/stubs/libcuda.so to link with"
    [ -f "$OBJ/g6_bench.o" ] && [ -f "$OBJ/g6_c_names.o" ] ||
        die "no $OBJ/*.o: run 'bash tools/bench/sapporo2.sh --prepare' here and carry .gl"
    arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null | head -1 | tr -d .)
    case $arch in [1-9][0-9]) arch=sm_$arch ;; *) arch=sm_90 ;; esac
    cp -r "$SRC" "$1" || die "cannot copy $SRC to $1"
    sapporo2_edit "$1"
    (
        cd "$1/lib" || exit 1
        $cuda/bin/nvcc -w -arch "$arch" -O3 -I. -I./include -ptx CUDAKernels/kernels.cu \
            -o CUDAKernels/kernels.ptx &&
        ptx_embed CUDAKernels/kernels.ptx include/kernels.ptxh &&
        g++ -w -O3 -fopenmp -fPIC -D__INCLUDE_KERNELS__ -I$cuda/include -I./include -I. -c src/sapporohostclass.cpp &&
        g++ -w -O3 -fopenmp -fPIC -D__INCLUDE_KERNELS__ -I$cuda/include -I./include -I. -c interfaces/sapporoG6lib.cpp &&
        ar rcs libsapporo.a sapporohostclass.o sapporoG6lib.o
    ) || die "building Sapporo2 failed (see the log above)"
    g++ -o "$1/g6_bench" "$OBJ/g6_bench.o" "$OBJ/g6_c_names.o" "$1/lib/libsapporo.a" \
        -L$cuda/lib64/stubs -lcuda -fopenmp -lm || die "linking g6_bench with Sapporo2 failed"
    echo "nvcc: $($cuda/bin/nvcc --version | tail -1); g++: $(g++ --version | head -1); $arch"
}

# plummer N FILE: glnbody's Plummer sphere (seed 1), as tools/bench/g6.sh makes it.
plummer() {
    build/glnbody run --ic plummer --n "$1" --seed 1 --t-end 0 --output "$2.snap" > /dev/null 2>&1 ||
        die "glnbody could not make the Plummer sphere of $1"
    { echo "$1"; grep -v '^#' "$2.snap" | awk '{ print $2, $3, $4, $5, $6, $7, $8 }'; } > "$2"
}

# bench CODE BINARY N: one row per ni, prefixed with the code's name (only
# the CSV rows: Sapporo2 also prints to stdout).
bench() {
    local rc
    # One card for both: Sapporo2 spreads the j-set over every GPU it sees.
    CUDA_VISIBLE_DEVICES=0 timeout 100 "$2" /tmp/plummer_$3.txt $NI $REPEATS \
        > "/tmp/$1_$3.out" 2>> "$OUT/$1.log"
    rc=$?
    grep -vE '^[0-9]+,[0-9]+,' "/tmp/$1_$3.out" >> "$OUT/$1.log"
    grep -E '^[0-9]+,[0-9]+,' "/tmp/$1_$3.out" | sed "s/^/$1,/" | tee -a "$OUT/g6_peer.csv"
    [ $rc = 0 ] && return
    echo "$1 at N = $3: g6_bench failed (exit $rc), see $1.log" | tee -a "$OUT/summary.txt" >&2
    failed=1
}

if [ "${1:-}" = --prepare ]; then
    prepare
    exit
fi
[ -d "$SRC" ] || die "no $SRC: carry it (see the header)"
[ -x build/tools/g6/g6_bench ] && [ -x build/glnbody ] || die "no glnbody or build/tools/g6/g6_bench: build them here and carry them"
source tools/bench/env.sh
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"
# (in a subshell, so that its refusals land in the log and then here)
(build_sapporo2 /tmp/sapporo2) > "$OUT/sapporo2_build.log" 2>&1 ||
    { tail -5 "$OUT/sapporo2_build.log" | tee -a "$S" >&2; exit 1; }
tail -1 "$OUT/sapporo2_build.log" >> "$S"
# --build: only the peer's benchmark, /tmp/sapporo2/g6_bench, for g6_accuracy.sh
[ "${1:-}" = --build ] && exit 0

echo "code,n,ni,us_per_block,interactions_per_s,us_set_j,us_firsthalf,us_lasthalf" > "$OUT/g6_peer.csv"
failed=0
for n in 16384 65536 262144; do
    plummer $n /tmp/plummer_$n.txt
    bench libg6gl build/tools/g6/g6_bench $n
    bench sapporo2 /tmp/sapporo2/g6_bench $n
done
# Side by side: per N and ni, both codes' microseconds a block and the ratio.
awk -F, 'NR > 1 { us[$1, $2, $3] = $4; if (!(($2, $3) in seen)) { seen[$2, $3] = 1; key[++k] = $2 "," $3 } }
    END { printf "%8s %8s %12s %12s %9s\n", "n", "ni", "libg6gl_us", "sapporo2_us", "ratio"
          for (i = 1; i <= k; i++) { split(key[i], a, ",")
              g = us["libg6gl", a[1], a[2]]; s = us["sapporo2", a[1], a[2]]
              printf "%8d %8d %12s %12s %9s\n", a[1], a[2], g, s,
                     (g != "" && s != "") ? sprintf("%.2f", s / g) : "-" } }' \
    "$OUT/g6_peer.csv" | tee -a "$S"
echo "(ratio: Sapporo2's time over libg6gl's; above 1, libg6gl is faster)" >> "$S"
exit $failed
