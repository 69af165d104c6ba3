#!/bin/sh
# usage: sh tools/scripts/docs_pictures.sh [OUTDIR]   (from the project root, after make)
# docs_pictures.sh - draws the pictures of tools/docs/stream_model.md with
# the program's own texture inspector (glnbody view --inspect, frame 3):
# a Plummer sphere (N = 1024, seed 1) stepped by the fragment pipeline's
# GAJ kernel and by the compute pipeline, and a Lennard-Jones crystal
# (2048 atoms) on the fragment MD engine, whose four render targets are
# the MRT layout.
# Re-running it redraws every picture from the current program, so the
# guide follows the inspector.  The window needs a display: without one,
# the script runs the program under xvfb-run (Debian package xvfb).
# OUTDIR defaults to tools/docs/pictures; each PNG is written under a
# temporary name and renamed, so a failed run leaves the old pictures.
set -eu
out=${1:-tools/docs/pictures}
[ -x build/glnbody ] || { echo "docs_pictures.sh: build/glnbody is missing: run make first" >&2; exit 1; }
run=""
if [ -z "${DISPLAY:-}" ]; then
    command -v xvfb-run >/dev/null 2>&1 || {
        echo "docs_pictures.sh: no display and no xvfb-run (apt-get install xvfb)" >&2; exit 1; }
    run="xvfb-run -a -s -screen\ 0\ 1280x1024x24"
fi
mkdir -p "$out"

# picture NAME VIEW-OPTIONS...: frame 3, inspector shown.
picture() {
    name=$1; shift
    tmp="$out/.$name.tmp.png"
    rm -f "$tmp"
    # shellcheck disable=SC2086
    if ! eval $run build/glnbody view "$@" --inspect --size 1024x768 \
            --quiet --screenshot "$tmp" --screenshot-after 3 ||
       [ ! -s "$tmp" ]; then
        rm -f "$tmp"
        echo "docs_pictures.sh: $name: glnbody view failed" >&2
        exit 1
    fi
    mv -f "$tmp" "$out/$name.png"
    echo "$out/$name.png"
}

picture fragment_gaj --n 1024 --seed 1 --backend fragment --variant 1x4
picture fragment_md  md --backend fragment --cells 8 --cutoff 2.5
picture compute_gaj  --n 1024 --seed 1 --backend compute
