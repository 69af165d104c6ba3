#!/bin/bash
# usage: OUT=DIR bash tools/bench/compare.sh BASE   (on the GPU machine, from the project root)
# compare.sh BASE - one sweep of the current build and of another
# build (BASE: a folder holding its glnbody, glsl/ and spirv/), alternating
# on the same card, so that a change that should not move speed can be
# shown not to: GA compute and fragment rates (median of 5 after 1 warm-up,
# GL timer queries), a Hermite block-step run's t_force and an MD cell-list
# run's device seconds.  Then the current build's GL suites.  Run on the GPU
# machine from the project root, e.g.
#   OUT=DIR bash tools/bench/compare.sh .baseline
#   (from a build of this tree: .baseline, glnbody, spirv, tests; on a
#    machine without libEGL, libepoxy, the Debian packages in .gl/ that
#    tools/bench/env.sh unpacks)
# Writes $OUT/compare.csv (build,round,what,n,value,unit), $OUT/runs.log
# (every command's stderr and the Hermite runs' output) and $OUT/suites.log.
# SMALL=1 shrinks every size, to try the script on llvmpipe.
set -u
base=${1:?usage: compare.sh BASE}
source tools/bench/env.sh
csv="$OUT/compare.csv"
echo "build,round,what,n,value,unit" > "$csv"

if [ "${SMALL:-0}" = 1 ]; then
    ga_n=1024,4096; frag_n=1024; run_n=256; md_cells=6; rounds=1
else
    ga_n=16384,65536,262144,1048576; frag_n=16384,65536; run_n=65536; md_cells=40; rounds=2
fi

# Runs the build in folder $1 (its shaders beside it) with arguments $3...
# label $2 goes to the log name.
glnbody_of() {
    local dir=$1 label=$2; shift 2
    echo "== $label: glnbody $*" >> "$OUT/runs.log"
    GLNBODY_SHADER_DIR=$(cd "$dir" && pwd) "$dir/glnbody" "$@" 2>> "$OUT/runs.log"
}

# bench CSV rows as compare rows: what = backend/variant, value = interactions/s
# (counted from the end: the quoted renderer holds commas).
bench_rows() {
    awk -F, -v b="$1" -v r="$2" 'NR > 1 { print b "," r ",ga-" $2 "-" $3 "," $1 "," $(NF - 3) ",interactions/s" }' "$3"
}

sweep() {
    local dir=$1 build=$2 round=$3 tag="$2_$3"
    glnbody_of "$dir" "bench_c_$tag" bench --kernel ga --backend compute --variant t256i8 \
        --n "$ga_n" --runs 5 --warmup 1 --csv "$OUT/tmp.csv" > /dev/null &&
        bench_rows "$build" "$round" "$OUT/tmp.csv" >> "$csv"
    glnbody_of "$dir" "bench_f_$tag" bench --kernel ga --backend fragment --variant 4x4 \
        --n "$frag_n" --runs 5 --warmup 1 --csv "$OUT/tmp.csv" > /dev/null &&
        bench_rows "$build" "$round" "$OUT/tmp.csv" >> "$csv"
    glnbody_of "$dir" "run_$tag" run --n "$run_n" --t-end 0.0625 --predict gpu \
        > "$OUT/tmp.txt" && cat "$OUT/tmp.txt" >> "$OUT/runs.log" &&
        sed -n 's/.*t_force \([0-9.e+-]*\) s.*/\1/p' "$OUT/tmp.txt" |
        sed "s/^/$build,$round,hermite-t_force,$run_n,/; s/$/,s/" >> "$csv"
    glnbody_of "$dir" "md_$tag" md --ic fcc --cells "$md_cells" --cutoff 2.5 --steps 200 \
        --thermo-every 200 --thermo - --timing "$OUT/tmp.csv" > /dev/null &&
        awk -F, -v b="$build" -v r="$round" 'NR > 1 {
            print b "," r ",md-cells-force," $3 "," $9 ",s"
            print b "," r ",md-cells-build," $3 "," $8 ",s"
            print b "," r ",md-atom-steps," $3 "," $6 ",atom-steps/s" }' "$OUT/tmp.csv" >> "$csv"
}

for round in $(seq 1 $rounds); do
    sweep "$base" before "$round"
    sweep . after "$round"
done
rm -f "$OUT/tmp.csv" "$OUT/tmp.txt"
cat "$csv"

echo "== the current build's GL suites"
for t in check_gpu check_precision check_fragment_precision check_gaj_precision \
         check_md_gpu check_md_fragment check_md_precision check_md_cell_precision \
         check_md_run_precision check_triangular check_run_gpu check_api check_cli_text check_progress; do
    [ -x "tests/$t" ] || { echo "$t: not built"; continue; }
    "tests/$t" > "$OUT/tmp.log" 2>&1
    echo "$t: exit $? -- $(grep -E '^[0-9]+%' "$OUT/tmp.log")"
    { echo "== $t"; cat "$OUT/tmp.log"; } >> "$OUT/suites.log"
done
rm -f "$OUT/tmp.log"
