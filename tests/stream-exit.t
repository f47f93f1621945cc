#!/usr/bin/env bash
# stream-exit.t - issue 3: exit() from a thread that is not main while
# other threads keep emitting events, and _exit (documented loss).
#
# exit_thread.c (see its header): pre() P times in main, NS spinner
# threads calling spin() without end, an exiter thread calling ex() X times
# then exit(5).  Two uninstrumented atexit handlers bracket the runtime's
# and print how many spin() calls the spinners had made then.  Checked, in
# several runs and configurations:
#   - exit status 5, stdout as the plain build's;
#   - a profile is written; pre and ex (done before exit) are exact;
#   - honest about spin(): every call made before exit() started is
#     counted or reported lost (count + dropped + late >= spin-before),
#     nothing is counted that did not happen (count <= spin-after + NS);
#   - STREAM: nothing dropped under block, no resync, no unknown TU,
#     events = path counts; `exact` is false exactly when something was
#     lost, and then both the runtime (stderr) and `pathprof report` say so.
# exit_blocked.c: exit() from main while the only other thread is blocked
# in the runtime, waiting for a slow analyzer to give a chunk back: the
# exit must not wait much longer than the analyzer needs to drain what was
# published, and every call made before exit is counted.
# quick_exit.c: _exit(4) from main, or from a thread: no exit handler runs,
# so no profile (docs/streaming.md section 5), and the program behaves as
# without pathprof.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
FT=$STREAM_DIR/ftotals.pl
P=1000 NS=2 X=5000

# -Wno-prio-ctor-dtor: the priority-100 constructor is deliberate
pp_cc_plain "$T/et-plain" "$STREAM_DIR/exit_thread.c" -O2 -pthread -Wno-prio-ctor-dtor &&
    pp_cc "$T/et-stream" "$STREAM_DIR/exit_thread.c" -O2 -pthread -Wno-prio-ctor-dtor $STREAM ||
    BAIL_OUT "exit_thread does not build"

mkdir -p "$T/et"
srun "$T/et" plain -- "$T/et-plain" $P $NS $X
is "$(cat "$T/et/plain.st") $(grep -c '^spin-' "$T/et/plain.err")" "5 2" \
    "plain build: exit status 5, both handlers ran"

