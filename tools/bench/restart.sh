#!/bin/sh
# usage: OUT=DIR bash tools/bench/restart.sh   (on the GPU machine, from the project root)
# restart.sh - checkpoints and restarts on a real GPU.
# Run on the device machine from the project root, carrying what was built
# here (make glnbody spirv/.stamp tests/check_restart):
#   OUT=DIR bash tools/bench/restart.sh
#   (from a build of this tree: glnbody, spirv, tests/check_restart; on a
#    machine without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
# (add ".ompi" when glnbody links Open MPI; see tools/bench/env.sh).
# Writes under $OUT:
#   check_restart.txt  the suite (run A against run B interrupted three ways,
#                      compute and fragment, modes A and H) on the GPU
#   restart.csv        engine,mode,n,checkpoint_bytes,identical: a Hermite run
#                      of n to t = 1 against the same run made in two legs
#                      (checkpoint at t = 0.5, --restart --t-end 1), --output
#                      compared byte for byte
set -u
. tools/bench/env.sh
export GLNBODY_BIN=build/glnbody CK_VERBOSITY=normal
build/tests/check_restart > "$OUT/check_restart.txt" 2>&1
echo "check_restart exit $?" >> "$OUT/check_restart.txt"

W=$(mktemp -d)
echo "engine,mode,n,checkpoint_bytes,identical" > "$OUT/restart.csv"
for cfg in "compute A" "compute H" "fragment A"; do
    set -- $cfg
    for n in 16384 65536; do
        common="--backend $1 --precision $2 --n $n --seed 3 --quiet"
        [ "$1" = fragment ] && common="--backend $1 --n $n --seed 3 --quiet"
        build/glnbody run $common --t-end 1 --output "$W/a.txt" > /dev/null 2>&1 || continue
        rm -f "$W/b.ck" "$W/b.txt"
        build/glnbody run $common --t-end 0.5 --checkpoint "$W/b.ck" > /dev/null 2>&1
        build/glnbody run --restart "$W/b.ck" --t-end 1 --output "$W/b.txt" > /dev/null 2>&1
        same=no
        cmp -s "$W/a.txt" "$W/b.txt" && same=yes
        echo "$1,$2,$n,$(stat -c %s "$W/b.ck"),$same" >> "$OUT/restart.csv"
    done
done
rm -rf "$W"
cat "$OUT/restart.csv"
