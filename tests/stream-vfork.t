#!/usr/bin/env bash
# A vfork child that runs instrumented code before its exec
# (tests/stream/vfork_child.c; dash builds an exec's environment so):
# counting mode counts its paths in the shared counters, and stream mode
# must count the same, path for path, and say exact, however many of the
# child's events there are against the chunk size (the child swaps chunks
# as its suspended parent thread would: runtime/vfork-wrap.c). Before, the
# events past the parent's current chunk were counted late. Oracle:
# perfctl/lib/pathcmp.pl against the counting build, and kipfcmp.pl for
# ksf k = 8 (roots, levels, exact); the program's output is the plain
# build's. The same from a new thread that had no channel when it
# called vfork.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
[ "${PP_SANITIZE:-}" = thread ] && plan skip_all "TSan's vfork is a fork (docs/install.md)"
cd "$T" || exit 1
SRC=$TAP_ROOT/tests/stream/vfork_child.c
PATHCMP=$TAP_ROOT/perfctl/lib/pathcmp.pl
KIPFCMP=$TAP_ROOT/perfctl/lib/kipfcmp.pl
pp_cc_plain plain "$SRC" -O2 -pthread && pp_cc count "$SRC" -O2 -pthread &&
    pp_cc stream "$SRC" -O2 -pthread -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build $SRC"

# "thread": the vfork comes from a thread with no events of its own yet,
# so no channel: vfork attaches it first (pprt_vfork_prepare), else the
# child's events past its first chunk were late.
for run in "100" "20000" "20000 thread"; do
    ./plain $run >plain.out || BAIL_OUT "the plain build fails"
    n=${run// /-}
    # shellcheck disable=SC2086
    PATHPROF_OUT=c-$n.pp ./count $run >c.out && "$PP_CLI" report --json c-$n.pp >c-$n.json ||
        BAIL_OUT "the counting build fails"
    is "$(cat c.out)" "$(cat plain.out)" "$run: counting mode prints what the plain build prints"
    for chunk in 16 8192; do
        # shellcheck disable=SC2086
        PATHPROF_CHUNK=$chunk PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=8 PATHPROF_OUT=s.pp ./stream $run >s.out 2>s.err
        is "$?:$(cat s.out):$(cat s.err)" "0:$(cat plain.out):" "$run chunk $chunk: stream mode runs as the plain build, no warning"
        "$PP_CLI" report --json s.pp >s.json && "$PP_CLI" report --k --json --min-length 1 s.pp >s.k.json
        is "$(perl "$PATHCMP" c-$n.json s.json 2>&1 | sed 's/^functions [0-9]* paths [0-9]* total [0-9]* //')" "equal yes exact yes" \
            "$run chunk $chunk: blpp counts the child's paths as counting mode does, exact"
        is "$(perl "$KIPFCMP" c-$n.json s.json s.k.json 2>&1 | grep '^functions' | sed 's/^functions [0-9]* paths [0-9]* total [0-9]* //')" \
            "roots equal levels ok exact yes" "$run chunk $chunk: ksf too"
    done
done
# The child ran work(20000): 20000 of step's paths beyond the parent's 200.
like "$(perl "$PATHCMP" c-20000-thread.json s.json 2>&1)" "total 40204 " "the child's events are in the totals"
done_testing
