#!/usr/bin/env bash
# Path counts known by construction: loops with a known branch pattern,
# nested loops, early returns, goto (tests/programs/*.c say what they
# expect in their `//!` lines), at -O0 and -O2, and the same output and
# exit status with and without pathprof.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
for level in O0 O2; do
    for p in loop_branch nested_loops early_return goto; do
        pp_program "$PP_PROGRAMS/$p.c" "$level"
    done
done
done_testing
