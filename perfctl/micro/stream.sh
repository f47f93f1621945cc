#!/bin/bash
# Issue 3, "measured, not asserted": streaming mode with the blpp analyzer
# against native, GCC's edge profiling (-fprofile-generate) and pathprof's
# counting mode, on bzip2 (the sources, input and gen-input of
# perfctl/bzip2-bench) and on a multithreaded program
# (perfctl/micro/mt-logstat.c, a pthread worker pool parsing and hashing a
# generated log). Configurations interleaved round by round; medians with min/max; outputs checked against native. From the
# STREAM section of each timed stream run: events, producer events per
# second, analyzer events per second per busy core, time blocked, loss.
# Under cachegrind (small inputs): instructions per event of the probes, and
# the probe sequence of one hot loop from objdump.
# Results: build/bench/stream/results.md.
#
# Usage: perfctl/micro/stream.sh [--runs N] [--size BYTES] [--small BYTES]
#                        [--mt "LINES PASSES WORKERS"]
# shellcheck disable=SC2086 # unquoted flag and word lists on purpose
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=5 size=30000000 small=2000000 mt_args="200000 10 2" mt_small="20000 1 2"
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --small) small=$2; shift 2 ;;
        --mt) mt_args=$2; shift 2 ;;
        *) echo "perfctl/micro/stream.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done

B=$root/build/bench
S=$B/stream
mkdir -p "$S"
. perfctl/lib/common.sh
bench_pathprof_flags
stats_pl=$root/perfctl/lib/pp-stream-stats.pl

src=$(perfctl/lib/fetch-bzip2.sh "$B")
configs="native fprofile-generate count stream"
# cflags_of, libs_of: perfctl/lib/common.sh
export PATHPROF_QUIET=1 PATHPROF_ANALYZER=blpp PATHPROF_POLICY=block

echo "perfctl/micro/stream: building bzip2 and mt-logstat in $(echo $configs | wc -w) configurations" >&2
for c in $configs; do
    d=$S/$c
    build_bzip2 "$src" "$d" "$c"
    # shellcheck disable=SC2046
    gcc -O2 -std=c11 -D_GNU_SOURCE -pthread $(cflags_of $c) -c perfctl/micro/mt-logstat.c -o "$d/mt-logstat.o"
    # shellcheck disable=SC2046
    gcc -O2 -pthread "$d/mt-logstat.o" -o "$d/mt-logstat" $(libs_of $c)
done

if [ ! -x "$B/gen-input" ]; then
    gcc -std=c11 -O2 -Wall -Wextra -Werror perfctl/lib/gen-input.c -o "$B/gen-input"
fi
[ "$(stat -c %s "$B/input.dat" 2>/dev/null || echo 0)" -ge "$size" ] || "$B/gen-input" "$size" >"$B/input.dat"
[ -s "$B/small.dat" ] || "$B/gen-input" "$small" >"$B/small.dat"
in=$B/input.dat
"$S/native/bzip2" -c <"$in" >"$S/input.bz2"
"$S/native/bzip2" -c <"$B/small.dat" >"$S/small.bz2"
# shellcheck disable=SC2086
"$S/native/mt-logstat" $mt_args >"$S/mt.native.out"

# Every configuration's output must be native's.
for c in $configs; do
    d=$S/$c
    (cd "$d" && PATHPROF_OUT=$d/check.prof ./bzip2 -c <"$in" >"$d/input.bz2")
    cmp -s "$d/input.bz2" "$S/input.bz2" || { echo "perfctl/micro/stream: $c: bzip2 output differs from native" >&2; exit 1; }
    (cd "$d" && PATHPROF_OUT=$d/check.prof ./bzip2 -dc <"$d/input.bz2" | cmp -s - "$in") ||
        { echo "perfctl/micro/stream: $c: decompression does not give the input back" >&2; exit 1; }
    # shellcheck disable=SC2086
    (cd "$d" && PATHPROF_OUT=$d/check.prof ./mt-logstat $mt_args | cmp -s - "$S/mt.native.out") ||
        { echo "perfctl/micro/stream: $c: mt-logstat output differs from native" >&2; exit 1; }
    rm -f "$d/input.bz2"
done
echo "perfctl/micro/stream: every configuration's output is native's" >&2

