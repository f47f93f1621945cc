#!/usr/bin/env bash
# Writes the fuzzer's seed corpus: real profiles and traces of small
# programs from tests/, built with the plugin and run in counting mode and
# in stream mode with every analyzer that writes a file (blpp, ksf,
# ksf-pruned, trace), plus the synthetic profiles of tests/cli (whose
# graphs and KIPF sections are known by construction). Generated at fuzz
# time from the tree, so the seeds always have the current format.
# Usage: fuzz/seeds.sh BUILD OUTDIR    (BUILD: plugin, runtime and CLI built)
set -eu
build=$(cd "${1:?usage: fuzz/seeds.sh BUILD OUTDIR}" && pwd)
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/pathprof-seeds.XXXXXX")
trap 'rm -rf "$work"' EXIT

# A sanitized tree's runtime loads only into programs built with its
# sanitizer (mk/sanitize.mk writes the flags beside it).
PP_SAN_CFLAGS=
# shellcheck source=/dev/null
[ -f "$build/sanitize.env" ] && . "$build/sanitize.env"
cflags="-fplugin=$build/lib/pathprof.so -g -O1 $PP_SAN_CFLAGS"
libs="-L$build/lib -Wl,-rpath,$build/lib -lpathprof -lpthread $PP_SAN_CFLAGS"
stream=-fplugin-arg-pathprof-mode=stream

# prog NAME GCC-ARGS...: builds $work/NAME with the plugin
prog() {
    local name=$1; shift
    # shellcheck disable=SC2086
    gcc $cflags "$@" -o "$work/$name" $libs
}

# seed NAME BIN [VAR=VALUE...]: runs BIN, keeps what it wrote as NAME.*
seed() {
    local name=$1 bin=$2; shift 2
    env PATHPROF_QUIET=1 PATHPROF_OUT="$out/$name.pp" PATHPROF_TRACE="$out/$name.trace" "$@" \
        "$work/$bin" >/dev/null 2>"$work/$name.err" ||
        { echo "fuzz/seeds.sh: $name failed:" >&2; cat "$work/$name.err" >&2; exit 1; }
}

P=$root/tests/programs
prog count-loop "$P/loop_branch.c"
prog count-setjmp "$P/setjmp_longjmp.c"
prog count-e2e "$root/tests/cli/e2e/a.c" "$root/tests/cli/e2e/b.c"
# Hash-table counters, direct edge counts (VERIFY) and cut graphs.
prog count-flags -fplugin-arg-pathprof-hash-threshold=1 -fplugin-arg-pathprof-verify "$P/nested_loops.c"
prog count-cut -fplugin-arg-pathprof-max-paths=10 "$P/nested_loops.c"
prog stream-threads $stream "$root/fuzz/seed-threads.c"
prog stream-oddeven $stream "$root/tests/cli/kipf/oddeven.c"
prog stream-recursion $stream "$P/recursion.c"
prog stream-switch $stream "$P/switch_small.c"
prog vpp-oddeven -fplugin-arg-pathprof-vpp=yes "$root/tests/cli/kipf/oddeven.c"

seed count-loop count-loop
seed count-setjmp count-setjmp
seed count-e2e count-e2e
seed count-flags count-flags
seed count-cut count-cut
for p in oddeven recursion switch; do
    seed "blpp-ksf-$p" "stream-$p" PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=4
    seed "pruned-$p" "stream-$p" PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=64K
    seed "trace-$p" "stream-$p" PATHPROF_ANALYZER=trace
    seed "wpp-$p" "stream-$p" PATHPROF_ANALYZER=wpp
done
# Timed paths (docs/vpp.md): a VPP section, and VPP markers in a trace.
seed vpp-oddeven vpp-oddeven PATHPROF_ANALYZER=vpp PATHPROF_SAMPLE=1/3
seed vpp-trace-oddeven vpp-oddeven PATHPROF_ANALYZER=trace PATHPROF_SAMPLE=1/3
# Paths with only outliers and the second counter asked for (flag 4 where
# the machine has none, VPP_EVENTS markers where it has one).
seed vpp-out-oddeven vpp-oddeven PATHPROF_ANALYZER=vpp PATHPROF_SAMPLE=1/3 \
    PATHPROF_VPP_OUTLIER=100 PATHPROF_VPP_COUNTER=cache-misses
seed all-oddeven stream-oddeven PATHPROF_ANALYZER=blpp,ksf,ksf-pruned,trace PATHPROF_K=3
# Several producer threads, two analyzer threads: one stream per thread.
seed threads stream-threads PATHPROF_ANALYZER=blpp,ksf,trace PATHPROF_ANALYZERS=2 PATHPROF_K=2
# An accumulated file of parts (docs/format.md, "Parts"): two runs
# appended, and the same with half of a third torn off at the end.
for i in 1 2; do seed acc-parts stream-oddeven PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=3 PATHPROF_ACCUMULATE=1; done
cp "$out/acc-parts.pp" "$out/acc-torn.pp"
head -c 300 "$out/blpp-ksf-oddeven.pp" >>"$out/acc-torn.pp"
rm -f "$out/acc-parts.pp.lock"

perl "$root/tests/cli/mkprofile.pl" --scenario basic "$out/synthetic-basic.pp"
perl "$root/tests/cli/mkprofile.pl" --scenario small "$out/synthetic-small.pp"
perl "$root/tests/cli/mkkipf.pl" --scenario fig3 --k 4 "$out/synthetic-fig3.pp"
perl "$root/tests/cli/mkkipf.pl" --scenario copies --k 3 "$out/synthetic-copies.pp"

# Every seed must read: a seed the CLI refuses teaches the fuzzer nothing.
for f in "$out"/*.pp; do
    "$build/bin/pathprof" report "$f" >/dev/null
done
for f in "$out"/*.trace; do
    "$build/bin/pathprof" dump "$f" >/dev/null
done
