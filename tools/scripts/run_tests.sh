#!/bin/sh
# run_tests.sh TEST... - runs the Check suites and prints one closing tally
# of the suites passed, failed and skipped (exit 77: one needing GL where
# there is no GL context).  Exits 0 when none failed.
passed=0 failed=0 skipped=0 failures= skips=
for t in "$@"; do
    echo "== $t"
    "$t"
    case $? in
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
