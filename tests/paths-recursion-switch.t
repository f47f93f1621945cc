#!/usr/bin/env bash
# Path counts known by construction for recursion (fib, mutual recursion)
# and switch (fall-through, shared labels, default), at -O0 and -O2.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
for level in O0 O2; do
    for p in recursion switch_small; do
        pp_program "$PP_PROGRAMS/$p.c" "$level"
    done
done
done_testing
