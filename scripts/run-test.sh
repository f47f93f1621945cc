#!/bin/sh
# prove's --exec wrapper for `make check`: runs one test with a time limit so
# that a hung test fails (status 124, its process group killed) instead of
# stalling the whole run. Like prove, a test that is not executable runs
# under the interpreter named on its #! line, or perl.
# Usage: scripts/run-test.sh TEST     (limit: PATHPROF_TEST_TIMEOUT, s, default 600)
set -eu
limit=${PATHPROF_TEST_TIMEOUT:-600}
t=$1
case $t in */*) ;; *) t=./$t ;; esac
if [ -x "$t" ]; then
    exec timeout -k 10 "$limit" "$t"
fi
interp=$(sed -n '1s/^#! *//p' "$t")
# shellcheck disable=SC2086 # "#!/usr/bin/env bash" is two words
exec timeout -k 10 "$limit" ${interp:-perl} "$t"
