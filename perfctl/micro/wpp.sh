#!/bin/bash
# Issue 16: the wpp analyzer (SEQUITUR(1) per producer thread) on a real
# program, bzip2 compressing perfctl's generated input, against native and
# stream-mode blpp in the same rounds.  Per run of wpp, from the profile:
#   symbols/s per analyzer thread  stream words / the analyzer threads'
#                                  CPU time in consume (STREAM section)
#   grammar bytes per million paths  WPP section bytes / (words / 1e6)
#   slowdown                       wall time / native wall time
#   trace/WPP, xz/WPP              `pathprof wpp --json` (xz -9 when found)
# and once, on a smaller input, wpp --expand = dump of the trace (bit-exact).
# The analyzer's work alone (perfctl/micro/wpp-replay.c: symbols, SEQUITUR,
# epochs, encoding) replayed on the trace of the full-size run, RUNS times:
# symbols/s of one CPU (median) and grammar bytes, without the program's
# noise.  Results: build/bench/wpp/results.md.
#
# Usage: perfctl/micro/wpp.sh [--runs N] [--size BYTES] [--max SIZE]
# shellcheck disable=SC2086,SC2046
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=3 size=1000000 max=2M
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --max) max=$2; shift 2 ;;
        *) echo "perfctl/micro/wpp.sh: unknown argument '$1' (see the usage at the top)" >&2; exit 2 ;;
    esac
done
B=$root/build/bench
K=$B/wpp
mkdir -p "$K"
. perfctl/lib/common.sh
bench_pathprof_flags
export PATHPROF_QUIET=1 PATHPROF_POLICY=block
bz_src=$(perfctl/lib/fetch-bzip2.sh "$B")

for c in native stream; do
    d=$K/obj/$c
    rm -rf "$d"; mkdir -p "$d"
    for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do
        gcc -O2 -D_FILE_OFFSET_BITS=64 -w $(cflags_of $c) -c "$bz_src/$f.c" -o "$d/$f.o"
    done
    gcc -O2 "$d"/*.o -o "$K/bzip2.$c" $(libs_of $c)
done
[ -x "$B/gen-input" ] || gcc -std=c11 -O2 -Wall -Wextra -Werror perfctl/lib/gen-input.c -o "$B/gen-input"
"$B/gen-input" "$size" >"$K/in"
"$B/gen-input" 20000 >"$K/small.in"

now() { date +%s.%N; }
# go NAME BUILD ANALYZER: one run; prints its wall seconds
go() {
    local t0 t1
    t0=$(now)
    PATHPROF_ANALYZER=$3 PATHPROF_WPP_MAX=$max PATHPROF_OUT=$K/$1.prof "$K/bzip2.$2" -c <"$K/in" >"$K/$1.bz2"
    t1=$(now)
    cmp -s "$K/$1.bz2" "$K/native.bz2" || { echo "wpp.sh: $1: output differs from native" >&2; exit 1; }
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
"$K/bzip2.native" -c <"$K/in" >"$K/native.bz2"

# Bit-exact on the benchmark program: expansion = dump of the trace.
PATHPROF_ANALYZER=trace,wpp PATHPROF_OUT=$K/small.prof PATHPROF_TRACE=$K/small.trace \
    "$K/bzip2.stream" -c <"$K/small.in" >/dev/null
"$cli" dump "$K/small.trace" | sed 1d >"$K/small.dump"
"$cli" wpp --expand "$K/small.prof" | sed 1d >"$K/small.expand"
if cmp -s "$K/small.dump" "$K/small.expand"; then exact="yes ($(wc -l <"$K/small.dump") lines)"; else exact=NO; fi
rm -f "$K/small.dump" "$K/small.expand"
# The analyzer's work alone, replayed on the trace's words (one CPU).
gcc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Iruntime -Ianalyzers -Iperfctl/micro \
    perfctl/micro/wpp-replay.c analyzers/wpp/sequitur.c analyzers/wpp/symbols.c \
    analyzers/wpp/encode.c runtime/bytebuf.c -o "$K/wpp-replay"
replay=$("$K/wpp-replay" "$K/small.trace" "$max")
PATHPROF_ANALYZER=trace PATHPROF_OUT=$K/big.prof PATHPROF_TRACE=$K/big.trace \
    "$K/bzip2.stream" -c <"$K/in" >/dev/null
for r in $(seq 1 "$runs"); do
    "$K/wpp-replay" "$K/big.trace" "$max"
done >"$K/replay.txt"
rm -f "$K/big.trace" "$K/big.prof"
big_replay=$(sed 's/.*symbols_per_s //' "$K/replay.txt" | sort -n | awk '{v[NR] = $1} END {printf "%.2f M symbols/s (median of %d: ", v[int((NR + 1) / 2)] / 1e6, NR; for (i = 1; i <= NR; i++) printf "%s%.2f", (i > 1 ? " " : ""), v[i] / 1e6; print ")"}')
big_line=$(head -n 1 "$K/replay.txt")

{
    echo "# wpp on bzip2 ($size bytes of perfctl's generated input), PATHPROF_WPP_MAX=$max"
    echo
    echo "expansion = dump of the trace on bzip2 of 20000 bytes: $exact"
    echo
    echo "replay of that trace (perfctl/micro/wpp-replay.c): $replay"
    echo
    echo "replay of the trace of a run on the full input: $big_replay; $big_line"
    echo
    echo "| run | native s | blpp s | wpp s | slowdown wpp/native | words | symbols/s per analyzer thread | grammar bytes | bytes per M paths | rules | trace/WPP | xz/WPP |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} >"$K/results.md"
for r in $(seq 1 "$runs"); do
    tn=$(go native native blpp)
    tb=$(go blpp stream blpp)
    tw=$(go wpp stream wpp)
    xzopt=--no-xz
    [ "$r" = 1 ] && xzopt=
    "$cli" wpp --json $xzopt "$K/wpp.prof" >"$K/wpp.json"
    perl perfctl/lib/wpp-row.pl "$r" "$tn" "$tb" "$tw" "$K/wpp.prof" "$K/wpp.json" >>"$K/results.md"
done
cat "$K/results.md"
