#!/usr/bin/env bash
# sampling=yes (docs/sampling.md) with PATHPROF_SAMPLE=1/1 counts every
# path: the test programs satisfy their own `//! expect` lines, print the
# same as without pathprof, and their profiles equal the profiles of the
# build without sampling path for path, with the same checksums (one
# numbering for both builds).  setjmp_longjmp and computed_goto have
# functions with abnormal edges, which get no checking copy: their counts
# are exact whatever the rate, the others are sampled.  threads: every
# thread starts its own countdown (each begins its endless 1/1 burst).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
CMP=$TAP_ROOT/tests/sampling/cmp.pl
SAMPLING=pp:-fplugin-arg-pathprof-sampling=yes

check() {
    local p=$1 level=$2 exact
    pp_program "$PP_PROGRAMS/$p.c" "$level" noexpect || return
    exact=$PP_LAST_DIR
    PATHPROF_SAMPLE=1/1 pp_program "$PP_PROGRAMS/$p.c" "$level" "$SAMPLING" || return
    ok "$p -$level: sampled at 1/1 = not sampled, path for path" \
        perl "$CMP" same "$exact/prof.json" "$PP_LAST_DIR/prof.json"
    like "$(cat "$PP_LAST_DIR/prof.json")" '"sampling":."sample_n":1,' \
        "$p -$level: the profile records the rate"
    if [ "$p" = threads ]; then
        like "$(cat "$PP_LAST_DIR/prof.json")" '"bursts":13,' \
            "$p -$level: one endless burst per thread (main and 12 workers)"
    fi
}

for p in loop_branch nested_loops early_return goto recursion switch_small \
         setjmp_longjmp computed_goto vla noreturn threads; do
    check "$p" O2
done
for p in loop_branch recursion setjmp_longjmp; do
    check "$p" O0
done
done_testing
