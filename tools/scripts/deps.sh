#!/bin/sh
# deps.sh [fuzz] - checks the Debian packages glnbody needs (with `fuzz`:
# also those of make fuzz: clang, libFuzzer, clang's OpenMP); installs the
# missing ones when run as root, otherwise prints the exact apt-get line and
# fails.
set -u
# bsdutils: script(1), the pseudo-terminal of tests/check_progress;
# man-db (with groff-base): man -l on the manual page, tests/check_cli_text;
# zlib1g-dev: zlib's crc32 in the checkpoint files;
# gfortran: the Fortran GRAPE-6 driver of tests/check_g6 (libg6gl's underscore ABI);
# libopenmpi-dev, openmpi-bin: mpirun -np P glnbody run|forces (make
# NB_MPI=0 builds without them).
# Pictures: libpng-dev (PNG frames); glnbody view: libglfw3-dev, FreeType and
# fontconfig with a font (captions), xvfb and xauth (xvfb-run: the window's
# test on machines without a display).  ffmpeg (--movie) is optional.
# zlib1g-dev: zlib's crc32 in the checkpoint files.
# libjansson-dev, libcairo2-dev: glnbody bench --report and glnbody report --plot.
PACKAGES="build-essential pkg-config libepoxy-dev libegl-dev libglfw3-dev glslang-tools check libgl1-mesa-dri libegl-mesa0 gnuplot-nox bsdutils man-db gfortran libopenmpi-dev openmpi-bin libpng-dev libfreetype-dev libfontconfig-dev fonts-dejavu-core xvfb xauth zlib1g-dev libjansson-dev libcairo2-dev"
# Python (tools/python, make test-python): numpy, cffi, pytest, setuptools, pip,
# venv; nbconvert, ipykernel, matplotlib for the notebook and the example.
PACKAGES="$PACKAGES python3-numpy python3-cffi python3-pytest python3-setuptools python3-pip python3-venv python3-nbconvert python3-ipykernel python3-matplotlib"
# make web and its browser test (make test-web): Emscripten (its -O2 step
# runs acorn through node: node-acorn) and Chromium (headless, WebGL 2 on
# SwiftShader).
PACKAGES="$PACKAGES emscripten node-acorn chromium"
# make fuzz: clang 14 with libFuzzer (libclang-rt-14-dev) and libomp.
[ "${1:-}" = fuzz ] && PACKAGES="$PACKAGES clang libclang-rt-14-dev libomp-dev"
# make test-zink: lavapipe, the Vulkan driver under Mesa's zink.
PACKAGES="$PACKAGES mesa-vulkan-drivers"

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "glnbody: not a Debian system; make sure these are installed: $PACKAGES" >&2
    exit 0
fi

missing=""
for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    echo "glnbody: installing missing Debian packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing && exit 0
    echo "glnbody: apt-get install failed for:$missing" >&2
    exit 1
fi
echo "glnbody: missing Debian packages. Run:" >&2
echo "    sudo apt-get install -y$missing" >&2
exit 1
