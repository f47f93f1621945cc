#!/usr/bin/env bash
# A branch's ways out read as code (docs/cli.md "Lines of a path"): a way
# into a block GCC left without statements (the join after an `if`, the
# landing of a switch case, a return block whose `return v` was merged
# away) is named by where that block leads: "line 133" or "return", never
# a bare "bb 33". "bb N" stays only as "(bb N)", the note that tells two
# ways apart that read the same.
#
# examples/demo.c (the bundled demo, an interpreter with a lexer and a
# recursive-descent parser) has such blocks at -O2 (18 bare "bb N" ways
# before this rule; the old CLI fails this test) and at -O0.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
cd "$T" || exit 1
SRC=$TAP_ROOT/examples/demo.c

for level in O2 O0; do
    pp_cc "$T/demo-$level" "$SRC" "-$level" || { fail "demo.c builds at -$level"; continue; }
    PATHPROF_QUIET=1 PATHPROF_OUT=$T/d-$level.pp "$T/demo-$level" 300 >/dev/null
    cli_run report "d-$level.pp"
    is "$RC" 0 "-$level: report runs"
    branches=$(printf '%s\n' "$OUT" | grep -E '^ +branch at ')
    like "$(printf '%s\n' "$branches" | wc -l)" '^[1-9]' "-$level: the report shows branches"
    # A bare "bb N": not inside "(bb N)".
    bare=$(printf '%s\n' "$branches" | sed -E 's/\(bb [0-9]+\)//g' | grep -E 'bb [0-9]+' | head -n 3)
    is "$bare" "" "-$level: no branch names a way by a bare block number"
done

# The rule on the hand-made profile of tests/cli/mkprofile.pl is a no-op
# (every block has lines): the branch lines of cli-report.t stay.
perl "$MKPROFILE" --scenario small "$T/s.pp" || BAIL_OUT "mkprofile.pl failed"
cli_run show "$T/s.pp" loop 3
has "$OUT" "    branch at line 4 -> line 5; not taken: line 7" "blocks with lines are named by their lines"
done_testing