workloads="compress decompress mt"
# shellcheck disable=SC2086 # $mt_args: one word per argument
# run_w C W: runs workload W of configuration C (profile to $S/C/W.prof)
run_w() {
    local d=$S/$1
    case $2 in
        compress) PATHPROF_OUT=$d/$2.prof "$d/bzip2" -c <"$in" >/dev/null ;;
        decompress) PATHPROF_OUT=$d/$2.prof "$d/bzip2" -dc <"$S/input.bz2" >/dev/null ;;
        mt) PATHPROF_OUT=$d/$2.prof "$d/mt-logstat" $mt_args >/dev/null ;;  # split on purpose
    esac
}
# timed C W: wall and CPU (user + sys) seconds of one run, appended to
# $S/W.C.times(.cpu); for stream, the STREAM figures to $S/W.stream.stats.
timed() {
    local t0 t1 cpu
    t0=$EPOCHREALTIME
    cpu=$( { TIMEFORMAT='%3U %3S'; time (cd "$S/$1" && run_w "$1" "$2"); } 2>&1 >/dev/null)
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }' | tee -a "$S/$2.$1.times" >"$S/last"
    echo "$cpu" | awk '{ printf "%.4f\n", $1 + $2 }' >>"$S/$2.$1.times.cpu"
    if [ "$1" = stream ]; then
        echo "$(cat "$S/last") $(perl "$stats_pl" "$S/stream/$2.prof")" >>"$S/$2.stream.stats"
    fi
}
rm -f "$S"/*.times "$S"/*.times.cpu "$S"/*.stats
echo "perfctl/micro/stream: $runs rounds, each runs every configuration in turn" >&2
for ((r = 1; r <= runs; r++)); do
    for w in $workloads; do
        for c in $configs; do timed $c $w; done
    done
    echo "perfctl/micro/stream: round $r of $runs done" >&2
done

stats() {  # FILE [COLUMN]: median min max
    awk -v k="${2:-1}" '{ print $k }' "$1" | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.15g %.15g %.15g\n", m, v[1], v[NR] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# Cachegrind on small inputs: whole-process instructions, and those of the
# program's own code (where the probes are inlined; the slow path and the
# analyzer thread are in libpathprof).
declare -A irt irp evs
cg_workloads=
if command -v valgrind >/dev/null; then
    cg_workloads="compress decompress mt"
    echo "perfctl/micro/stream: cachegrind on small inputs" >&2
    for c in $configs; do
        d=$S/$c
        for w in $cg_workloads; do
            # shellcheck disable=SC2206 # $mt_small: one word per argument
            case $w in
                compress) cmd=(./bzip2 -c); inp=$B/small.dat ;;
                decompress) cmd=(./bzip2 -dc); inp=$S/small.bz2 ;;
                mt) cmd=(./mt-logstat $mt_small); inp=/dev/null ;;
            esac
            (cd "$d" && PATHPROF_OUT=$d/cg.$w.prof valgrind --tool=cachegrind --cache-sim=no \
                --cachegrind-out-file="$d/cg.$w.out" "${cmd[@]}" <"$inp" >/dev/null 2>"$d/cg.$w.log")
            # The program's own functions: the text symbols its executable defines.
            nm --defined-only "$d/${cmd[0]#./}" | awk '$2 ~ /^[tT]$/ { print $3 }' >"$d/own.syms"
            read -r irt[$c.$w] irp[$c.$w] < <(awk '
                FNR == NR { own[$1] = 1; next }
                /^fn=/ { mine = (substr($0, 4) in own) }
                /^[0-9]/ { t += $2; if (mine) p += $2 }
                END { printf "%d %d\n", t, p }' "$d/own.syms" "$d/cg.$w.out")
            evs[$c.$w]=-
            if [ $c = stream ]; then evs[$c.$w]=$(perl "$stats_pl" "$d/cg.$w.prof" | awk '{ print $1 }'); fi
        done
    done
fi

# The probe sequence of one hot loop: mainGtU (blocksort.c), the hottest
# function of compression, in the stream build's object.
objdump -dr --no-show-raw-insn "$S/stream/blocksort.o" >"$S/blocksort.dis"
probe_listing=$(awk '/<mainGtU>:$/ { on = 1 } on && /^$/ { on = 0 } on' "$S/blocksort.dis" |
    awk '/__pathprof_cur/ && !seen { seen = 1 } seen && !done { print } seen && /,%fs:/ { done = 1 }')

{
    echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r), $(gcc --version | head -n 1); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "pathprof $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'); bzip2 $(basename "$src") ($BZIP2_FLAGS), input $(stat -c %s "$in") bytes from perfctl/lib/gen-input.c; mt-logstat $mt_args (lines, passes, worker threads); stream: PATHPROF_ANALYZER=blpp PATHPROF_POLICY=block, other PATHPROF_* at their defaults; $runs interleaved rounds"
    echo
    echo "Wall time (s), $runs runs; CPU = user + system of the whole process (analyzer thread included):"
    echo
    echo "| workload | configuration | median | min | max | x native | x -fprofile-generate | CPU median | CPU x native |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for w in $workloads; do
        read -r nmed _ _ < <(stats "$S/$w.native.times")
        read -r gmed _ _ < <(stats "$S/$w.fprofile-generate.times")
        read -r ncpu _ _ < <(stats "$S/$w.native.times.cpu")
        for c in $configs; do
            read -r med min max < <(stats "$S/$w.$c.times")
            read -r cpu _ _ < <(stats "$S/$w.$c.times.cpu")
            echo "| $w | $c | $med | $min | $max | $(ratio "$med" "$nmed") | $(ratio "$med" "$gmed") | $cpu | $(ratio "$cpu" "$ncpu") |"
        done
    done
    echo
    echo "Stream mode (blpp), from the STREAM section of each timed run (medians of $runs; min-max in brackets):"
    echo
    echo "| workload | events (words) | producer threads | producer Mevents/s (events / wall) | analyzer Mevents/s per busy core | analyzer busy s | blocked s (all producers) | blocked / wall | dropped + late |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for w in $workloads; do
        f=$S/$w.stream.stats
        # columns: wall events dropped late blocked_ns producers nthreads busy_ns tev
        awk '{ print $2 / $1 / 1e6, ($8 > 0 ? $9 * 1e3 / $8 : 0), $8 / 1e9, $5 / 1e9, $5 / 1e9 / $1, $3 + $4 }' "$f" >"$f.derived"
        read -r ev _ _ < <(stats "$f" 2)
        read -r prod _ _ < <(stats "$f" 6)
        read -r pe pemin pemax < <(stats "$f.derived" 1)
        read -r ae aemin aemax < <(stats "$f.derived" 2)
        read -r bu _ _ < <(stats "$f.derived" 3)
        read -r bl blmin blmax < <(stats "$f.derived" 4)
        read -r bw _ _ < <(stats "$f.derived" 5)
        read -r _ _ loss < <(stats "$f.derived" 6)
        printf '| %s | %.0f | %s | %.1f [%.1f-%.1f] | %.0f [%.0f-%.0f] | %.2f | %.2f [%.2f-%.2f] | %.2f | %s |\n' \
            "$w" "$ev" "$prod" "$pe" "$pemin" "$pemax" "$ae" "$aemin" "$aemax" "$bu" "$bl" "$blmin" "$blmax" "$bw" "$loss"
    done
    if [ -n "$cg_workloads" ]; then
        echo
        echo "Instructions (valgrind --tool=cachegrind; deterministic) on small inputs (bzip2: $small bytes; mt-logstat $mt_small). \"own code\" = instructions in the program's own functions, where the probes are inlined (libc, libpathprof's slow path and analyzer thread excluded):"
        echo
        echo "| workload | configuration | instructions, whole process | x native | own code | stream events | (own code - native) / event | (whole - native) / event |"
        echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
        for w in $cg_workloads; do
            for c in $configs; do
                pe=- we=-
                if [ "${evs[$c.$w]}" != - ]; then
                    pe=$(awk -v a="${irp[$c.$w]}" -v b="${irp[native.$w]}" -v e="${evs[$c.$w]}" 'BEGIN { printf "%.2f", (a - b) / e }')
                    we=$(awk -v a="${irt[$c.$w]}" -v b="${irt[native.$w]}" -v e="${evs[$c.$w]}" 'BEGIN { printf "%.2f", (a - b) / e }')
                fi
                echo "| $w | $c | ${irt[$c.$w]} | $(ratio "${irt[$c.$w]}" "${irt[native.$w]}") | ${irp[$c.$w]} | ${evs[$c.$w]} | $pe | $we |"
            done
        done
    fi
    echo
    echo "The first probe of mainGtU (blocksort.c, stream build, objdump -dr), from the load of __pathprof_cur's TLS offset to the store of the cursor:"
    echo
    echo '```'
    echo "$probe_listing"
    echo '```'
} | tee "$S/results.md"
echo
echo "perfctl/micro/stream: results in $S/results.md"
