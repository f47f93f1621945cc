#!/bin/bash
# `make bench`: bzip2 (Debian's source package) built natively, with GCC's
# edge profilers and with pathprof's counting mode; compresses and
# decompresses a generated input, interleaving the configurations round by
# round; prints medians and ratios, the plugin's compile-time cost, and
# callgrind instruction counts. Results also go to build/bench/results.md.
#
# Usage: bench/run.sh [--runs N] [--size BYTES] [--small BYTES]
# Environment: PP_CFLAGS / PP_LIBS override `pathprof config`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=5 size=30000000 small=2000000
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --small) small=$2; shift 2 ;;
        *) echo "bench/run.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done

B=$root/build/bench
mkdir -p "$B"
. perfctl/lib/common.sh
cli=$root/build/bin/pathprof
if [ -z "${PP_CFLAGS:-}" ]; then
    bench_pathprof_flags
fi
PP_LIBS=${PP_LIBS:-}

src=$(perfctl/lib/fetch-bzip2.sh "$B")
# The library and the command-line tool: what Debian's Makefile builds into bzip2.
files=$BZIP2_FILES
base_flags=$BZIP2_FLAGS

# pathprof-hash: the same counting mode with a low hash threshold (4096, the
# plugin's first default), so that BZ2_decompress (about 10^5 paths) and a few
# others count in hash tables: what hash counting costs.
configs="native fprofile-generate fprofile-arcs pathprof pathprof-hash"
pp_configs="pathprof pathprof-hash"
cflags_of() {
    case $1 in
        native) echo "" ;;
        fprofile-generate) echo "-fprofile-generate" ;;
        fprofile-arcs) echo "-fprofile-arcs" ;;
        pathprof) echo "$PP_CFLAGS" ;;
        pathprof-hash) echo "$PP_CFLAGS -fplugin-arg-pathprof-hash-threshold=4096" ;;
    esac
}
libs_of() {
    case $1 in
        native) echo "" ;;
        fprofile-generate|fprofile-arcs) echo "-$1" ;;
        pathprof*) echo "$PP_LIBS" ;;
    esac
}
export PATHPROF_QUIET=1

echo "bench: building bzip2 from $src in $(echo $configs | wc -w) configurations" >&2
for c in $configs; do
    d=$B/$c
    build_bzip2 "$src" "$d" "$c"
done

echo "bench: generating the inputs ($size and $small bytes)" >&2
gcc -std=c11 -O2 -Wall -Wextra -Werror perfctl/lib/gen-input.c -o "$B/gen-input"
"$B/gen-input" "$size" >"$B/input.dat"
"$B/gen-input" "$small" >"$B/small.dat"

# Every configuration must produce bzip2's exact output and round-trip.
for c in $configs; do
    d=$B/$c
    (cd "$d" && PATHPROF_OUT=$d/pathprof.out ./bzip2 -c <"$B/input.dat" >"$d/input.bz2")
    (cd "$d" && PATHPROF_OUT=$d/pathprof.out ./bzip2 -dc <"$d/input.bz2" >"$d/input.out")
    cmp -s "$d/input.out" "$B/input.dat" || { echo "bench: $c: decompression does not give the input back" >&2; exit 1; }
    cmp -s "$d/input.bz2" "$B/native/input.bz2" || { echo "bench: $c: compressed output differs from native" >&2; exit 1; }
    rm -f "$d/input.out"
done
echo "bench: all configurations round-trip and match the native output" >&2

# What the probes did in one compression and one decompression (the profile's
# own counts), and the functions that count in hash tables.
pp_stats() {  # PROFILE: "paths array hash hashfuncs"
    "$cli" report --json "$1" | perl -MJSON::PP -e '
        my $d = decode_json(join "", <STDIN>);
        my @h = map { "$_->{name} ($_->{npaths} paths)" }
                grep { grep { $_ eq "hash" } @{$_->{flags}} and $_->{total} > 0 } @{$d->{functions}};
        printf "%s %s %s %s\n", $d->{paths_executed}, $d->{array_updates}, $d->{hash_updates},
               join(", ", @h) || "none";'
}
declare -A ppstat
for c in $pp_configs; do
    for w in compress decompress; do
        flag=; in=$B/input.dat
        [ $w = decompress ] && flag=d && in=$B/native/input.bz2
        (cd "$B/$c" && PATHPROF_OUT=$B/$c/$w.prof ./bzip2 -${flag}c <"$in" >/dev/null)
        ppstat[$c.$w]=$(pp_stats "$B/$c/$w.prof" 2>/dev/null || echo "? ? ? ?")
    done
done

# timed C OUTFILE CMD...: appends the wall time of CMD in seconds to OUTFILE
# and its CPU time (user + system, children included) to OUTFILE.cpu. The
# CPU time is less disturbed by other work on a shared machine.
timed() {
    local c=$1 out=$2 t0 t1 cpu
    shift 2
    t0=$EPOCHREALTIME
    cpu=$( { TIMEFORMAT='%3U %3S'; time (cd "$B/$c" && "$@"); } 2>&1 >/dev/null)
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }' >>"$out"
    echo "$cpu" | awk '{ printf "%.4f\n", $1 + $2 }' >>"$out.cpu"
}

