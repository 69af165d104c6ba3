#!/bin/bash
# usage: OUT=DIR [N=1024,4096] bash tools/bench/implementations.sh   (any machine, from the project root, after make)
# implementations.sh - the GA and GAJ kernels on every GL implementation that
# this machine's Mesa gives: llvmpipe (OpenGL 4.5), softpipe (OpenGL ES 3.1,
# at the first N only: it is slow), and zink (OpenGL 4.6 on Vulkan) over
# lavapipe (Debian's mesa-vulkan-drivers), one after the other in the same
# run.  Each gives a self-describing report ($OUT/<name>.json, read with
# glnbody report) and one line of $OUT/implementations.txt: the best GA
# rate of each backend at the first N and its error against the double
# reference (max over sampled i of |x - x_ref| / sum_j |x_ij|), the table
# of tools/docs/implementations.md.
set -eu
out=${OUT:?set OUT to a directory for the results}
n=${N:-1024,4096}
n1=${n%%,*}
g=build/glnbody
mkdir -p "$out"
[ -x "$g" ] || { echo "implementations.sh: $g missing: run make first" >&2; exit 1; }
# zink wants a runtime directory: a private one where none is set.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
    XDG_RUNTIME_DIR=$(mktemp -d)
    export XDG_RUNTIME_DIR
    trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

bench() {   # name, N list, then VAR=VALUE... of the run and glnbody's own options
    local name=$1 list=$2
    shift 2
    env "$@" --report "$out/$name.json" --kernel ga,gaj --backend compute,fragment \
        --runs 5 --warmup 1 --quiet --n "$list"
}
bench llvmpipe-gl45 "$n" "$g" bench
# softpipe's OpenGL stops at 3.3 (no compute shaders); its ES 3.1 has them.
bench softpipe-es31 "$n1" GALLIUM_DRIVER=softpipe "$g" bench --api gles
line=$(GALLIUM_DRIVER=zink LIBGL_ALWAYS_SOFTWARE=1 "$g" compare --n 16 2>&1 >/dev/null | grep '^glnbody: renderer' || true)
case "$line" in
    *"renderer zink"*) bench zink-lavapipe-gl46 "$n" GALLIUM_DRIVER=zink LIBGL_ALWAYS_SOFTWARE=1 "$g" bench ;;
    *) echo "implementations.sh: no zink context (install mesa-vulkan-drivers); zink left out" >&2 ;;
esac

/usr/bin/python3 - "$out" "$n1" > "$out/implementations.txt" <<'PY'
import json, os, sys
out, n1 = sys.argv[1], int(sys.argv[2])
print("| implementation | GL | backend | best variant | GA interactions/s at N = %d | error |" % n1)
print("|---|---|---|---|---|---|")
for name in ("llvmpipe-gl45", "softpipe-es31", "zink-lavapipe-gl46"):
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        continue
    d = json.load(open(path))
    gl = d["machine"]["gl"]
    for backend in ("compute", "fragment"):
        rows = [r for r in d["rows"] if r["kernel"] == "GA" and r["n"] == n1
                and r["backend"] == backend]
        if rows:
            r = max(rows, key=lambda r: r["rate"])
            print("| %s | %s | %s | %s | %.3g | %.2g |" % (gl["renderer"], gl["api"], backend,
                  r["variant"], r["rate"], r["error"]["max"]))
PY
cat "$out/implementations.txt"
