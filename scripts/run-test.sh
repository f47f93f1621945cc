#!/bin/sh
# prove's --exec wrapper for `make check`: runs one test with a time limit so
# that a hung test fails (status 124, its process group killed) instead of
# stalling the whole run. Like prove, a test that is not executable runs
# under the interpreter named on its #! line, or perl.
# Usage: scripts/run-test.sh TEST     (limit: PATHPROF_TEST_TIMEOUT, s, default 600)
#
# In a sanitizer suite (PP_SANITIZER_LOGS set by mk/sanitize.mk) every
# sanitizer report of the test's processes goes to a file of its own, and a
# test that left one fails with the report shown, even where the program
# that made it was expected to fail anyway.
set -eu
limit=${PATHPROF_TEST_TIMEOUT:-600}
# Read, then hidden: the runtime warns about every PATHPROF_* it does not know.
unset PATHPROF_TEST_TIMEOUT
t=$1
case $t in */*) ;; *) t=./$t ;; esac
if [ -x "$t" ]; then
    set -- "$t"
else
    interp=$(sed -n '1s/^#! *//p' "$t")
    # shellcheck disable=SC2086 # "#!/usr/bin/env bash" is two words
    set -- ${interp:-perl} "$t"
fi
[ -n "${PP_SANITIZER_LOGS:-}" ] || exec timeout -k 10 "$limit" "$@"

logs=$PP_SANITIZER_LOGS/$(basename "$t")
rm -rf "$logs" && mkdir -p "$logs"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}log_path=$logs/asan"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}${UBSAN_OPTIONS:+:}log_path=$logs/ubsan"
export TSAN_OPTIONS="${TSAN_OPTIONS:-}${TSAN_OPTIONS:+:}log_path=$logs/tsan"
rc=0
timeout -k 10 "$limit" "$@" || rc=$?
# Two notes of LeakSanitizer's are no report: in a child forked from a
# multithreaded parent it lists the parent's threads (with or without
# pathprof), and when a test kills a process (kill -9) while LSan checks it
# at exit, LSan's tracer, which outlives it, writes that it could not read
# the dead thread's registers (tests/runtime-accumulate.t kills processes
# at random moments; reproduced there, 2 of 600 processes).
for f in "$logs"/*; do
    [ -f "$f" ] || continue
    grep -Evq -e '^==[0-9]+==Running thread [0-9]+ was not suspended\. False leaks are possible\.$' \
        -e '^==[0-9]+==Unable to get registers from thread [0-9]+\.$' "$f" ||
        rm -f "$f"
done
if [ -n "$(ls -A "$logs")" ]; then
    for f in "$logs"/*; do
        echo "# sanitizer report $f:"
        sed -n '1,60s/^/#   /p' "$f"
    done >&2
    [ "$rc" = 0 ] && rc=1
fi
exit "$rc"
