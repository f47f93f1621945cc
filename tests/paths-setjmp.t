#!/usr/bin/env bash
# setjmp/longjmp out of two frames, and calls to a user noreturn function:
# counts of the completed paths, at -O0 and -O2.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
for level in O0 O2; do
    for p in setjmp_longjmp noreturn; do
        pp_program "$PP_PROGRAMS/$p.c" "$level"
    done
done
done_testing
