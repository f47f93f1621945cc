#!/bin/bash
# Issue 5, measured: the ksf-pruned analyzer (bounded memory, bounds on
# every count; docs/pruning.md) against the exact ksf analyzer on bzip2,
# lz4 and lua5.4 (the programs and workloads of perfctl/micro/ksf.sh, smaller
# inputs because the exact analyzer at k = 32 is slow), for k = 8, 16, 32:
#   - wall time and peak RSS (VmHWM, /usr/bin/time) of the exact and the
#     pruned run, median of --runs;
#   - what the analyzers hold: exact = (k-SF + k-IPF nodes) x 24 bytes
#     (a lower bound of its forests' peak), pruned = its own peak counter;
#     the budget is 1% of the exact figure (at least 64K) unless --budget;
#   - the exact and the pruned profiles of the same (deterministic) workload
#     compared by perfctl/micro/prune-accuracy.c (which also checks that both saw
#     the same N_n and that every bound it can check holds): recall and
#     precision of the hot sequences (count >= phi x N_n, every length
#     1..k) at phi = 1e-3 and 1e-4, max and average relative error of the
#     reported upper bound over the hot sequences.
# Results: build/bench/prune/results.md.
#
# Usage: perfctl/micro/prune.sh [--runs N] [--ks "8 16 32"] [--budget SIZE] [--build DIR]
#   --budget: PATHPROF_PRUNE for every run (default: 1% of the exact
#   forests); --build: the pathprof build to use (default build).
#   BENCH_PRUNE_REUSE=1 keeps the previous timed runs (comparison and table only).
# shellcheck disable=SC2086,SC2046 # unquoted flag and word lists on purpose
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=3 ks="8 16 32" budget= build=build
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --ks) ks=$2; shift 2 ;;
        --budget) budget=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        *) echo "perfctl/micro/prune.sh: unknown argument '$1' (see the usage at the top)" >&2; exit 2 ;;
    esac
