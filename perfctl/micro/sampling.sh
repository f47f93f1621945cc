#!/bin/bash
# perfctl/micro/sampling.sh - what sampling=yes costs and how close its
# estimates come, on bzip2 (Debian's source package; docs/sampling.md):
#   - code: .text bytes and compile CPU time of the builds native, count
#     (exact counting), sampled (count + sampling=yes), sampled-stream;
#   - run time, ratios to native from one run (configurations interleaved
#     round by round, medians; CPU time, user + system of the process and
#     its analyzer threads, which a loaded machine disturbs less than wall
#     time; wall time beside it): count; sampled at PATHPROF_SAMPLE=0, 1/10000,
#     1/1000 and 1/100; sampled-stream with ksf k = 8 at 1/10000;
#   - with --instructions, instructions executed (valgrind's cachegrind,
#     deterministic where CPU time on a shared machine is not) of native,
#     count and sampled at 0, 1/10000, 1/1000 and 1/100 on the first 2 MB
#     of the input;
#   - accuracy at 1/1000 and 1/100 against count's exact profile: the
#     largest relative error of a hot path's estimate (>= 0.1% of all path
#     executions) and the hot paths found (tests/sampling/cmp.pl).
# Usage: perfctl/micro/sampling.sh [--runs N] [--size BYTES] [--instructions]
# Results: stdout and build/bench/sampling/results.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=3 size=20000000 instructions=0
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --instructions) instructions=1; shift ;;
        *) echo "perfctl/micro/sampling.sh: unknown argument '$1' (see the usage at the top)" >&2; exit 2 ;;
    esac
done
B=$root/build/bench
S=$B/sampling
mkdir -p "$S"
. perfctl/lib/common.sh
bench_pathprof_flags
cli=$root/build/bin/pathprof
src=$(perfctl/lib/fetch-bzip2.sh "$B")
export PATHPROF_QUIET=1

builds="native count sampled sampled-stream"
declare -A text cpu
for b in $builds; do
    t0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    build_bzip2 "$src" "$S/$b" "$b"
    t1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    cpu[$b]=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')
    text[$b]=$(size -A "$S/$b/bzip2" | awk '$1 == ".text" { print $2 }')
done
gcc -std=c11 -O2 -Wall -Wextra -Werror perfctl/lib/gen-input.c -o "$S/gen-input"
"$S/gen-input" "$size" >"$S/input.dat"

# name build environment
configs=(
    "native native"
    "count count"
    "sample-0 sampled PATHPROF_SAMPLE=0"
    "sample-10000 sampled PATHPROF_SAMPLE=1/10000"
    "sample-1000 sampled PATHPROF_SAMPLE=1/1000"
    "sample-100 sampled PATHPROF_SAMPLE=1/100"
    "sample-ksf-8 sampled-stream PATHPROF_ANALYZER=ksf PATHPROF_K=8 PATHPROF_SAMPLE=1/10000"
)
declare -A times walls
children_cpu() { awk '{ print $16 + $17 }' /proc/$$/stat; }
for ((r = 1; r <= runs; r++)); do
    for c in "${configs[@]}"; do
        read -r name b env <<<"$c"
        start=$(date +%s.%N) c0=$(children_cpu)
        # shellcheck disable=SC2086
        env $env PATHPROF_OUT="$S/$name.prof" "$S/$b/bzip2" -c <"$S/input.dat" >"$S/$name.bz2"
        end=$(date +%s.%N) c1=$(children_cpu)
        cmp -s "$S/$name.bz2" "$S/native.bz2" || { echo "sampling.sh: $name: output differs from native" >&2; exit 1; }
        times[$name]="${times[$name]:-} $(awk -v a="$c0" -v b="$c1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')"
        walls[$name]="${walls[$name]:-} $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
nat=$(echo "${times[native]}" | median)

# Accuracy against count's exact profile (the last run's).
"$cli" report --json "$S/count.prof" >"$S/exact.json"
acc=""
for rate in 1000 100; do
    PATHPROF_SAMPLE=1/$rate PATHPROF_OUT="$S/acc.prof" "$S/sampled/bzip2" -c <"$S/input.dat" >/dev/null
    "$cli" report --json "$S/acc.prof" >"$S/acc.json"
    acc="$acc| 1/$rate | $(perl tests/sampling/cmp.pl error "$S/exact.json" "$S/acc.json" 0.001 | awk '{ printf "%.4f | %s", $1, $2 }') |
"
done

# Instructions: the same binaries under cachegrind (no cache simulation).
ins=""
if [ "$instructions" = 1 ]; then
    command -v valgrind >/dev/null || { echo "sampling.sh: --instructions needs valgrind" >&2; exit 2; }
    head -c 2000000 "$S/input.dat" >"$S/input-2m.dat"
    irefs() {
        env "$@" valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
            -- "$S/$b/bzip2" -c "$S/input-2m.dat" 2>&1 >/dev/null |
            awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
    }
    declare -A irs
    for c in "native native" "count count" "sample-0 sampled PATHPROF_SAMPLE=0" \
             "sample-10000 sampled PATHPROF_SAMPLE=1/10000" \
             "sample-1000 sampled PATHPROF_SAMPLE=1/1000" "sample-100 sampled PATHPROF_SAMPLE=1/100"; do
        read -r name b env <<<"$c"
        # shellcheck disable=SC2086
        irs[$name]=$(irefs PATHPROF_OUT="$S/ins.prof" $env)
        ins="$ins$(awk -v n="$name" -v i="${irs[$name]}" -v nat="${irs[native]}" \
            'BEGIN { printf "| %s | %d | %.3fx |", n, i, i / nat }')
"
    done
fi

{
    echo "## sampling=yes on bzip2 ($(basename "$src"), bzip2 -c of $size bytes, $runs rounds)"
    echo
    echo "| build | .text bytes | vs count | compile CPU s | vs count |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    for b in $builds; do
        awk -v b="$b" -v t="${text[$b]}" -v tc="${text[count]}" -v c="${cpu[$b]}" -v cc="${cpu[count]}" \
            'BEGIN { printf "| %s | %d | %.2fx | %s | %.2fx |\n", b, t, t / tc, c, c / cc }'
    done
    echo
    echo "| configuration | median CPU s | vs native | CPU s of each run | median wall s | vs native |"
    echo "| --- | ---: | ---: | --- | ---: | ---: |"
    natw=$(echo "${walls[native]}" | median)
    for c in "${configs[@]}"; do
        read -r name _ <<<"$c"
        m=$(echo "${times[$name]}" | median)
        w=$(echo "${walls[$name]}" | median)
        awk -v n="$name" -v m="$m" -v nat="$nat" -v all="${times[$name]}" -v w="$w" -v natw="$natw" \
            'BEGIN { printf "| %s | %.2f | %.3fx |%s | %.2f | %.3fx |\n", n, m, m / nat, all, w, w / natw }'
    done
    echo
    if [ -n "$ins" ]; then
        echo "| configuration (first 2 MB) | instructions | vs native |"
        echo "| --- | ---: | ---: |"
        printf '%s' "$ins"
        echo
    fi
    echo "| rate (bursts of 100) | largest hot-path error | hot paths found |"
    echo "| --- | ---: | ---: |"
    printf '%s' "$acc"
} | tee "$S/results.md"
