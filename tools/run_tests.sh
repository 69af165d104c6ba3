#!/bin/sh
# run_tests.sh TEST... - runs the Check suites, prints one closing tally.
status=0
for t in "$@"; do
    echo "== $t"
    "$t" || status=1
done
[ $status -eq 0 ] && echo "all test suites passed" || echo "some test suites FAILED"
exit $status