done
case $build in /*) ;; *) build=$root/$build ;; esac
cli=$build/bin/pathprof
[ -x "$cli" ] || { echo "perfctl/micro/prune.sh: $cli is missing: run make first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "perfctl/micro/prune.sh: needs GNU time (/usr/bin/time) for peak RSS" >&2; exit 1; }
PP_CFLAGS="$("$cli" config --cflags) -fplugin-arg-pathprof-mode=stream"
PP_LIBS=$("$cli" config --libs)
B=$root/build/bench
P=$B/prune
mkdir -p "$P"
export PATHPROF_QUIET=1 PATHPROF_POLICY=block
gcc -O2 -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE perfctl/micro/prune-accuracy.c -o "$P/prune-accuracy"

bz_src=$(perfctl/lib/fetch-bzip2.sh "$B")
lz_lib=$(perfctl/lib/fetch-src.sh "$B" lz4 lz4hc.c)
lz_prog=$lz_lib/../programs
lua_src=$(perfctl/lib/fetch-src.sh "$B" lua5.4 lua.c)

# The stream builds of perfctl/micro/ksf.sh (same files and flags), with $build's
# plugin: build PROG.
build() {
    local p=$1 d=$P/obj/$1 flags srcs libs='' f
    rm -rf "$d"; mkdir -p "$d"
    case $p in
        bzip2) flags="-O2 -D_FILE_OFFSET_BITS=64 -w"
               srcs=$(for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do echo "$bz_src/$f.c"; done) ;;
        lz4) flags="-O2 -w -I$lz_lib -DXXH_NAMESPACE=LZ4_"
             srcs=$(ls "$lz_lib"/lz4.c "$lz_lib"/lz4hc.c "$lz_lib"/lz4frame.c "$lz_lib"/xxhash.c "$lz_prog"/*.c) ;;
        lua) mkdir -p "$P/inc"
             printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
                 "$(gcc -print-multiarch)" >"$P/inc/lua5.4-deb-multiarch.h"
             flags="-O2 -w -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I$P/inc"
             srcs=$(for f in "$lua_src"/*.c; do [ "${f##*/}" = luac.c ] || echo "$f"; done); libs="-lm -ldl -Wl,-E" ;;
    esac
    for f in $srcs; do
        gcc $flags $PP_CFLAGS -c "$f" -o "$d/$(basename "$f" .c).o" &
        if [ "$(jobs -r | wc -l)" -ge 2 ]; then wait -n; fi
    done
    wait
    gcc -O2 "$d"/*.o -o "$P/$p" $PP_LIBS $libs
}
progs="bzip2 lz4 lua"
echo "perfctl/micro/prune: building $progs (stream mode, $build)" >&2
for p in $progs; do
    [ -n "${BENCH_PRUNE_REUSE:-}" ] && [ -x "$P/$p" ] || build $p
done

if [ ! -x "$B/gen-input" ]; then
    gcc -std=c11 -O2 -Wall -Wextra -Werror perfctl/lib/gen-input.c -o "$B/gen-input"
fi
"$B/gen-input" 300000 >"$P/bzip2.in"
"$B/gen-input" 600000 >"$P/lz4.in"
lua_n=4000
# perfctl/micro/ksf.sh's Lua workload, if it was written; else a short one of the same kind.
if [ -s "$B/ksf/work.lua" ]; then cp "$B/ksf/work.lua" "$P/work.lua"; else
cat >"$P/work.lua" <<'EOF'
local n = tonumber(arg[1]) or 4000
local seed, t, words = 12345, {}, {"alpha","beta","gamma","delta","epsilon"}
local function rand(m) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m end
local freq = {}
for i = 1, n do
  local s = string.format("%d;%s;%d", i, words[1 + rand(#words)], rand(1000))
  local id, w, v = s:match("^(%d+);(%a+);(%d+)$")
  freq[w] = (freq[w] or 0) + tonumber(v)
  t[i] = (i * 7919) % n
end
table.sort(t)
for k, v in pairs(freq) do print(k, v) end
EOF
fi

run() {
    case $1 in
        bzip2) "$P/bzip2" -c <"$P/bzip2.in" ;;
        lz4) "$P/lz4" -9 -c <"$P/lz4.in" ;;
        lua) "$P/lua" "$P/work.lua" $lua_n ;;
    esac
}
# timed P K WHAT [BUDGET]: one run, appends "wall_s maxrss_kb" to $P/P.kK.WHAT
timed() {
    local an
    case $3 in exact) an=ksf ;; pruned) an=ksf-pruned ;; esac
    PATHPROF_ANALYZER=$an PATHPROF_K=$2 PATHPROF_PRUNE=${4:-off} PATHPROF_OUT=$P/$1.k$2.$3.prof \
        /usr/bin/time -o "$P/.time" -f "%e %M" bash -c "$(declare -f run); P=$P lua_n=$lua_n run $1" >/dev/null
    cat "$P/.time" >>"$P/$1.k$2.$3"
}

# BENCH_PRUNE_REUSE=1: keep the timed runs of a previous invocation (for
# rerunning the comparison and the table only).
if [ -z "${BENCH_PRUNE_REUSE:-}" ]; then
    rm -f "$P"/*.exact "$P"/*.pruned "$P"/*.acc "$P"/*.budget
else
    runs=0
fi
echo "perfctl/micro/prune: $runs rounds of exact and pruned runs, k = $ks" >&2
for ((r = 1; r <= runs; r++)); do
    for p in $progs; do
        for k in $ks; do
            timed $p $k exact
            if [ ! -s "$P/$p.k$k.budget" ]; then
                b=$budget
                [ -n "$b" ] || b=$("$P/prune-accuracy" --exact-bytes "$P/$p.k$k.exact.prof" |
                                   awk '{ b = int($1 / 100); print b < 65536 ? 65536 : b }')
                echo "$b" >"$P/$p.k$k.budget"
            fi
            timed $p $k pruned "$(cat "$P/$p.k$k.budget")"
        done
    done
    echo "perfctl/micro/prune: round $r of $runs done" >&2
done
# Lua seeds its string hashes from addresses and time (perfctl/micro/ksf.sh): its
# path counts differ from run to run, so its exact and pruned sections come
# from one more run with both analyzers on one stream.
for p in $progs; do
    for k in $ks; do
        e=$P/$p.k$k.exact.prof f=$P/$p.k$k.pruned.prof
        if [ $p = lua ]; then
            e=$P/$p.k$k.both.prof f=$e
            PATHPROF_ANALYZER=ksf,ksf-pruned PATHPROF_K=$k PATHPROF_PRUNE="$(cat "$P/$p.k$k.budget")" \
                PATHPROF_OUT=$e bash -c "$(declare -f run); P=$P lua_n=$lua_n run $p" >/dev/null
        fi
        "$P/prune-accuracy" "$e" "$f" 1e-3 1e-4 >"$P/$p.k$k.acc" ||
            { echo "perfctl/micro/prune: $p k=$k: the pruned profile does not match the exact one" >&2; exit 1; }
    done
done

med() {  # FILE COLUMN: the median
    awk -v k="$2" '{ print $k }' "$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%.15g", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
mb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1048576 }'; }
{
    echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs (shared: noisy), load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "pathprof $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'); bzip2 -c of $(stat -c %s "$P/bzip2.in") bytes, lz4 -9 -c of $(stat -c %s "$P/lz4.in") bytes, lua work.lua $lua_n; PATHPROF_PRUNE = ${budget:-1% of the exact forests, at least 64K}; medians of $(wc -l <"$P/bzip2.k${ks%% *}.exact") interleaved runs; 1 analyzer thread"
    echo
    echo "| program | k | exact s | pruned s | pruned / exact | RSS exact MB | RSS pruned MB | exact forests MB | PATHPROF_PRUNE | pruned peak MB | pruned / exact forests | recall 1e-3 | precision 1e-3 | recall 1e-4 | precision 1e-4 | max rel. err (1e-3 / 1e-4) | avg rel. err (1e-3 / 1e-4) |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
    for p in $progs; do
        for k in $ks; do
            we=$(med "$P/$p.k$k.exact" 1) wp=$(med "$P/$p.k$k.pruned" 1)
            re=$(med "$P/$p.k$k.exact" 2) rp=$(med "$P/$p.k$k.pruned" 2)
            read -r _ r3 p3 x3 a3 _ _ eb pk < <(sed -n 1p "$P/$p.k$k.acc")
            read -r _ r4 p4 x4 a4 _ _ _ _ < <(sed -n 2p "$P/$p.k$k.acc")
            printf '| %s | %s | %s | %s | %.2f | %.1f | %.1f | %s | %s | %s | %.4f | %s | %s | %s | %s | %s / %s | %s / %s |\n' \
                "$p" "$k" "$we" "$wp" "$(awk -v a="$wp" -v b="$we" 'BEGIN { print a / b }')" \
                "$(awk -v a="$re" 'BEGIN { print a / 1024 }')" "$(awk -v a="$rp" 'BEGIN { print a / 1024 }')" \
                "$(mb "$eb")" "$(cat "$P/$p.k$k.budget")" "$(mb "$pk")" "$(awk -v a="$pk" -v b="$eb" 'BEGIN { print a / b }')" \
                "$r3" "$p3" "$r4" "$p4" "$x3" "$x4" "$a3" "$a4"
        done
    done
} | tee "$P/results.md"
echo "perfctl/micro/prune: results in $P/results.md" >&2
