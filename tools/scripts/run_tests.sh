#!/bin/sh
# run_tests.sh TEST... - runs the Check suites, NB_TEST_JOBS at a time (by
# default one per processor: much of a suite's time is spent starting
# processes and compiling shaders, not in the GL driver's threads), prints
# each suite's output whole when it ends, with its time, and one closing
# tally of the suites passed, failed and skipped (exit 77: one needing GL
# where there is no GL context).  Exits 0 when none failed.
jobs=${NB_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in
    ''|*[!0-9]*|0) echo "run_tests.sh: NB_TEST_JOBS='$jobs' is not a positive integer" >&2
                   exit 2 ;;
esac
logs=$(mktemp -d "${TMPDIR:-/tmp}/run_tests.XXXXXX") || exit 2
trap 'rm -rf "$logs"' EXIT INT TERM

# One suite: its output and status under $logs, keyed by its place in the
# list; the output printed in one piece under a lock, so that suites
# running together do not interleave.
run_one='
    logs=$1 at=$2 t=$3
    start=$(date +%s)
    "$t" > "$logs/$at.out" 2>&1
    rc=$?
    echo "$rc" > "$logs/$at.rc"
    {
        flock 9
        echo "== $t"
        cat "$logs/$at.out"
        echo "-- ${t##*/}: $(($(date +%s) - start)) s"
    } 9> "$logs/lock"
'
at=0
for t in "$@"; do
    at=$((at + 1))
    printf '%s %s\n' "$at" "$t"
done | xargs -P "$jobs" -L 1 sh -c "$run_one" run_one "$logs"

passed=0 failed=0 skipped=0 failures= skips= at=0
for t in "$@"; do
    at=$((at + 1))
    rc=$(cat "$logs/$at.rc" 2>/dev/null || echo missing)
    case $rc in
        0)  passed=$((passed + 1)) ;;
        77) skipped=$((skipped + 1)); skips="$skips ${t##*/}" ;;
        *)  failed=$((failed + 1)); failures="$failures ${t##*/}" ;;
    esac
done
echo "test suites: $passed passed, $failed failed, $skipped skipped"
[ -n "$skips" ] && echo "skipped:$skips"
if [ $failed -ne 0 ]; then
    echo "FAILED:$failures"
    exit 1
fi
echo "no test suite failed"
