#!/usr/bin/env bash
# Two different paths never print the same (issue 19): for every function
# of real programs (examples/demo.c, an interpreter with a big switch, and
# test programs with loops, goto and switches) at -O0 and -O2, `pathprof
# show` of every numbered path ID, run or not, prints a "lines" section
# (the lines it runs and the way it takes at each branch) that no other
# path of the function prints. Before, ranges merged across branches made
# paths of one function read alike.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

cd "$T" || exit 1
cp "$TAP_ROOT/examples/demo.c" .
for p in switch_small nested_loops goto loop_branch; do cp "$TAP_ROOT/tests/programs/$p.c" .; done
for level in O0 O2; do
    for p in demo switch_small nested_loops goto loop_branch; do
        pp_cc "$T/$p-$level" "$p.c" "-$level" || continue
        PATHPROF_QUIET=1 PATHPROF_OUT=$T/$p-$level.pp "$T/$p-$level" 300 >/dev/null 2>&1
        funcs=$("$PP_CLI" report --json "$p-$level.pp" |
            perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
                print "$_->{name} $_->{npaths}\n" for @{$d->{functions}}')
        nf=0 npaths=0 dups=""
        while read -r name n; do
            [ "$n" -le 400 ] || continue   # bounded: a few hundred shows per program
            nf=$((nf + 1)) npaths=$((npaths + n))
            for ((id = 0; id < n; id++)); do
                "$PP_CLI" show "$p-$level.pp" "$name" "$id" | sed -n '/^runs /p; /^lines$/,$p' >"$T/lines.$id"
            done
            # Same text for two IDs: name both.
            d=$(for ((id = 0; id < n; id++)); do printf '%s %s\n' "$(md5sum <"$T/lines.$id" | cut -c1-32)" "$id"; done |
                sort | awk '$1 == prev { print name ": paths " previd " and " $2 } { prev = $1; previd = $2 }' name="$name")
            dups="$dups$d"
            rm -f "$T"/lines.*
        done <<<"$funcs"
        is "$dups" "" "$p -$level: the $npaths paths of $nf functions all print differently"
    done
done
done_testing
