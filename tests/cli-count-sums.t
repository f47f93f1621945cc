#!/usr/bin/env bash
# Counts summed past 2^64 - 1 (issue 11, fault 3): the reader summed path
# counts in 64 bits and wrapped silently on a crafted file ("paths 5
# executed", shares of 1.8e20%). Real profiles (tests/cli/kipf/oddeven.c in
# counting and stream mode, tests/cli/e2e/ a.c + b.c with the copies of
# h.h's shared() and direct edge counters) get counts whose sums do not
# fit, checksum re-sealed (tests/cli/craft.pl); every sum the reader makes
# must refuse them: a function's paths, a TU section's, all TU sections',
# copies of one function merged (path and edge counts), the PROGRAM
# section's two totals, the lower bounds of a KPRUNE length.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
CRAFT=$PP_CLI_DIR/craft.pl

cp "$PP_CLI_DIR/kipf/oddeven.c" "$PP_CLI_DIR"/e2e/* "$T/"
cd "$T" || exit 1
pp_cc "$T/oe" oddeven.c -O2 || BAIL_OUT "cannot build oddeven.c"
pp_run "$T/oe.pp" "$T/oe" || BAIL_OUT "oddeven failed"
pp_cc "$T/oes" oddeven.c -O2 -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build oddeven.c (stream)"
PATHPROF_ANALYZER=blpp,ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=64K PATHPROF_QUIET=1 \
    PATHPROF_OUT=$T/oes.pp "$T/oes" >/dev/null || BAIL_OUT "oddeven (stream) failed"
pp_cc "$T/ab" a.c -O0 -fplugin-arg-pathprof-verify b.c || BAIL_OUT "cannot build a.c b.c"
pp_run "$T/ab.pp" "$T/ab" || BAIL_OUT "a.c b.c failed"

cli_run report "$T/oe.pp"
has "$OUT" "paths      801 executed (array updates 801, hash updates 0)" "the sound profile: 801 paths"

# refused NAME IN EDIT REGEX [CMDS]: the crafted file is refused by every
# Ball-Larus command with exit 2 and one line naming the TU section
refused() {
    local name=$1 in=$2 edit=$3 re=$4 f=$T/bad.pp cmd
    perl "$CRAFT" "$in" "$f" "$edit" || BAIL_OUT "craft.pl $edit failed"
    for cmd in "report @" "report @ --json" "show @ main 0"; do
        # shellcheck disable=SC2086
        cli_run ${cmd//@/$f}
        one_error_line "$f" "section [0-9]+ \(TU, at byte [0-9]+\): $re$" "$name: $cmd exits 2"
        lacks "$OUT" 'executed|"paths_executed"' "$name: $cmd prints no total"
    done
}

refused "two paths of one function at 2^63" "$T/oe.pp" tu-wrap-func \
    'function [0-9]+ \([a-z]+\): its path counts add up to more than 2\^64 - 1 \(at path [0-9]+\)'
refused "one path of each of two functions at 2^63 (total 2^64 + 5)" "$T/oe.pp" tu-wrap-profile \
    'its path counts add up to more than 2\^64 - 1 \(at function 1, [a-z]+\)'
refused "the copies of shared() in two TU sections at 2^63" "$T/ab.pp" tu-wrap-copies:shared \
    'the path counts of this and the TU sections before it add up to more than 2\^64 - 1'
refused "the direct edge counts of the copies of shared() at 2^63" "$T/ab.pp" verify-wrap-copies:shared \
    'the counts of shared, summed with its copy in section [0-9]+, exceed 2\^64 - 1'

# The PROGRAM section's totals agreeing with the file only modulo 2^64:
# that section is damaged (a warning), the paths still read.
perl "$CRAFT" "$T/oe.pp" "$T/bad.pp" program-totals-wrap || BAIL_OUT "craft.pl failed"
cli_run report "$T/bad.pp"
is "$RC" 0 "PROGRAM totals past 2^64 - 1: report reads the paths"
like "$ERR" "^pathprof: $T/bad.pp: warning: section 1 \(PROGRAM, at byte 64\) is damaged, .*: array updates 18446744073709551615 and hash updates 802 add up to more than 2\^64 - 1$" \
    "PROGRAM totals past 2^64 - 1: one warning naming the section and why"
has "$OUT" "paths      801 executed" "PROGRAM totals past 2^64 - 1: the totals are not shown as agreeing"

# KPRUNE: lower bounds 2^64 - 1 and 2 summed in 64 bits are 1, below any total.
perl "$CRAFT" "$T/oes.pp" "$T/bad.pp" kprune-wrap || BAIL_OUT "craft.pl failed"
cli_run report --k --pruned "$T/bad.pp"
one_error_line "$T/bad.pp" \
    'section [0-9]+ \(KPRUNE, at byte [0-9]+\): sequences of 1 BL paths: the lower bounds exceed the 18446744073709551615 occurrences$' \
    "KPRUNE lower bounds past 2^64 - 1: report --k --pruned exits 2"
done_testing
