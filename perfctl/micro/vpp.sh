#!/bin/bash
# perfctl/micro/vpp.sh - what VPP (docs/vpp.md) costs and how stable its
# top paths are, on bzip2 (Debian's source package):
#   - run time at PATHPROF_SAMPLE=1/10000 (PATHPROF_ANALYZER=vpp) against
#     native, and beside it the sampled stream build without timing at the
#     same rate and bursts of one check (what the timing itself adds), configurations interleaved round by round, medians of CPU
#     time (user + system of the process and its analyzer thread) and of
#     wall time;
#   - stability (the paper's section 5.3.2, Fig. 5): profiles of two
#     different inputs A and B; the share of A's net variation that B's
#     top-10 paths capture (cross-trained), beside A's own top-10's share
#     (self-trained); the goal is cross >= 0.8 x self.
# Usage: perfctl/micro/vpp.sh [--runs N] [--size BYTES] [--rate N]
# Results: stdout and build/bench/vpp/results.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=3 size=20000000 rate=10000
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --rate) rate=$2; shift 2 ;;
        *) echo "perfctl/micro/vpp.sh: unknown argument '$1' (see the usage at the top)" >&2; exit 2 ;;
    esac
done
B=$root/build/bench
S=$B/vpp
mkdir -p "$S"
. perfctl/lib/common.sh
bench_pathprof_flags
cli=$root/build/bin/pathprof
src=$(perfctl/lib/fetch-bzip2.sh "$B")
export PATHPROF_QUIET=1

for b in native sampled-stream vpp; do
    build_bzip2 "$src" "$S/$b" "$b"
done
gcc -std=c11 -O2 -Wall -Wextra -Werror perfctl/lib/gen-input.c -o "$S/gen-input"
"$S/gen-input" "$size" 1 >"$S/input-a.dat"
"$S/gen-input" "$size" 2 >"$S/input-b.dat"

configs=(
    "native native"
    "sampled-stream sampled-stream PATHPROF_ANALYZER=blpp PATHPROF_SAMPLE=1/$rate PATHPROF_BURST=1"
    "vpp vpp PATHPROF_ANALYZER=vpp PATHPROF_SAMPLE=1/$rate"
)
declare -A times walls
children_cpu() { awk '{ print $16 + $17 }' /proc/$$/stat; }
for ((r = 1; r <= runs; r++)); do
    for c in "${configs[@]}"; do
        read -r name b env <<<"$c"
        start=$(date +%s.%N) c0=$(children_cpu)
        # shellcheck disable=SC2086
        env $env PATHPROF_OUT="$S/$name-a.prof" "$S/$b/bzip2" -c <"$S/input-a.dat" >"$S/$name.bz2"
        end=$(date +%s.%N) c1=$(children_cpu)
        cmp -s "$S/$name.bz2" "$S/native.bz2" || { echo "vpp.sh: $name: output differs from native" >&2; exit 1; }
        times[$name]="${times[$name]:-} $(awk -v a="$c0" -v b="$c1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')"
        walls[$name]="${walls[$name]:-} $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Stability: input B's profile at the same rate; A's (the last run's) against it.
PATHPROF_ANALYZER=vpp PATHPROF_SAMPLE=1/$rate PATHPROF_OUT="$S/vpp-b.prof" \
    "$S/vpp/bzip2" -c <"$S/input-b.dat" >/dev/null
"$cli" vpp "$S/vpp-a.prof" --against "$S/vpp-b.prof" --json >"$S/against.json"
read -r cross self timed bias <<<"$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    print "$j->{against}{cross} $j->{against}{self} $j->{timed} $j->{bias}\n"' <"$S/against.json")"

{
    echo "## VPP on bzip2 ($(basename "$src"), bzip2 -c of $size bytes, $runs rounds, 1/$rate)"
    echo
    echo "| configuration | median CPU s | vs native | CPU s of each run | median wall s | vs native |"
    echo "| --- | ---: | ---: | --- | ---: | ---: |"
    nat=$(echo "${times[native]}" | median)
    natw=$(echo "${walls[native]}" | median)
    for c in "${configs[@]}"; do
        read -r name _ <<<"$c"
        m=$(echo "${times[$name]}" | median)
        w=$(echo "${walls[$name]}" | median)
        awk -v n="$name" -v m="$m" -v nat="$nat" -v all="${times[$name]}" -v w="$w" -v natw="$natw" \
            'BEGIN { printf "| %s | %.2f | %.3fx |%s | %.2f | %.3fx |\n", n, m, m / nat, all, w, w / natw }'
    done
    echo
    echo "| stability (input A against input B, top 10) | value |"
    echo "| --- | ---: |"
    echo "| timed executions (A) | $timed |"
    echo "| bias subtracted, ticks | $bias |"
    awk -v c="$cross" -v s="$self" 'BEGIN {
        printf "| share of A'"'"'s net variation on B'"'"'s top 10 (cross) | %.3f |\n", c
        printf "| share on A'"'"'s own top 10 (self) | %.3f |\n", s
        printf "| cross / self (goal >= 0.8) | %.3f |\n", (s > 0 ? c / s : 0) }'
} | tee "$S/results.md"
