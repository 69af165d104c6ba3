#!/bin/bash
# usage: bash tools/bench/llvmpipe_numbers.sh [--quick]
# llvmpipe_numbers.sh - measure the numbers that tools/docs/performance.md quotes for a
# machine without a GPU (make run, make test, the GA kernel), and print them.
#
#   tools/bench/llvmpipe_numbers.sh            everything: make test on a clean clone
#                                      (minutes), make run, the GA bench
#   tools/bench/llvmpipe_numbers.sh --quick    without the make test timing
#
# Run from the project root.  It clones the committed tree (HEAD) into a
# temporary directory, so uncommitted edits are not measured.  The load
# average is printed before and after each timing: on a shared machine the
# figures are only as good as the load was low.
set -u
quick=0
[ "${1:-}" = --quick ] && quick=1
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "== machine"
echo "processor: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores;" \
     "vector extensions: $(grep -o -w 'avx2\|avx512f\|fma' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "LP_NUM_THREADS=${LP_NUM_THREADS:-unset}"

git clone -q "$root" "$tmp/src" || exit 1
cd "$tmp/src" || exit 1

if [ $quick = 0 ]; then
    echo "== make test (clean clone: build and all suites)"
    l0=$(load); t0=$(now)
    make test > "$tmp/test.log" 2>&1; rc=$?
    t1=$(now)
    echo "make test: exit $rc, wall $(secs "$t0" "$t1") s (load $l0 before, $(load) after)"
    grep -E '^(test suites|install):' "$tmp/test.log"
else
    make -s all > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
fi

echo "== make run"
l0=$(load); t0=$(now)
make -s run > "$tmp/run.log" 2>&1; rc=$?
t1=$(now)
cat "$tmp/run.log"
echo "make run: exit $rc, wall $(secs "$t0" "$t1") s (load $l0 before, $(load) after)"

echo "== GA kernel, N = 4096: best variant of each pipeline (auto), median of 5"
l0=$(load)
build/glnbody bench --kernel ga --backend compute,fragment,cpu --variant auto \
    --n 4096 --runs 5 2>&1 | grep -E 'compute|fragment|cpu|renderer'
echo "(load $l0 before, $(load) after)"
