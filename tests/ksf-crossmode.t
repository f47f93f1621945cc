#!/usr/bin/env bash
# The ksf analyzer against counting mode, across modes, on a real program
# (tests/ksf/crossmode.c: a one-path loop counted at its exits, i.e. RUN
# markers, entered with every run length from 0 to 40 many times, so the
# memo of runs answers; a loop with a branch; leaf calls inside a caller's
# loop; recursion; nested loops; exit() in the middle of a path), with
# perfctl/lib/kipfcmp.pl, perfctl/crosscheck's oracle for --analyzers ksf:
#   - the k-IPF's roots (k = 8) count every (function, path ID) as
#     counting mode does, and add up to the KIPF section's events;
#   - every level fits the one below by the BL paths' ends (a sequence
#     that begins with a path from a loop header follows another path as
#     often as it ran, one from the entry never; nothing follows a path
#     to a return);
#   - the profile is exact;
# at -O0, -O2 and -O3, with 0 and 1 k-SF workers (PATHPROF_KSF_WORKERS:
# the chunk hand-off), in chunks of 8192 and of 16 words (RUN pairs cut
# between chunks). And the check can fail: a root one off, a count one
# off five levels down, an inexact profile, a k-IPF listed with --top
# or without the roots are each caught.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$T" || exit 1
CMP=$TAP_ROOT/perfctl/lib/kipfcmp.pl
SRC=$TAP_ROOT/tests/ksf/crossmode.c

for level in O0 O2 O3; do
    pp_cc "c-$level" "$SRC" -"$level" && pp_cc "s-$level" "$SRC" -"$level" -fplugin-arg-pathprof-mode=stream ||
        BAIL_OUT "cannot build $SRC -$level"
    PATHPROF_OUT=c-$level.pp "./c-$level" >c-$level.out 2>c-$level.err &&
        "$PP_CLI" report --json c-$level.pp >c-$level.json || BAIL_OUT "counting-mode run of $SRC -$level"
    for w in 0 1; do
        for chunk in 8192 16; do
            t=$level-w$w-c$chunk
            if ! PATHPROF_ANALYZER=ksf PATHPROF_K=8 PATHPROF_KSF_WORKERS=$w PATHPROF_CHUNK=$chunk PATHPROF_OUT=$t.pp \
                "./s-$level" >$t.out 2>$t.err || [ -s $t.err ] ||
                ! "$PP_CLI" report --json $t.pp >$t.json || ! "$PP_CLI" report --k --json --min-length 1 $t.pp >$t.k.json; then
                fail "-$level, $w k-SF workers, chunks of $chunk: the ksf run" "$(cat $t.err)"
                continue
            fi
            facts=$(perl "$CMP" c-$level.json $t.json $t.k.json 2>$t.diff)
            ok_status $? "-$level, $w k-SF workers, chunks of $chunk: k = 8 agrees with counting mode" ||
                diag "$facts" "$(cat $t.diff)"
        done
    done
    ok "-$level: the same output in both modes" cmp -s c-$level.out $level-w0-c8192.out
done

# The facts line, and what the level rules found to be real (main's last
# loop path is followed by exit(), not by another path).
t=O2-w0-c8192
like "$(perl "$CMP" c-O2.json $t.json $t.k.json 2>err)" "^functions 8 paths [0-9]+ total [0-9]+ roots equal levels ok exact yes\$" \
    "the facts line"
like "$(cat err)" "1 path\\(s\\) not ending at a return were last in their activation 1 time" \
    "the exit() in main's loop: its last path has no successor"

# Perturbed documents: each must fail.
root=$(grep -m1 -n '"function":"scale".*"ids":\[[0-9]*\],' $t.k.json | cut -d: -f1)
deep=$(grep -m1 -n '"function":"scale".*"length":6,' $t.k.json | cut -d: -f1)
[ -n "$root" ] && [ -n "$deep" ] || BAIL_OUT "no root or no 6-path sequence of scale in $t.k.json"
perl -pe "s/\"count\":(\\d+)/sprintf('\"count\":%d', \$1 + 1)/e if \$. == $root" $t.k.json >root.json
perl -pe "s/\"count\":(\\d+)/sprintf('\"count\":%d', \$1 - 1)/e if \$. == $deep" $t.k.json >deep.json
out=$(perl "$CMP" c-O2.json $t.json root.json 2>err)
is "$?:$out" "1:$(perl "$CMP" c-O2.json $t.json $t.k.json 2>/dev/null | sed 's/roots equal levels ok/roots no levels no/')" \
    "a root one more than counting mode: roots no (and its level rule too), exit 1"
