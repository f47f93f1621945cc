#!/usr/bin/env bash
# stream-drop.t - issue 3: PATHPROF_POLICY=drop with a deliberately slow
# analyzer (PATHPROF_TEST_ANALYZER_DELAY_NS, runtime/config.c: a sleep
# after each chunk) and tiny chunks (PATHPROF_CHUNK, PATHPROF_CHUNKS=2).
#
# drop_prog.c (3 threads, a three-way branch; with `jmp`, a setjmp/longjmp
# function whose activations carry two-word ENTER/RESUME markers).  The
# events the program emits come from an exact run: the count-mode profile's
# path total (no markers), or the events of the block run that equals it
# (markers included).  Checked for each drop run:
#   - the program behaves as the plain build;
#   - events were really dropped, and dropped + consumed events = the
#     events emitted, exactly; nothing late, no resync;
#   - without markers: every consumed event is a path counted;
#   - no path is counted more often than it ran (tests/stream/atmost.pl),
#     same functions and checksums as the exact profile;
#   - STREAM policy drop, exact false; `pathprof report` prints the NOT
#     EXACT block naming the dropped events; the runtime warned on stderr.
# And the same slow analyzer under PATHPROF_POLICY=block: the producers
# waited (blocked_ns > 0), nothing lost, the profile = count mode's.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
SRC=$STREAM_DIR/drop_prog.c
ATMOST=$STREAM_DIR/atmost.pl

pp_cc_plain "$T/bin-plain" "$SRC" -O2 -pthread &&
    pp_cc "$T/bin-count" "$SRC" -O2 -pthread -fprofile-update=atomic &&
    pp_cc "$T/bin-stream" "$SRC" -O2 -pthread $STREAM ||
    BAIL_OUT "drop_prog does not build"
d=$T/runs
mkdir -p "$d"
SLOW=(PATHPROF_TEST_ANALYZER_DELAY_NS=100000 PATHPROF_CHUNK=64 PATHPROF_CHUNKS=2)

# one drop case: NAME ITERS JMP [extra env]
drop_case() {
    local name=$1 iters=$2 jmp=$3; shift 3
    local tag="drop, 3 threads x $iters${jmp:+, setjmp markers}${*:+, $*}"
    srun "$d" "$name-plain" -- "$T/bin-plain" 3 "$iters" $jmp
    srun "$d" "$name-count" -- "$T/bin-count" 3 "$iters" $jmp
    srun "$d" "$name" PATHPROF_POLICY=drop "${SLOW[@]}" "$@" -- "$T/bin-stream" 3 "$iters" $jmp
    same_but_warnings "$d" "$name" "$name-plain" "$tag"
    if [ ! -s "$d/$name.json" ] || [ ! -s "$d/$name-count.json" ]; then
        fail "$tag: profiles written" "$(head -n 5 "$d/$name.err")"
        return 1
    fi
    local emitted
    if [ -n "$jmp" ]; then
        # markers: the words emitted are the exact block run's events
        srun "$d" "$name-block" PATHPROF_CHUNK=64 -- "$T/bin-stream" 3 "$iters" $jmp
        same_profile "$d" "$name-block" "$name-count" "$tag: the exact block run" || return 1
        is "$(perl "$STREAM_DIR/ftotals.pl" "$d/$name-block.json" thrower)" "$((3 * iters / 4))" \
            "$tag: the exact block run: thrower calls by construction"
        emitted=$(sfacts "$d/$name-block.json" events)
    else
        emitted=$(sfacts "$d/$name-count.json" paths_executed)
    fi
    local policy exact events dropped late resync unknown pe
    read -r policy exact events dropped late resync unknown pe \
        <<<"$(sfacts "$d/$name.json" policy exact events dropped late resync unknown paths_executed)"
    like "$dropped" '^[1-9][0-9]*$' "$tag: events were dropped ($dropped of $emitted)"
    is "$((dropped + events))" "$emitted" "$tag: dropped $dropped + consumed $events = $emitted emitted"
    is "$late $resync" "0 0" "$tag: nothing late, no resync"
    if [ -z "$jmp" ]; then
        is "$pe $unknown" "$events 0" "$tag: every consumed event is a path counted"
    fi
    local out
    if out=$(perl "$ATMOST" "$d/$name.json" "$d/$name-count.json" 2>&1); then
        pass "$tag: no path counted more often than it ran ($out)"
    else
        fail "$tag: no path counted more often than it ran" "$out"
    fi
    is "$policy $exact" "drop false" "$tag: STREAM policy drop, exact false"
    local report
    report=$("$PP_CLI" report "$d/$name.prof" 2>&1)
    like "$report" "^!!! NOT EXACT" "$tag: pathprof report prints NOT EXACT"
    like "$report" "!!! +$dropped events dropped" "$tag: pathprof report says how many events were dropped"
    like "$(cat "$d/$name.err")" "^pathprof: warning: the profile is not exact: $dropped events dropped \\(PATHPROF_POLICY=drop\\)" \
        "$tag: the runtime warned on stderr"
}

drop_case plain1 60000 ""
drop_case plain2 60000 "" PATHPROF_ANALYZERS=2
drop_case jmp1 12000 jmp
drop_case jmp2 12000 jmp PATHPROF_ANALYZERS=2

# the same slow analyzer under block: exact
for an in 1 2; do
    name=block$an tag="block, slow analyzer, $an analyzer thread(s)"
    srun "$d" "$name-plain" -- "$T/bin-plain" 3 60000
    srun "$d" "$name-count" -- "$T/bin-count" 3 60000
    srun "$d" "$name" PATHPROF_POLICY=block PATHPROF_ANALYZERS=$an "${SLOW[@]}" -- "$T/bin-stream" 3 60000
    same_behaviour "$d" "$name" "$name-plain" "$tag"
    same_profile "$d" "$name" "$name-count" "$tag" || continue
    pp_check expect "$SRC" "$d/$name.json" O2 "$tag: "
    read -r policy exact dropped late blocked <<<"$(sfacts "$d/$name.json" policy exact dropped late blocked_ns)"
    is "$policy $exact $dropped $late" "block true 0 0" "$tag: STREAM policy block, exact, nothing dropped or late"
    like "$blocked" '^[1-9][0-9]*$' "$tag: producers waited for the analyzer (blocked_ns $blocked)"
    unlike "$("$PP_CLI" report "$d/$name.prof" 2>&1)" 'NOT EXACT' "$tag: pathprof report does not say NOT EXACT"
done
done_testing
