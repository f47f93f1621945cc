#!/bin/bash
# perfctl/micro/sampling-grid.sh - how close sampled estimates come, over a
# grid of rates and burst lengths, on bzip2 (issue 14 item 5;
# docs/sampling.md "Accuracy"). Uses the builds and the input of
# perfctl/micro/sampling.sh (run it first). Against count's exact
# profile of the same input, for each PATHPROF_SAMPLE x PATHPROF_BURST:
# recall and precision of the hot paths (>= 0.1% of all path
# executions), the largest relative error of a hot path's estimate, Arnold
# and Ryder's overlap percentage, and the share of hot paths whose exact
# count lies in the estimate's 95% interval (tests/sampling/cmp.pl grid,
# cover). Then k = 8 (ksf, stream mode): the hot k-iteration paths (>= 1%
# of the largest, among the 5000 most frequent) of the sampled-stream
# build at 1/1 against those at
# each rate, bursts of 100: recall, interval coverage, largest error.
# Usage: perfctl/micro/sampling-grid.sh [--rates "100 1000 10000"] [--bursts "10 100 1000"]
# Results: stdout and build/bench/sampling/grid.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
rates="100 1000 10000" bursts="10 100 1000"
while [ $# -gt 0 ]; do
    case $1 in
        --rates) rates=$2; shift 2 ;;
        --bursts) bursts=$2; shift 2 ;;
        *) echo "perfctl/micro/sampling-grid.sh: unknown argument '$1' (see the usage at the top)" >&2; exit 2 ;;
    esac
done
S=$root/build/bench/sampling
cli=$root/build/bin/pathprof
cmp=$root/tests/sampling/cmp.pl
for f in "$S/count/bzip2" "$S/sampled/bzip2" "$S/sampled-stream/bzip2" "$S/input.dat"; do
    [ -e "$f" ] || { echo "sampling-grid.sh: $f is missing: run perfctl/micro/sampling.sh first" >&2; exit 1; }
done
export PATHPROF_QUIET=1

PATHPROF_OUT="$S/g-exact.prof" "$S/count/bzip2" -c <"$S/input.dat" >/dev/null
"$cli" report --json "$S/g-exact.prof" >"$S/g-exact.json"
rows=""
for r in $rates; do
    for b in $bursts; do
        PATHPROF_SAMPLE=1/$r PATHPROF_BURST=$b PATHPROF_OUT="$S/g.prof" "$S/sampled/bzip2" -c \
            <"$S/input.dat" >/dev/null
        "$cli" report --json "$S/g.prof" >"$S/g.json"
        read -r recall precision err overlap <<<"$(perl "$cmp" grid "$S/g-exact.json" "$S/g.json" 0.001)"
        read -r covered _ hot <<<"$(perl "$cmp" cover "$S/g-exact.json" "$S/g.json" 0.001)"
        rows="$rows| 1/$r | $b | $recall | $precision | $err | $overlap | $covered/$hot |
"
    done
done

export PATHPROF_ANALYZER=ksf PATHPROF_K=8
PATHPROF_SAMPLE=1/1 PATHPROF_OUT="$S/gk-exact.prof" "$S/sampled-stream/bzip2" -c <"$S/input.dat" >/dev/null
"$cli" report --k --json --top 5000 "$S/gk-exact.prof" >"$S/gk-exact.json"
krows=""
for r in $rates; do
    PATHPROF_SAMPLE=1/$r PATHPROF_BURST=100 PATHPROF_OUT="$S/gk.prof" "$S/sampled-stream/bzip2" -c \
        <"$S/input.dat" >/dev/null
    "$cli" report --k --json --top 5000 "$S/gk.prof" >"$S/gk.json"
    read -r covered hot err found <<<"$(perl "$cmp" kcover "$S/gk-exact.json" "$S/gk.json" 0.01)"
    krows="$krows| 1/$r | 100 | $(awk -v f="$found" -v h="$hot" 'BEGIN { printf "%.4f", h ? f / h : 1 }') | $err | $covered/$hot |
"
done

{
    echo "## Sampled bzip2: accuracy over rates and burst lengths ($(wc -c <"$S/input.dat") bytes of input)"
    echo
    echo "| rate | burst | recall | precision | largest error | overlap % | in 95% interval |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    printf '%s' "$rows"
    echo
    echo "k = 8, hot k-iteration paths (>= 1% of the largest count):"
    echo
    echo "| rate | burst | recall | largest error | in 95% interval |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    printf '%s' "$krows"
} | tee "$S/grid.md"
