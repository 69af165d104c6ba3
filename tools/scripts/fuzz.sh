#!/bin/sh
# fuzz.sh DIR NAME... - runs each libFuzzer target DIR/fuzz_NAME for
# $FUZZ_SECONDS (default 60) from its corpus tests/corpus/NAME/ (seeds and
# regression cases, read only) plus a scratch corpus DIR/corpus/NAME/.  An
# input that crashes, leaks or hangs (over 10 s) is copied into
# tests/corpus/NAME/ as a regression case, which make test replays.
# tests/fuzz/NAME.dict, where there is one, is the target's dictionary.
# Exits 1 when any target found one.
set -u
dir=$1; shift
seconds=${FUZZ_SECONDS:-60}
found=""
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for name in "$@"; do
    scratch="$dir/corpus/$name" artifacts="$dir/artifacts/$name"
    mkdir -p "$scratch" "$artifacts" "tests/corpus/$name"
    dict=""
    [ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
    echo "== fuzz_$name: $seconds s"
    "$dir/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" $dict \
        "$scratch" "tests/corpus/$name" >"$dir/fuzz_$name.log" 2>&1
    status=$?
    grep -E '^(stat::number_of_executed_units|stat::new_units_added)' "$dir/fuzz_$name.log"
    for f in "$artifacts"/*; do
        [ -f "$f" ] || continue
        kind=${f##*/}; kind=${kind%%-*}
        sum=$(sha1sum "$f" | cut -c1-12)
        cp "$f" "tests/corpus/$name/$kind-$sum"
        echo "fuzz_$name: $kind, kept as tests/corpus/$name/$kind-$sum"
        rm -f "$f"
        found="$found $name"
    done
    if [ $status -ne 0 ] && [ -z "$found" ]; then
        echo "fuzz_$name: exit $status, see $dir/fuzz_$name.log"; tail -20 "$dir/fuzz_$name.log"
        found="$found $name"
    fi
done
if [ -n "$found" ]; then
    echo "fuzz: inputs found by:$found (see $dir/fuzz_NAME.log)"
    exit 1
fi
echo "fuzz: nothing found"