n=0
for cfg in "default:" "default again:" "16-event chunks, 2 analyzers:PATHPROF_CHUNK=16 PATHPROF_CHUNKS=2 PATHPROF_ANALYZERS=2" \
    "64-event chunks:PATHPROF_CHUNK=64" "2 analyzers:PATHPROF_ANALYZERS=2"; do
    label=${cfg%%:*} name=s$((++n)) d=$T/et
    # shellcheck disable=SC2086
    srun "$d" "$name" ${cfg#*:} -- "$T/et-stream" $P $NS $X
    is "$(cat "$d/$name.st")" 5 "$label: exit status 5 from the exiting thread"
    ok "$label: same stdout as the plain build" cmp "$d/plain.out" "$d/$name.out"
    before=$(sed -n 's/^spin-before //p' "$d/$name.err") after=$(sed -n 's/^spin-after //p' "$d/$name.err")
    if [ ! -s "$d/$name.json" ] || [ -z "$before" ] || [ -z "$after" ]; then
        fail "$label: a profile is written, both handlers ran" "$(cat "$d/$name.err" | head -n 5)"
        continue
    fi
    pass "$label: a profile is written, both handlers ran"
    read -r pre spin ex <<<"$(perl "$FT" "$d/$name.json" pre spin ex)"
    is "$pre $ex" "$P $X" "$label: pre and ex, done before exit, are exact"
    read -r dropped late resync unknown exact events pe \
        <<<"$(sfacts "$d/$name.json" dropped late resync unknown exact events paths_executed)"
    is "$dropped $resync $unknown $events" "0 0 0 $pe" \
        "$label: STREAM nothing dropped (block), no resync, no unknown TU, events = path counts"
    if [ $((spin + dropped + late)) -ge "$before" ] && [ "$spin" -le $((after + NS)) ]; then
        pass "$label: spin() honest: $before <= $spin counted + $((dropped + late)) lost, $spin <= $after + $NS"
    else
        fail "$label: spin() honest: $before <= $spin counted + $((dropped + late)) lost, $spin <= $after + $NS"
    fi
    report=$("$PP_CLI" report "$d/$name.prof" 2>&1)
    if [ $((dropped + late + resync + unknown)) -gt 0 ]; then
        is "$exact" false "$label: $late late events: exact is false"
        like "$report" '^!!! NOT EXACT' "$label: pathprof report says NOT EXACT"
        like "$(grep '^pathprof: ' "$d/$name.err")" 'warning: the profile is not exact: .* late' \
            "$label: the runtime warned that the profile is not exact"
    else
        is "$exact" true "$label: nothing late: exact is true"
        unlike "$report" 'NOT EXACT' "$label: pathprof report does not say NOT EXACT"
        is "$(grep '^pathprof: ' "$d/$name.err")" "" "$label: the runtime said nothing (PATHPROF_QUIET=1)"
    fi
done

# exit while a producer waits for a slow analyzer (100 ms per chunk, at
# most 2 chunks in flight): draining takes ~0.2 s after the 0.3 s nap.
# Killed after 20 s: a hang must not stall the suite.
pp_cc "$T/eb-stream" "$STREAM_DIR/exit_blocked.c" -O2 -pthread $STREAM || BAIL_OUT "exit_blocked does not build"
d=$T/eb
mkdir -p "$d"
t0=$EPOCHREALTIME
srun "$d" slow PATHPROF_TEST_ANALYZER_DELAY_NS=100000000 PATHPROF_CHUNK=16 PATHPROF_CHUNKS=2 -- \
    timeout -s KILL 20 "$T/eb-stream" 300
t1=$EPOCHREALTIME
ms=$(perl -e 'printf "%d", ($ARGV[1] - $ARGV[0]) * 1000' "$t0" "$t1")
st=$(cat "$d/slow.st")
if [ "$st" = 0 ]; then
    pass "exit with a producer blocked on a slow analyzer: the process ends, status 0"
else
    fail "exit with a producer blocked on a slow analyzer: the process ends, status 0" "status $st" "$(cat "$d/slow.err")"
fi
if [ "$ms" -lt 2500 ] && ! grep -q 'kept its event buffer locked' "$d/slow.err"; then
    pass "exit with a producer blocked on a slow analyzer: ends in ${ms} ms (< 2500), no channel given up"
else
    fail "exit with a producer blocked on a slow analyzer: ends in ${ms} ms (< 2500), no channel given up" \
        "$(grep '^pathprof: ' "$d/slow.err")"
fi
spun=$(sed -n 's/^spun //p' "$d/slow.out")
if [ -s "$d/slow.json" ] && [ -n "$spun" ]; then
    read -r spin <<<"$(perl "$FT" "$d/slow.json" spin)"
    read -r dropped late <<<"$(sfacts "$d/slow.json" dropped late)"
    ok "exit with a producer blocked on a slow analyzer: $spun calls before exit <= $spin counted + $((dropped + late)) lost" \
        test $((spin + dropped + late)) -ge "$spun"
else
    fail "exit with a producer blocked on a slow analyzer: a profile is written" "$(cat "$d/slow.err")"
fi

# _exit: no profile, behaviour unchanged
pp_cc_plain "$T/qe-plain" "$STREAM_DIR/quick_exit.c" -O2 -pthread &&
    pp_cc "$T/qe-stream" "$STREAM_DIR/quick_exit.c" -O2 -pthread $STREAM &&
    pp_cc "$T/qe-count" "$STREAM_DIR/quick_exit.c" -O2 -pthread ||
    BAIL_OUT "quick_exit does not build"
for where in main thread; do
    d=$T/qe-$where
    mkdir -p "$d"
    arg=; [ $where = thread ] && arg=thread
    srun "$d" plain -- "$T/qe-plain" 20000 $arg
    srun "$d" stream -- "$T/qe-stream" 20000 $arg
    srun "$d" count -- "$T/qe-count" 20000 $arg
    is "$(cat "$d/plain.st")" 4 "_exit from $where: the plain build ends with status 4"
    same_behaviour "$d" stream plain "_exit from $where: stream"
    ok "_exit from $where: no profile in stream mode (documented loss)" test ! -e "$d/stream.prof"
    ok "_exit from $where: nor in count mode" test ! -e "$d/count.prof"
done
done_testing
