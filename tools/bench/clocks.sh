#!/bin/bash
# usage: OUT=DIR bash tools/bench/clocks.sh   (on the GPU machine, from the project root)
# clocks.sh - the SM clock and power while the GA kernels run, to
# read interactions/s against the clock the card actually held.
set -u
source tools/bench/env.sh
sample() { nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 200 > "$OUT/clocks_$1.txt" & echo $!; }
pid=$(sample compute)
build/glnbody bench --backend compute --variant t256i8 --n 1048576 --runs 9 --warmup 1 2>&1 | grep -v renderer
kill $pid; sort "$OUT/clocks_compute.txt" | uniq -c | sort -rn | head -4
pid=$(sample fragment)
build/glnbody bench --backend fragment --variant 4x4,4x4-r1-p16,4x4-r2-p32 --n 262144 --runs 5 --warmup 1 2>&1 | grep -v renderer
kill $pid; sort "$OUT/clocks_fragment.txt" | uniq -c | sort -rn | head -4
printf '# two bodies\n1 1.0 0 0 0 0 0 0\n2 0.5 2 0 0 0 0 0\n' > /tmp/two.txt
for b in cpu compute fragment; do build/glnbody forces --input /tmp/two.txt --softening 0 --backend $b --debug 2>&1; done