rm -f "$B"/*.times "$B"/*.times.cpu
echo "bench: $runs rounds, each runs every configuration in turn" >&2
for ((r = 1; r <= runs; r++)); do
    for c in $configs; do
        PATHPROF_OUT=$B/$c/pathprof.out timed $c "$B/compress.$c.times" \
            sh -c './bzip2 -c <"$0" >/dev/null' "$B/input.dat"
        PATHPROF_OUT=$B/$c/pathprof.out timed $c "$B/decompress.$c.times" \
            sh -c './bzip2 -dc <"$0" >/dev/null' "$B/native/input.bz2"
    done
    echo "bench: round $r of $runs done" >&2
done

stats() {  # FILE: median min max
    sort -n "$1" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# Compile-time cost on the largest C file built.
# shellcheck disable=SC2046 # one word per file name
largest=$(cd "$src" && ls -S $(for f in $files; do echo "$f.c"; done) | head -n 1)
echo "bench: compile time of $largest ($(wc -c <"$src/$largest") bytes), $runs rounds" >&2
rm -f "$B"/cc.*.times "$B"/ccall.*.times
for ((r = 1; r <= runs; r++)); do
    for c in native fprofile-generate pathprof; do
        t0=$EPOCHREALTIME
        # shellcheck disable=SC2046
        gcc $base_flags $(cflags_of $c) -c "$src/$largest" -o "$B/cc-test.o"
        t1=$EPOCHREALTIME
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }' >>"$B/cc.$c.times"
        t0=$EPOCHREALTIME
        for f in $files; do
            # shellcheck disable=SC2046
            gcc $base_flags $(cflags_of $c) -c "$src/$f.c" -o "$B/cc-test.o"
        done
        t1=$EPOCHREALTIME
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }' >>"$B/ccall.$c.times"
    done
done
rm -f "$B/cc-test.o" "$B"/*.gcno

# Instruction counts (deterministic) on the small input.
declare -A ir
if command -v valgrind >/dev/null; then
    echo "bench: callgrind on the $small-byte input" >&2
    bzip2 -c <"$B/small.dat" >"$B/small.bz2"
    for c in $configs; do
        for w in compress decompress; do
            flag=; in=$B/small.dat
            [ $w = decompress ] && flag=d && in=$B/small.bz2
            (cd "$B/$c" && PATHPROF_OUT=$B/$c/callgrind.prof valgrind --tool=callgrind \
                --callgrind-out-file=/dev/null ./bzip2 -${flag}c <"$in" >/dev/null 2>"$B/$c/callgrind.log")
            ir[$c.$w]=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$B/$c/callgrind.log")
        done
    done
fi

{
    echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r), $(gcc --version | head -n 1)"
    echo "bzip2: Debian source package $(basename "$src"), $files .c, $base_flags"
    echo "Input: perfctl/lib/gen-input.c, $size bytes (compresses to $(wc -c <"$B/native/input.bz2") bytes); $runs interleaved rounds"
    echo
    echo "Wall time (s) and, in the last three columns, CPU time (user + system, s), of $runs runs each:"
    echo
    echo "| workload | configuration | median | min | max | x native | x -fprofile-generate | CPU median | CPU x native | CPU x -fprofile-generate |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for w in compress decompress; do
        read -r nmed _ _ < <(stats "$B/$w.native.times")
        read -r gmed _ _ < <(stats "$B/$w.fprofile-generate.times")
        read -r ncpu _ _ < <(stats "$B/$w.native.times.cpu")
        read -r gcpu _ _ < <(stats "$B/$w.fprofile-generate.times.cpu")
        for c in $configs; do
            read -r med min max < <(stats "$B/$w.$c.times")
            read -r cpu _ _ < <(stats "$B/$w.$c.times.cpu")
            echo "| $w | $c | $med | $min | $max | $(ratio "$med" "$nmed") | $(ratio "$med" "$gmed") | $cpu | $(ratio "$cpu" "$ncpu") | $(ratio "$cpu" "$gcpu") |"
        done
    done
    echo
    echo "Compile time (gcc $base_flags -c), median of $runs interleaved rounds:"
    echo
    echo "| what | configuration | median s | min s | max s | x native |"
    echo "| --- | --- | ---: | ---: | ---: | ---: |"
    for w in cc ccall; do
        if [ $w = cc ]; then what="$largest ($(wc -c <"$src/$largest") bytes, the largest)"; else what="all $(echo $files | wc -w) files, one by one"; fi
        read -r nmed _ _ < <(stats "$B/$w.native.times")
        for c in native fprofile-generate pathprof; do
            read -r med min max < <(stats "$B/$w.$c.times")
            echo "| $what | $c | $med | $min | $max | $(ratio "$med" "$nmed") |"
        done
    done
    if [ -n "${ir[native.compress]:-}" ]; then
        echo
        echo "Instructions executed (valgrind --tool=callgrind; deterministic), $small-byte input:"
        echo
        echo "| workload | configuration | instructions | x native | x -fprofile-generate |"
        echo "| --- | --- | ---: | ---: | ---: |"
        for w in compress decompress; do
            for c in $configs; do
                echo "| $w | $c | ${ir[$c.$w]} | $(ratio "${ir[$c.$w]}" "${ir[native.$w]}") | $(ratio "${ir[$c.$w]}" "${ir[fprofile-generate.$w]}") |"
            done
        done
    fi
    echo
    echo "Probe activity in one run on the $size-byte input (from the profile):"
    echo
    echo "| workload | configuration | paths counted | array updates | hash updates | hash-mode functions that ran |"
    echo "| --- | --- | ---: | ---: | ---: | --- |"
    for w in compress decompress; do
        for c in $pp_configs; do
            read -r p a h f <<<"${ppstat[$c.$w]}"
            echo "| $w | $c | $p | $a | $h | $f |"
        done
    done
} | tee "$B/results.md"
echo
echo "bench: results in $B/results.md (copy them into docs/performance.md)"
