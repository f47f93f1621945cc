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
# build's.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
[ "${PP_SANITIZE:-}" = thread ] && plan skip_all "TSan's vfork is a fork (docs/install.md)"
cd "$T" || exit 1
SRC=$TAP_ROOT/tests/stream/vfork_child.c
PATHCMP=$TAP_ROOT/perfctl/lib/pathcmp.pl
KIPFCMP=$TAP_ROOT/perfctl/lib/kipfcmp.pl
pp_cc_plain plain "$SRC" -O2 && pp_cc count "$SRC" -O2 && pp_cc stream "$SRC" -O2 -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "cannot build $SRC"

for n in 100 20000; do
    ./plain $n >plain.out || BAIL_OUT "the plain build fails"
    PATHPROF_OUT=c-$n.pp ./count $n >c.out && "$PP_CLI" report --json c-$n.pp >c-$n.json ||
        BAIL_OUT "the counting build fails"
    is "$(cat c.out)" "$(cat plain.out)" "n=$n: counting mode prints what the plain build prints"
    for chunk in 16 8192; do
        PATHPROF_CHUNK=$chunk PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=8 PATHPROF_OUT=s.pp ./stream $n >s.out 2>s.err
        is "$?:$(cat s.out):$(cat s.err)" "0:$(cat plain.out):" "n=$n chunk $chunk: stream mode runs as the plain build, no warning"
        "$PP_CLI" report --json s.pp >s.json && "$PP_CLI" report --k --json --min-length 1 s.pp >s.k.json
        is "$(perl "$PATHCMP" c-$n.json s.json 2>&1 | sed 's/^functions [0-9]* paths [0-9]* total [0-9]* //')" "equal yes exact yes" \
            "n=$n chunk $chunk: blpp counts the child's paths as counting mode does, exact"
        is "$(perl "$KIPFCMP" c-$n.json s.json s.k.json 2>&1 | grep '^functions' | sed 's/^functions [0-9]* paths [0-9]* total [0-9]* //')" \
            "roots equal levels ok exact yes" "n=$n chunk $chunk: ksf too"
    done
done
# The child ran work(20000): 20000 of step's paths beyond the parent's 200.
like "$(perl "$PATHCMP" c-20000.json s.json 2>&1)" "total 40206 " "the child's events are in the totals"
done_testing
