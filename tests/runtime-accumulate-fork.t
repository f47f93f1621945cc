#!/usr/bin/env bash
# PATHPROF_ACCUMULATE=1 and fork (docs/runtime.md, "fork"): a forked
# child's counts start from 0, as gcov's do, so the parent's profile and
# its children's, added, count every path as often as it ran: a program
# that forks children which walk stretches of step() accumulates exactly
# the counts of the same walks run in one process without forking (array
# and hash counters, PPP's, and a sampled build's totals). Without
# PATHPROF_ACCUMULATE a child still inherits the parent's counts.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/merge/counts.pl
SRC=$TAP_ROOT/tests/merge/forks.c
cd "$T" || exit 1
pp_cc "$T/array" "$SRC" -O2 && pp_cc "$T/hash" "$SRC" -O2 -fplugin-arg-pathprof-hash-threshold=1 &&
    pp_cc "$T/sampled" "$SRC" -O2 -fplugin-arg-pathprof-sampling=yes || BAIL_OUT "cannot build forks.c"

# The counts of step() only (main's paths differ: one forks).
steps() { "$PP_CLI" report --json "$1" >"$1.json" && perl "$ORACLE" bl "$1.json" | grep '^step '; }

# PPP: the interesting paths count in an array, the others in a hash table.
PATHPROF_OUT=$T/train.pp "$T/array" 300 0 seq >/dev/null && "$PP_CLI" select train.pp --cover 0.5 >sel.txt &&
    pp_cc "$T/ppp" "$SRC" -O2 -fplugin-arg-pathprof-ppp="$T/sel.txt" || BAIL_OUT "cannot build forks.c with ppp"

for b in array hash ppp; do
    PATHPROF_OUT=$T/$b.seq "$T/$b" 3000 3 seq >/dev/null
    rm -f "$b.acc"
    PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/$b.acc "$T/$b" 3000 3 >"$b.out" 2>"$b.err"
    is "$?:$(cat "$b.err")" "0:" "$b: the forking run (3 children) exits 0, silent"
    is "$(grep -c '^child' "$b.out")" 3 "$b: the three children ran"
    seq=$(steps "$b.seq")
    like "$seq" "^step 0 [1-9]" "$b: the sequential run counted step()"
    is "$(steps "$b.acc")" "$seq" "$b: accumulated with its children, step()'s counts are the sequential run's"
done

# Sampled at 1/1 (every path counted): the totals restart in the child too,
# so the accumulated checks are the sequential run's.
checks() { "$PP_CLI" report --json "$1" | perl -MJSON::PP -e '
    my $s = decode_json(join "", <STDIN>)->{sampling}; print $s->{gap_checks} + $s->{burst_checks}'; }
PATHPROF_SAMPLE=1/1 PATHPROF_OUT=$T/s.seq "$T/sampled" 3000 3 seq >/dev/null
rm -f s.acc
PATHPROF_SAMPLE=1/1 PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/s.acc "$T/sampled" 3000 3 >/dev/null
is "$(steps s.acc)" "$(steps s.seq)" "sampled at 1/1: step()'s counts are the sequential run's"
is "$(checks s.acc)" "$(checks s.seq)" "sampled at 1/1: so are the checks"

# Not accumulating: each process's profile holds what its address space
# counted, the parent's counts up to the fork included (docs/runtime.md).
mkdir sep
PATHPROF_OUT=$T/sep/p.%p "$T/array" 3000 1 >/dev/null
n=0
for f in sep/p.*; do
    t=$("$PP_CLI" report --json "$f" | perl -MJSON::PP -e '
        my ($f) = grep { $_->{name} eq "step" } @{ decode_json(join "", <STDIN>)->{functions} }; print $f->{total}')
    [ "$t" -ge 3000 ] && n=$((n + 1))
done
is "$n" 2 "without PATHPROF_ACCUMULATE, the child's profile still holds the parent's 3000 steps before the fork"
done_testing