like "$(cat err)" "scale .*count [0-9]+, ksf roots [0-9]+; 1 path\\(s\\) differ" "... and the function is named"
out=$(perl "$CMP" c-O2.json $t.json deep.json 2>err)
is "$?:${out#* roots }" "1:equal levels no exact yes" "a count one off five levels below the roots: levels no, exit 1"
like "$(cat err)" "scale \\[[0-9,]+\\] \\(count [0-9]+\\)" "... and the sequence is named"
sed 's/"exact":true/"exact":false/' $t.json >inexact.json
out=$(perl "$CMP" c-O2.json inexact.json $t.k.json 2>/dev/null)
is "$?:${out##* }" "1:no" "an inexact profile: exit 1"
"$PP_CLI" report --k --json --min-length 1 --top 5 $t.pp >top.json
perl "$CMP" c-O2.json $t.json top.json >/dev/null 2>err
is "$?" 2 "a k-IPF cut by --top: exit 2"
"$PP_CLI" report --k --json $t.pp >noroots.json
perl "$CMP" c-O2.json $t.json noroots.json >/dev/null 2>err
is "$?" 2 "a k-IPF without its roots (--min-length 2): exit 2"
like "$(cat err)" "min-length 1" "... and the message says how to make one"

# A program that forks in a loop, its children's profiles added to the
# parent's (PATHPROF_ACCUMULATE=1): each child's sequences of the loop
# start at the fork without their predecessor (docs/runtime.md, "fork").
# kipfcmp.pl refuses that unless --max-forked allows it (a recipe's
# PROG_FORK_MAX), and then names the shortfall; a limit below it fails.
if [ "${PP_SANITIZE:-}" = thread ]; then
    # TSan cannot start threads in a multithreaded fork's child, which the
    # stream build's runtime does (mk/sanitize.mk).
    skip "TSan: the stream build's fork children cannot restart their analyzers" 5
else
    F=$TAP_ROOT/tests/ksf/fork-loop.c
    pp_cc fk-c "$F" -O2 && pp_cc fk-s "$F" -O2 -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build $F"
    fkenv=(PATHPROF_ACCUMULATE=1 PATHPROF_ANALYZER=ksf PATHPROF_K=8 PATHPROF_KSF_WORKERS=0)
    env "${fkenv[@]}" PATHPROF_OUT=fk-c.pp ./fk-c >/dev/null && env "${fkenv[@]}" PATHPROF_OUT=fk-s.pp ./fk-s >/dev/null ||
        BAIL_OUT "the fork-loop runs"
    "$PP_CLI" report --json fk-c.pp >fk-c.json && "$PP_CLI" report --json fk-s.pp >fk-s.json &&
        "$PP_CLI" report --k --json --min-length 1 fk-s.pp >fk-s.k.json || BAIL_OUT "reports of the fork-loop"
    out=$(perl "$CMP" fk-c.json fk-s.json fk-s.k.json 2>err)
    is "$?:${out#* roots }" "1:equal levels no exact yes" "fork loop without --max-forked: levels no"
    like "$(cat err)" "loop \\[[0-9]+\\] \\(count 4\\) starts at a loop, yet follows another path 0 time" \
        "... naming the loop's sequence that began in the parent"
    out=$(perl "$CMP" --max-forked any fk-c.json fk-s.json fk-s.k.json 2>err)
    is "$?:${out#* roots }" "0:equal levels ok exact yes" "with --max-forked any: levels ok"
    like "$(cat err)" "1 sequence\\(s\\) starting at a loop or cut lack their predecessor 4 time" "... and the shortfall is printed"
    out=$(perl "$CMP" --max-forked 3 fk-c.json fk-s.json fk-s.k.json 2>err)
    is "$?:${out#* roots }" "1:equal levels no exact yes" "with --max-forked 3, below the 4 forks: levels no"
fi

done_testing
