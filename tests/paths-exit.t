#!/usr/bin/env bash
# exit() from main and from two frames down, abort(): same status and
# output as the plain build; the profile is written at exit and holds the
# paths completed before it (the path ending at the exit call included).
# abort: the profile is optional (the program dies by SIGABRT); when one is
# written it must be well formed and hold the paths completed before abort.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
for level in O0 O2; do
    for p in exit_main exit_nested abort; do
        pp_program "$PP_PROGRAMS/$p.c" "$level"
    done
done
done_testing
