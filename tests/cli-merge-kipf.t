#!/usr/bin/env bash
# Adding k-IPF forests (runtime/profile-merge-kipf.c, the merge walk):
# forests written in other sibling orders merge to the same bytes, the
# merged forest is in canonical order (checked by a reader written from
# docs/format.md), its counts are the sums of the inputs' as the CLI's own
# reader counts them, siblings with one label are summed across TU
# sections with the same metadata and refused under one parent, and a real
# program in four TUs, run three times, accumulates (PATHPROF_ACCUMULATE=1)
# and merges to the sum of its runs, path for path.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
. "$TAP_ROOT/tests/merge/lib.sh"
ORACLE=$TAP_ROOT/tests/merge/counts.pl
ORDER=$TAP_ROOT/tests/merge/kipf-order.pl
MK=$TAP_ROOT/tests/cli/mkkipf.pl
cd "$T" || exit 1

# Hand-made forests: first-occurrence order, its reverse, and a damaged one.
for s in fig3 copies; do
    perl "$MK" --scenario $s --k 4 $s.pp && perl "$MK" --scenario $s --k 4 --reverse $s.rev.pp ||
        BAIL_OUT "mkkipf.pl failed"
    like "$(perl "$ORDER" $s.rev.pp)" "^node " "$s: the reversed forest is not in canonical order"
    "$PP_CLI" merge -o $s.x2.pp $s.pp $s.pp && "$PP_CLI" merge -o $s.mixed.pp $s.rev.pp $s.pp &&
        "$PP_CLI" merge -o $s.rev2.pp $s.rev.pp $s.rev.pp || fail "$s: merge"
    ok "$s: merged from either order, the same bytes" sh -c "cmp -s $s.x2.pp $s.mixed.pp && cmp -s $s.x2.pp $s.rev2.pp"
    like "$(perl "$ORDER" $s.x2.pp)" "^canonical [1-9][0-9]* nodes" "$s: the merged forest is in canonical order"
    "$PP_CLI" merge -o $s.again.pp $s.x2.pp
    ok "$s: merging the merged profile alone changes no byte" cmp -s $s.x2.pp $s.again.pp
    "$PP_CLI" report --k --json --min-length 1 $s.pp >$s.k.json &&
        "$PP_CLI" report --k --json --min-length 1 $s.x2.pp >$s.x2.k.json || fail "$s: report --k"
    is "$(perl "$ORACLE" k $s.x2.k.json)" "$(perl "$ORACLE" k x2 $s.k.json)" \
        "$s: every k-iteration path counted twice"
done
# The copies scenario's two TU sections have the same metadata, so they
# are one TU in a merge and their roots' subtrees are summed (above).
# Siblings with one label under one parent are damage, as to the reader.
perl "$MK" --dup-root dup.pp || BAIL_OUT "mkkipf.pl --dup-root failed"
echo keep >out.pp
refused "a root written twice in one TU section is refused, naming the file and both nodes" \
    "^pathprof: .*dup\.pp: nodes 0 and [0-9]+: siblings with one label \(function 0, path 6\)" fig3.pp dup.pp

# A real program in four TUs (tests/merge/multi), k = 8.
M=$TAP_ROOT/tests/merge/multi
pp_cc "$T/multi" "$M/main.c" -O2 -fplugin-arg-pathprof-mode=stream "$M/scan.c" "$M/table.c" "$M/util.c" ||
    BAIL_OUT "cannot build tests/merge/multi"
export PATHPROF_ANALYZER=ksf PATHPROF_K=8
for r in a:3000 b:777 c:12000; do
    PATHPROF_OUT="$T/${r%:*}.pp" "$T/multi" "${r#*:}" >/dev/null 2>"$T/${r%:*}.err"
    is "$?:$(cat "$T/${r%:*}.err")" "0:" "multi, run ${r%:*} (${r#*:}): exit 0, silent"
    PATHPROF_ACCUMULATE=1 PATHPROF_OUT="$T/acc.pp" "$T/multi" "${r#*:}" >/dev/null 2>"$T/acc.err"
    is "$?:$(cat "$T/acc.err")" "0:" "multi, run ${r%:*} accumulated: exit 0, silent"
    "$PP_CLI" report --k --json --min-length 1 "${r%:*}.pp" >"${r%:*}.k.json" || fail "report --k ${r%:*}"
done
note "a run's own forest: $(perl "$ORDER" a.pp)"
merge_groupings a b c
like "$(perl "$ORDER" abc.pp)" "^canonical [1-9][0-9]* nodes" "multi: the merged forest is in canonical order"
"$PP_CLI" report --k --json --min-length 1 abc.pp >abc.k.json && "$PP_CLI" report --k --json --min-length 1 acc.pp >acc.k.json ||
    fail "report --k of the sums"
is "$(perl "$ORACLE" k abc.k.json)" "$(perl "$ORACLE" k a.k.json b.k.json c.k.json)" \
    "multi: merged, each k-iteration path's count is the sum of the three runs'"
is "$(perl "$ORACLE" k acc.k.json)" "$(perl "$ORACLE" k a.k.json b.k.json c.k.json)" \
    "multi: accumulated at exit, the same sums"
# Damage to the KIPF section of a compact, canonical forest (the kind
# merged without decoding it): every damaged copy is refused with one
# line or merges to a profile that reads back, never a crash.
read -r from to <<<"$(perl "$ORDER" --where acc.pp)"
mkdir -p sweep && perl "$TAP_ROOT/tests/cli/patch.pl" --sweep acc.pp sweep $(((to - from) / 100 + 1)) ||
    fail "patch.pl --sweep"
bad=0 checked=0
for f in sweep/*; do
    at=${f##*-}
    [ "$at" -ge "$from" ] && [ "$at" -lt "$to" ] || continue
    checked=$((checked + 1))
    "$PP_CLI" merge -o swept.pp "$f" >/dev/null 2>swept.err
    rc=$?
    if [ "$rc" = 0 ]; then
        "$PP_CLI" report --k swept.pp >/dev/null 2>&1 || { bad=$((bad + 1)); diag "$f: merged, but the result does not read"; }
    elif [ "$rc" != 2 ] || [ "$(grep -c '' swept.err)" != 1 ]; then
        bad=$((bad + 1)); diag "$f: exit $rc: $(head -c 300 swept.err)"
    fi
done
is "$bad" 0 "damaged copies of an accumulated forest: $checked merged or refused cleanly"
ok "multi: at least 100 distinct k-iteration paths summed ($(perl "$ORACLE" k abc.k.json | grep -c ''))" \
    test "$(perl "$ORACLE" k abc.k.json | grep -c '')" -ge 100
done_testing
