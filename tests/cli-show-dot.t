#!/usr/bin/env bash
# `pathprof show` (one path decoded) and `pathprof dot` (the numbered
# graph), on the hand-made profile of tests/cli/mkprofile.pl.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require

perl "$MKPROFILE" "$T/p.pp" || BAIL_OUT "mkprofile.pl failed"
cp "$PP_CLI_DIR/t.c" "$T/t.c"
cd "$T" || exit 1

cli_run show p.pp loop 3
is "$RC" 0 "show loop 3: exit 0"
expected="function  loop (t.c:1)
checksum  0x123456789abcdef0
flags     verify
path      3 of 6 (IDs 0-5)
count     20
length    4 blocks
runs      starts at loop header t.c:3 after back edge; ends taking back edge to t.c:3

edges (values add up to the path ID)
  ENTRY -> bb 23         entry-dummy  val 3      inc 3
  bb 23 -> bb 24         real         val 0      inc 0
  bb 24 -> bb 25         real         val 0      inc 0
  bb 25 -> bb 27         real         val 0      inc 0
  bb 27 -> EXIT          exit-dummy   val 0      inc 0  stands for bb 27 -> bb 23 (back edge)

blocks    23 24 25 27

lines
  t.c:3
         3 |     while (i < n) {
    branch at line 3 -> line 4; not taken: line 10
  t.c:4
         4 |         if (i & 1)
    branch at line 4 -> line 5; not taken: line 7
  t.c:5
         5 |             s += i;
  t.c:8
         8 |         i++;"
is "$OUT" "$expected" "show loop 3: the whole decoding"

cli_run show p.pp loop 0
is "$RC" 0 "show of a path that never ran: exit 0"
has "$OUT" "count     0" "show loop 0: count 0"
has "$OUT" "blocks    22 23 24 25 27" "show loop 0: blocks"
has "$OUT" "runs      starts at function entry; ends taking back edge to t.c:3" "show loop 0: entry to back edge"

cli_run show p.pp fatal 0
has "$OUT" "count     9007199254740993" "show fatal 0: exact count"
has "$OUT" "  bb 3 -> EXIT           terminal     val 0      inc 0" "show fatal 0: terminal edge"
has "$OUT" "runs      starts at function entry; ends at noreturn call (exit, abort, trap...)" \
    "show fatal 0: ends at a noreturn call"

cli_run show p.pp wide 1152921504606846977
is "$RC" 0 "show with an ID above 2^60: exit 0"
has "$OUT" "path      1152921504606846977 of 1152921504606846978 (IDs 0-1152921504606846977)" \
    "show wide: exact ID"
has "$OUT" "  bb 2 -> EXIT           real         val 1152921504606846977 inc 0" "show wide: exact value"

cli_run show p.pp loop 6
is "$RC" 1 "show of an ID >= npaths: exit 1"
is "$ERR" "pathprof: p.pp: no path 6 in loop (its IDs are 0-5)" "show loop 6: one line why"
cli_run show p.pp helper 0
is "$RC" 1 "show of an ambiguous name: exit 1"
is "$ERR" "pathprof: p.pp: 'helper' names 2 functions: t.c:helper, u.c:helper; name one as FILE:NAME" \
    "show helper: lists the candidates"
cli_run show p.pp u.c:helper 1
is "$RC" 0 "show FILE:NAME: exit 0"
has "$OUT" "function  helper (u.c:10)" "show u.c:helper: the static function of u.c"
cli_run show p.pp t.c:helper 0
has "$OUT" "count     7" "show t.c:helper: merged count of two copies"
cli_run show p.pp nosuch 0
is "$RC" 1 "show of an unknown function: exit 1"
is "$ERR" "pathprof: p.pp: no function 'nosuch' (pathprof report --json lists them all)" \
    "show nosuch: one line"
# wide's values leave gaps: ID 5 is below npaths but no path adds up to it.
cli_run show p.pp wide 5
one_error_line p.pp "function wide: path 5 cannot be decoded" "show of an ID that does not decode: damaged"

cli_run dot p.pp loop
is "$RC" 0 "dot loop: exit 0"
has "$OUT" 'digraph "loop" {' "dot: a digraph named after the function"
# The flow, from the counts mkprofile wrote: paths 3 (20 runs), 1 and 4
# and 5 (10 each), 2 (5); paths 1 and 2 start at the entry, the others at
# the loop header; 5 and 2 leave the loop, 3, 1 and 4 go round it.
has "$OUT" '  graph [label="loop (t.c:1)\n6 paths, checksum 0x123456789abcdef0\nruns 55\nhottest paths: 3 (20 runs), 1 (10 runs), 4 (10 runs) (the first in bold red)", labelloc=t, fontname="monospace"];' \
    "dot: the title gives the runs and the hottest paths, ties by ID"
has "$OUT" '  n0 [label="ENTRY\nruns 55", shape=oval];' "dot: ENTRY with the function's runs"
has "$OUT" '  n3 [label="bb 23\nt.c:3\nruns 55", style=filled, fillcolor="#ffc8c0"];' \
    "dot: nodes labelled with bb, line and runs, filled by heat (every path runs the header)"
has "$OUT" '  n8 [label="bb 28\nt.c:10\nruns 15", style=filled, fillcolor="#ffe4c0"];' \
    "dot: the loop exit ran 15 times (paths 5 and 2), a warm fill"
has "$OUT" '  n3 -> n8 [color="darkorange2", penwidth=1.8, label="val 2\ninc 2\nruns 15"];' \
    "dot: real edge with val, inc and runs; 15 of 55 runs: orange"
has "$OUT" '  n4 -> n5 [color="red", penwidth=4.0, label="val 0\ninc 0\nruns 20"];' \
    "dot: an edge of the hottest path (3): bold red"
has "$OUT" '  n4 -> n6 [color="darkorange2", penwidth=2.1, label="val 1\ninc 1\nruns 20"];' \
    "dot: as many runs off the hottest path: orange, thinner"
has "$OUT" '  n0 -> n3 [color="red", penwidth=4.0, label="val 3\ninc 3\nruns 40\nentry dummy\n(path starts: loop)", style=dashed];' \
    "dot: entry dummy edge dashed, 40 runs start at the header (paths 3, 4, 5)"
has "$OUT" '  n7 -> n1 [color="red", penwidth=4.0, label="val 0\ninc 0\nruns 40\nfor bb 27 -> bb 23\n(back edge)", style=dashed];' \
    "dot: exit dummy edge dashed, with the real edge it stands for"
has "$OUT" '  n7 -> n3 [style=dotted, color=gray, constraint=false];' "dot: the real back edge, dotted"
is "$(printf '%s\n' "$OUT" | grep -c -- ' -> ')" 12 "dot: 11 graph edges and 1 back edge"
is "$(printf '%s\n' "$OUT" | tail -n 1)" "}" "dot: closed"
cli_run dot p.pp fatal
has "$OUT" '  n3 -> n1 [color="red", penwidth=4.0, label="val 0\ninc 0\nruns 9007199254740993\nterminal (noreturn)", style=dashed];' "dot: terminal edge, runs past 2^53 exact"
if command -v dot >/dev/null 2>&1; then
    "$PP_CLI" dot p.pp loop | dot -Tsvg >/dev/null 2>"$T/dot.err"
    ok_status $? "Graphviz accepts the output" || diag "$(cat "$T/dot.err")"
else
    skip "Graphviz (dot) not installed"
fi
cli_run dot p.pp helper
is "$RC" 1 "dot of an ambiguous name: exit 1"
done_testing
