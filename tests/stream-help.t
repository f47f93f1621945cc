#!/usr/bin/env bash
# stream-help.t - producers that consume their own chunks when their
# analyzer thread is not running (runtime/analyzer-thread.c,
# pprt_analyzer_help; docs/streaming.md, "Producers that help").
#
# PATHPROF_TEST_ANALYZER_PAUSE_NS makes every analyzer thread sleep after
# each pass that found work, outside the consume lock, as an analyzer that
# lost its CPU on a loaded machine; tiny chunks (16 events, 2 per thread)
# make the producers block on it thousands of times.  Checked, for a
# single-threaded and a multithreaded program at -O2, with 1 and 2
# analyzer threads:
#   - the program behaves as its plain build;
#   - the runtime says producers consumed chunks themselves (PATHPROF_VERBOSE);
#   - the profile equals the count-mode profile (atomic for threads),
#     path for path (normjson.pl), and its STREAM section is exact;
#   - with ksf (k = 4), blpp and trace at once, the KIPF section equals
#     the brute-force count of the trace (tests/ksf/oracle.pl): the
#     k-iteration state of an activation survives chunks consumed by two
#     threads in turn; again with two k-SF worker threads.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/ksf/oracle.pl
PAUSE=(PATHPROF_TEST_ANALYZER_PAUSE_NS=2000000 PATHPROF_CHUNK=16 PATHPROF_CHUNKS=2 PATHPROF_VERBOSE=1)

# case NAME SRC CFLAGS...: builds plain, count and stream; runs and checks
case_() {
    local name=$1 src=$2; shift 2
    local d=$T/$name
    mkdir -p "$d"
    if ! pp_cc_plain "$d/plain" "$src" -O2 "$@" ||
        ! pp_cc "$d/count" "$src" -O2 "$@" -fprofile-update=atomic ||
        ! pp_cc "$d/stream" "$src" -O2 "$@" $STREAM; then
        fail "$name: builds plain, in count mode and in stream mode"
        return 1
    fi
    srun "$d" plain -- "$d/plain"
    srun "$d" count -- "$d/count"
    local an
    for an in 1 2; do
        local r=help-a$an
        srun "$d" "$r" "${PAUSE[@]}" PATHPROF_ANALYZERS=$an -- "$d/stream"
        is "$(cat "$d/$r.st") $(md5sum <"$d/$r.out")" "$(cat "$d/plain.st") $(md5sum <"$d/plain.out")" \
            "$name, $an analyzer(s): exit status and output as the plain build's"
        like "$(grep -m1 'consumed' "$d/$r.err")" \
            '^pathprof: producers consumed [1-9][0-9]* of [1-9][0-9]* chunks themselves' \
            "$name, $an analyzer(s): producers consumed chunks themselves" || diag "$(head -n 5 "$d/$r.err")"
        if [ -s "$d/$r.norm" ] && [ -s "$d/count.norm" ] && cmp -s "$d/count.norm" "$d/$r.norm"; then
            pass "$name, $an analyzer(s): the profile equals counting mode's, path for path"
        else
            fail "$name, $an analyzer(s): the profile equals counting mode's, path for path" \
                "$(diff "$d/count.norm" "$d/$r.norm" 2>&1 | head -n 10)"
        fi
        is "$(sfacts "$d/$r.json" exact dropped late)" "true 0 0" "$name, $an analyzer(s): STREAM exact, nothing lost"
    done
    srun "$d" ksf "${PAUSE[@]}" PATHPROF_ANALYZER=ksf,blpp,trace PATHPROF_K=4 \
        PATHPROF_TRACE="$d/ksf.trace" -- "$d/stream"
    like "$(grep -m1 'consumed' "$d/ksf.err")" '^pathprof: producers consumed [1-9]' \
        "$name, ksf: producers consumed chunks themselves"
    local out rc
    out=$(perl "$ORACLE" check "$d/ksf.prof" "$d/ksf.trace" 2>&1); rc=$?
    if [ $rc = 0 ]; then pass "$name, ksf k=4: KIPF = brute force ($out)"
    else fail "$name, ksf k=4: KIPF = brute force" "$out"; fi
    # The same with two k-SF workers: the helper hands jobs to them.
    srun "$d" ksfw "${PAUSE[@]}" PATHPROF_ANALYZER=ksf,blpp,trace PATHPROF_K=4 PATHPROF_KSF_WORKERS=2 \
        PATHPROF_TRACE="$d/ksfw.trace" -- "$d/stream"
    out=$(perl "$ORACLE" check "$d/ksfw.prof" "$d/ksfw.trace" 2>&1); rc=$?
    if [ $rc = 0 ]; then pass "$name, ksf k=4 with 2 workers: KIPF = brute force ($out)"
    else fail "$name, ksf k=4 with 2 workers: KIPF = brute force" "$out"; fi
}

case_ loops "$STREAM_DIR/help_prog.c"
case_ threads "$STREAM_DIR/mt_loops.c" -pthread

done_testing
