#!/bin/bash
# usage: OUT=DIR bash tools/bench/perf_tables.sh   (from the project root, after make)
# perf_tables.sh - the numbers of the performance tables in README.md and
# tools/docs/performance.md, measured again on this machine, each as the
# spread of REPS runs (5) after one warm-up run that is reported apart
# (the first run on a fresh machine also fills the driver's shader cache):
#   run.csv  `glnbody run --predict gpu --correct gpu` on the same Plummer
#            sphere (seed 1, eta 0.02, softening 0.01) at each N of SIZES
#            (16384 65536 262144) to t = 0.25 (0.125 from N = 262144): the
#            split t_host/t_force/t_comm (Portegies Zwart et al. 2007
#            eq. 10), microseconds a block step and the force share
#            t_force / (t_host + t_force + t_comm);
#   ga.csv   `glnbody bench --kernel ga --backend compute` at the same N
#            (each row itself a median of 5 after 1 warm-up), REPS times;
#   g6.csv   build/tools/g6/g6_bench (a block step through libg6gl's GRAPE-6
#            calls, median of 21 blocks) for blocks of NI (1,64,1024) at
#            the same N, REPS times;
#   tables.md  min, median and max of each, with the machine, driver,
#            date, commit and this command, ready to paste.
# Needs build/glnbody, spirv/ and build/tools/g6/g6_bench (make).  On an NVIDIA
# machine without libEGL or libepoxy, tools/bench/env.sh unpacks them from
# .gl/ (it is sourced when nvidia-smi exists).  On llvmpipe try it small:
#   OUT=/tmp/perf SIZES="1024 2048" REPS=2 bash tools/bench/perf_tables.sh
set -u
if command -v nvidia-smi >/dev/null 2>&1; then
    source tools/bench/env.sh
fi
OUT=${OUT:-perf_out}
SIZES=${SIZES:-16384 65536 262144}
REPS=${REPS:-5}
NI=${NI:-1,64,1024}
mkdir -p "$OUT" || exit 1
for f in build/glnbody build/tools/g6/g6_bench; do
    [ -x "$f" ] || { echo "perf_tables.sh: $f is missing: run make first" >&2; exit 1; }
done
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

commit=$(git describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
renderer=$(build/glnbody compare --n 64 2>&1 | sed -n 's/^glnbody: renderer \(.*\), OpenGL.*/\1/p' | head -1)
[ -n "$driver" ] || driver=$(build/glnbody compare --n 64 2>&1 | sed -n 's/.*\(Mesa [0-9.]*\).*/\1/p' | head -1)
cmd="OUT=$OUT SIZES=\"$SIZES\" REPS=$REPS NI=$NI bash tools/bench/perf_tables.sh"

# one_run N T_END: the run's summary as "t_host,t_force,t_comm,block_steps".
one_run() {
    build/glnbody run --ic plummer --n "$1" --seed 1 --backend compute --predict gpu \
        --correct gpu --eta 0.02 --softening 0.01 --t-end "$2" --quiet 2>&1 |
    sed -n -e 's/^block steps \([0-9]*\),.*/bs \1/p' \
           -e 's/.*t_host \([^ ]*\) s, t_force \([^ ]*\) s, t_comm \([^ ]*\) s;.*/split \1,\2,\3/p' |
    awk '$1 == "bs" { bs = $2 } $1 == "split" { sp = $2 } END { if (bs && sp) print sp "," bs }'
}
# plummer N FILE: glnbody's Plummer sphere (seed 1) as g6_bench reads it.
plummer() {
    build/glnbody run --ic plummer --n "$1" --seed 1 --t-end 0 --quiet --output "$work/p.snap" >/dev/null 2>&1 &&
    { echo "$1"; grep -v '^#' "$work/p.snap" | awk '{ print $2, $3, $4, $5, $6, $7, $8 }'; } > "$2"
}

echo "kind,rep,n,t_host,t_force,t_comm,block_steps,us_per_block,force_share" > "$OUT/run.csv"
echo "rep,n,variant,interactions_per_s" > "$OUT/ga.csv"
echo "rep,n,ni,us_per_block,interactions_per_s" > "$OUT/g6.csv"
for n in $SIZES; do
    t=0.25; [ "$n" -ge 262144 ] && t=0.125
    plummer "$n" "$work/plummer_$n.txt" || { echo "perf_tables.sh: no Plummer sphere of $n" >&2; exit 1; }
    for rep in $(seq 0 "$REPS"); do     # rep 0: the warm-up, reported as kind "first"
        kind=warm; [ "$rep" -eq 0 ] && kind=first
        row=$(one_run "$n" "$t")
        [ -n "$row" ] || { echo "perf_tables.sh: glnbody run failed at N = $n" >&2; exit 1; }
        echo "$kind,$rep,$n,$row" | awk -F, '{ w = $4 + $5 + $6
            printf "%s,%.1f,%.3f\n", $0, 1e6 * w / $7, (w > 0 ? $5 / w : 0) }' >> "$OUT/run.csv"
        [ "$rep" -eq 0 ] && continue
        build/glnbody bench --kernel ga --backend compute --n "$n" --runs 5 --warmup 1 \
            --csv "$work/ga.csv" >/dev/null 2>&1 || { echo "perf_tables.sh: bench failed at N = $n" >&2; exit 1; }
        awk -F, -v r="$rep" 'NR > 1 { print r "," $1 "," $3 "," $(NF - 3) }' "$work/ga.csv" |
            sort -t, -k4gr | head -1 >> "$OUT/ga.csv"
        build/tools/g6/g6_bench "$work/plummer_$n.txt" "$NI" 21 2>/dev/null |
            awk -F, -v r="$rep" 'NR > 1 { print r "," $1 "," $2 "," $3 "," $4 }' >> "$OUT/g6.csv"
    done
