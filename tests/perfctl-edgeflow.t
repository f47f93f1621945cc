#!/usr/bin/env bash
# perfctl/lib/edgeflow.pl, robustness's verify oracle (counting mode's
# paths against the plugin's direct edge counters): on a program whose
# behaviour is known by construction (tests/perfctl/edgeflow.c) it finds
# every edge equal when main returns, exactly the frames exit() abandons,
# exactly one forked partial path per fork (PATHPROF_ACCUMULATE=1 sums
# parent and children), and fails a profile whose edge counts disagree
# with its paths, or that has more of either than allowed.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
FLOW=$TAP_ROOT/perfctl/lib/edgeflow.pl
SRC=$TAP_ROOT/tests/perfctl/edgeflow.c
pp_cc "$T/ef" "$SRC" -O2 -fplugin-arg-pathprof-verify || BAIL_OUT "edgeflow.c does not build"
cd "$T" || exit 1

# flow NAME [edgeflow options]: run edgeflow.pl on NAME.json; out/err/st
flow() {
    local n=$1; shift
    perl "$FLOW" "$@" "$n.json" >out 2>err
    echo $? >st
}

PATHPROF_OUT=$T/ret.pp "$T/ef" ret 1000 >/dev/null && pp_json "$T/ret.pp" >ret.json
flow ret
is "$(cat st) $(sed 's/edges [0-9]*, functions [0-9]*, //' out)" "0 abandoned 0, forked 0" \
    "main returns: every edge's count = its paths', nothing abandoned or forked"

PATHPROF_OUT=$T/exit.pp "$T/ef" exit 1000 >/dev/null; pp_json "$T/exit.pp" >exit.json
flow exit
is "$(cat st)" 0 "exit() at depth 3: within the default --max"
# deepest's path ends at the call of exit (noreturn: a path end), so it
# is complete; main's, deep's and deeper's are not
is "$(sed 's/edges [0-9]*, functions [0-9]*, //' out)" "abandoned 3 (deep=1 deeper=1 main=1), forked 0" \
    "exit() at depth 3: main, deep and deeper each abandon one partial path"
flow exit --max 2
is "$(cat st)" 1 "exit() at depth 3: more than --max 2 fails"
like "$(cat err)" "3 abandoned partial paths in all, more than --max 2" "... and says so"

rm -f fork.pp
PATHPROF_OUT=$T/fork.pp PATHPROF_ACCUMULATE=1 "$T/ef" fork 1000 3 >/dev/null; pp_json "$T/fork.pp" >fork.json
# each fork is under way in spawn's path and in main's (the loop's path
# through the call of spawn): both end in parent and child
flow fork --max-forked 6
is "$(cat st)" 0 "three forks: allowed with --max-forked 6"
like "$(cat out)" "forked 6 \\(main=3 spawn=3\\)" "three forks: three forked partial paths in spawn, three in main"
flow fork
is "$(cat st)" 1 "three forks: the default (--max-forked 0) fails"
like "$(cat err)" "6 forked partial paths in all" "... and says so"
flow fork --max-forked any --max any
is "$(cat st)" 0 "'any' lifts both limits"

# A profile whose paths disagree with its edges: one path's count raised.
perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    for my $f (@{ $j->{functions} }) { next unless $f->{name} eq "work"; $f->{paths}[0]{count} += 7; last }
    print encode_json($j)' <ret.json >bad.json
flow bad
is "$(cat st)" 1 "a path counted 7 more times than its edges ran: fails"
like "$(cat err)" "work .*: edge [0-9]+>[0-9]+: paths through it counted [0-9]+, the edge ran [0-9]+" "... naming the function and an edge"

echo '{"functions":[]}' >none.json
flow none
is "$(cat st)" 2 "a profile without verify_edges: exit 2"
like "$(cat err)" "no function has verify_edges" "... naming why"
done_testing
