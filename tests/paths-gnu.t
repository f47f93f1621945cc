#!/usr/bin/env bash
# GNU C: computed goto (&&label), VLAs, nested functions (trampolines):
# counts known by construction, at -O0 and -O2.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
for level in O0 O2; do
    for p in computed_goto vla nested_fn; do
        pp_program "$PP_PROGRAMS/$p.c" "$level"
    done
done
done_testing