done

# The tables: min, median and max of the warm runs; the first run apart.
awk -F, -v machine="$renderer" -v driver="$driver" -v date="$(date -u +%F)" \
    -v commit="$commit" -v cmd="$cmd" -v reps="$REPS" '
    function stats(s,   a, m, i, j, x) { m = split(s, a, " ")
        for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] + 0 > x + 0; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return sprintf("%s (%s-%s)", a[int((m + 1) / 2)], a[1], a[m]) }
    FILENAME ~ /run.csv$/ && FNR > 1 {
        if ($1 == "first") first[$3] = $9
        else { ns[$3] = 1; us[$3] = us[$3] " " $8; fs[$3] = fs[$3] " " $9 } }
    FILENAME ~ /ga.csv$/ && FNR > 1 { ga[$2] = ga[$2] " " sprintf("%.3g", $4) }
    FILENAME ~ /g6.csv$/ && FNR > 1 { g6[$2 "," $3] = g6[$2 "," $3] " " $4 }
    END {
        printf "Machine: %s, driver %s, %s, commit %s; median (min-max) of %d runs after a warm-up.\n", machine, driver, date, commit, reps
        printf "Command: `%s`\n\n", cmd
        print "| N | run: µs a block step | force share | force share of the first run | GA compute, interactions/s | libg6gl block of ni = " NI " (µs) |"
        print "|---|---|---|---|---|---|"
        for (n in ns) order[++cnt] = n + 0
        for (i = 1; i <= cnt; i++) for (j = i + 1; j <= cnt; j++) if (order[j] < order[i]) { x = order[i]; order[i] = order[j]; order[j] = x }
        for (i = 1; i <= cnt; i++) { n = order[i]; g = ""
            split(NI, nis, ","); for (q = 1; q in nis; q++) if ((n "," nis[q]) in g6) g = g (g == "" ? "" : "; ") nis[q] ": " stats(g6[n "," nis[q]])
            printf "| %d | %s | %s | %s | %s | %s |\n", n, stats(us[n]), stats(fs[n]), first[n], stats(ga[n]), g }
    }' NI="$NI" "$OUT/run.csv" "$OUT/ga.csv" "$OUT/g6.csv" > "$OUT/tables.md" || exit 1
cat "$OUT/tables.md"
