#!/bin/bash
# Issue 4, "measured, not asserted": the ksf analyzer (k-iteration path
# forests) for k = 1 2 3 4 6 8 11 16 against counting-mode BLPP, stream-mode
# blpp, native and -fprofile-generate, in the same rounds, on three real
# programs built from Debian source packages:
#   bzip2   compressing the head of perfctl/bzip2-bench's generated input;
#   lz4     lz4 -9 (HC) compressing the same kind of input;
#   lua5.4  the interpreter running a generated script (string parsing,
#           tables, closures, sorting).
# Outputs checked against native. From each ksf run's profile: events,
# k-SF and k-IPF nodes, hash operations, analyzer busy time (path IDs per
# second per core), loss. Then the fan-out of one stream to k-SF workers
# (perfctl/micro/ksf-fanout.c), and the same on bzip2's and lua's real
# streams simulated for more cores (perfctl/micro/ksf-fanout-sim.c).
# Results: build/bench/ksf/results.md.
#
# The k-IPF analyzer is far slower than the program for large k (measured
# ~18x native at k=8, ~150x at k=16 on bzip2), so the default inputs make
# the native runs short (~0.1-0.3 s) to keep `make bench` under ~25 minutes;
# --scale N multiplies them.
#
# k8wN: k = 8 with PATHPROF_KSF_WORKERS=N (--workers N, default 2; 0: none).
#
# Usage: perfctl/micro/ksf.sh [--runs N] [--scale N] [--ks "1 2 ..."] [--workers N]
# shellcheck disable=SC2086,SC2046 # unquoted flag and word lists on purpose
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
runs=3 scale=1 ks="1 2 3 4 6 8 11 16" workers=2
while [ $# -gt 0 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --scale) scale=$2; shift 2 ;;
        --ks) ks=$2; shift 2 ;;
        --workers) workers=$2; shift 2 ;;
        *) echo "perfctl/micro/ksf.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done

B=$root/build/bench
K=$B/ksf
mkdir -p "$K"
. perfctl/lib/common.sh
bench_pathprof_flags
stats_pl=$root/perfctl/lib/pp-stream-stats.pl
export PATHPROF_QUIET=1 PATHPROF_POLICY=block

bz_src=$(perfctl/lib/fetch-bzip2.sh "$B")
lz_lib=$(perfctl/lib/fetch-src.sh "$B" lz4 lz4hc.c)
lz_prog=$lz_lib/../programs
lua_src=$(perfctl/lib/fetch-src.sh "$B" lua5.4 lua.c)

builds="native fprofile-generate count stream"
# cflags_of, libs_of: perfctl/lib/common.sh
# build PROG BUILD: compiles PROG's C files (2 at a time) and links $K/BUILD/PROG.
build() {
    local p=$1 c=$2 d=$K/obj/$2/$1 flags srcs libs='' f
    rm -rf "$d"; mkdir -p "$d"
    case $p in
        bzip2) flags="-O2 -D_FILE_OFFSET_BITS=64 -w"
               srcs=$(for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do echo "$bz_src/$f.c"; done) ;;
        lz4) flags="-O2 -w -I$lz_lib -DXXH_NAMESPACE=LZ4_"
             srcs=$(ls "$lz_lib"/lz4.c "$lz_lib"/lz4hc.c "$lz_lib"/lz4frame.c "$lz_lib"/xxhash.c "$lz_prog"/*.c) ;;
        lua) # debian/rules writes this header; the build does the same in its own directory.
             mkdir -p "$K/inc"
             printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
                 "$(gcc -print-multiarch)" >"$K/inc/lua5.4-deb-multiarch.h"
             flags="-O2 -w -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I$K/inc"
             srcs=$(for f in "$lua_src"/*.c; do [ "${f##*/}" = luac.c ] || echo "$f"; done); libs="-lm -ldl -Wl,-E" ;;
    esac
    for f in $srcs; do
        gcc $flags $(cflags_of $c) -c "$f" -o "$d/$(basename "$f" .c).o" &
        if [ "$(jobs -r | wc -l)" -ge 2 ]; then wait -n; fi
    done
    wait
    mkdir -p "$K/$c"
    gcc -O2 "$d"/*.o -o "$K/$c/$p" $(libs_of $c) $libs
}
progs="bzip2 lz4 lua"
echo "perfctl/micro/ksf: building $progs in $(echo $builds | wc -w) configurations" >&2
for c in $builds; do
    for p in $progs; do build $p $c; done
done

# Inputs.
if [ ! -x "$B/gen-input" ]; then
    gcc -std=c11 -O2 -Wall -Wextra -Werror perfctl/lib/gen-input.c -o "$B/gen-input"
fi
"$B/gen-input" $((1500000 * scale)) >"$K/bzip2.in"
"$B/gen-input" $((3000000 * scale)) >"$K/lz4.in"
# A Lua program of the usual kind: parse records, aggregate in tables, sort,
# format; plus closures and a little numeric work.
cat >"$K/work.lua" <<'EOF'
local n = tonumber(arg[1]) or 20000
local seed = 12345
local function rand(m) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m end
local words = {"alpha","beta","gamma","delta","epsilon","zeta","eta","theta","iota","kappa","lambda","mu"}
local lines = {}
for i = 1, n do
  local w = {}
  for j = 1, 3 + rand(8) do w[#w + 1] = words[1 + rand(#words)] .. (rand(4) == 0 and tostring(rand(100)) or "") end
  lines[i] = string.format("%d;%s;%d.%02d;%s", i, table.concat(w, " "), rand(1000), rand(100), rand(3) == 0 and "ok" or "fail")
end
local freq, sums, status = {}, {}, {ok = 0, fail = 0}
for _, l in ipairs(lines) do
  local id, text, num, st = l:match("^(%d+);([^;]*);([%d%.]+);(%a+)$")
  status[st] = status[st] + 1
  for word in text:gmatch("%a+") do
    freq[word] = (freq[word] or 0) + 1
    sums[word] = (sums[word] or 0) + tonumber(num)
  end
end
local keys = {}
for k in pairs(freq) do keys[#keys + 1] = k end
table.sort(keys, function(a, b) if freq[a] ~= freq[b] then return freq[a] > freq[b] end return a < b end)
for _, k in ipairs(keys) do print(string.format("%-8s %7d %12.2f", k, freq[k], sums[k])) end
local function fib(x) if x < 2 then return x end return fib(x - 1) + fib(x - 2) end
local acc = 0
for i = 1, n // 1000 do acc = acc + fib(15 + i % 5) end
local t = {}
for i = 1, n do t[i] = (i * 7919) % n end
table.sort(t)
print("ok", status.ok, "fail", status.fail, "fib", acc, "sorted", t[1], t[n])
EOF
lua_n=$((25000 * scale))

# run P C: runs program P of build C on its workload, output to stdout.
run() {
    case $1 in
        bzip2) "$K/$2/bzip2" -c <"$K/bzip2.in" ;;
        lz4) "$K/$2/lz4" -9 -c <"$K/lz4.in" ;;
        lua) "$K/$2/lua" "$K/work.lua" $lua_n ;;
    esac
}
# Configurations: a build plus, for stream builds, the analyzer and k.
configs="native fprofile-generate count blpp"
for k in $ks; do configs="$configs k$k"; done
[ "$workers" -gt 0 ] && configs="$configs k8w$workers"
build_of() { case $1 in blpp|k*) echo stream ;; *) echo "$1" ;; esac; }
# go P C: one run of configuration C of program P, stdout to $K/out, profile to $K/C.P.prof
go() {
    local b
    b=$(build_of "$2")
    case $2 in
        blpp) PATHPROF_ANALYZER=blpp PATHPROF_OUT=$K/$2.$1.prof run "$1" "$b" ;;
        k*w*) local kw=${2#k}
              PATHPROF_ANALYZER=ksf PATHPROF_K=${kw%w*} PATHPROF_KSF_WORKERS=${kw#*w} \
                  PATHPROF_OUT=$K/$2.$1.prof run "$1" "$b" ;;
        k*) PATHPROF_ANALYZER=ksf PATHPROF_K=${2#k} PATHPROF_OUT=$K/$2.$1.prof run "$1" "$b" ;;
        *) PATHPROF_OUT=$K/$2.$1.prof run "$1" "$b" ;;
    esac
}

for p in $progs; do
    go $p native >"$K/$p.native.out"
    for c in $configs; do
        go $p $c | cmp -s - "$K/$p.native.out" || { echo "perfctl/micro/ksf: $p: $c output differs from native" >&2; exit 1; }
    done
done
echo "perfctl/micro/ksf: every configuration's output is native's" >&2

rm -f "$K"/*.times "$K"/*.stats
echo "perfctl/micro/ksf: $runs rounds, each runs every configuration of every program in turn" >&2
for ((r = 1; r <= runs; r++)); do
    for p in $progs; do
        for c in $configs; do
            t0=$EPOCHREALTIME
            go $p $c >/dev/null
            t1=$EPOCHREALTIME
            w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
            echo "$w" >>"$K/$p.$c.times"
            case $c in blpp|k*) echo "$w $(perl "$stats_pl" "$K/$c.$p.prof")" >>"$K/$p.$c.stats" ;; esac
        done
    done
    echo "perfctl/micro/ksf: round $r of $runs done" >&2
done

stats() {  # FILE [COLUMN]: median min max
    awk -v k="${2:-1}" '{ print $k }' "$1" | sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.15g %.15g %.15g\n", m, v[1], v[NR] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

{
    echo "Machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs, Linux $(uname -r), $(gcc --version | head -n 1); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "pathprof $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'); $(basename "$bz_src"), $(basename "$(dirname "$lz_lib")"), $(basename "$(dirname "$lua_src")") (Debian source packages), -O2; workloads: bzip2 -c of $(stat -c %s "$K/bzip2.in") bytes, lz4 -9 -c of $(stat -c %s "$K/lz4.in") bytes (perfctl/lib/gen-input.c), lua work.lua $lua_n; $runs interleaved rounds; stream runs PATHPROF_POLICY=block, 1 analyzer thread (default)"
    echo
    echo "Wall time, median of $runs (min-max), and ratios; kN = stream build, PATHPROF_ANALYZER=ksf PATHPROF_K=N; blpp = stream build, blpp analyzer; count = counting mode:"
    echo
    echo "| program | configuration | median s | min-max s | x native | x -fprofile-generate | x count (BLPP) |"
    echo "| --- | --- | ---: | --- | ---: | ---: | ---: |"
    for p in $progs; do
        read -r nm _ _ < <(stats "$K/$p.native.times")
        read -r gm _ _ < <(stats "$K/$p.fprofile-generate.times")
        read -r cm _ _ < <(stats "$K/$p.count.times")
        for c in $configs; do
            read -r med mn mx < <(stats "$K/$p.$c.times")
            echo "| $p | $c | $med | $mn-$mx | $(ratio "$med" "$nm") | $(ratio "$med" "$gm") | $(ratio "$med" "$cm") |"
        done
    done
    echo
    echo "Analyzer figures from each profile (KIPF and STREAM sections; medians of $runs for times). Path IDs = path events the ksf analyzer consumed; hash ops / path ID: the k-SF's root hash-table operations per path ID (BLPP's hash-table variant does 1 per path ID; counting mode's hash-mode functions did the count column's hash updates); throughput = path IDs / analyzer busy time (1 analyzer thread):"
    echo
    echo "| program | k | path IDs | hash ops | hash ops / path ID | k-SF nodes | k-IPF nodes | analyzer M path IDs/s per core | analyzer busy s | blocked s | dropped + late |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for p in $progs; do
        for c in blpp $(for k in $ks; do echo k$k; done) $([ "$workers" -gt 0 ] && echo k8w$workers); do
            f=$K/$p.$c.stats
            # wall events dropped late blocked_ns producers nthreads busy_ns tev [k kev ksf kipf hops]
            read -r _ ev dr la _ _ _ _ _ kk kev ksf kipf hops < <(sort -g "$f" | awk -v n="$(wc -l <"$f")" 'NR == int((n + 1) / 2)')
            read -r bum _ _ < <(stats "$f" 8)
            read -r blm _ _ < <(stats "$f" 5)
            if [ $c = blpp ]; then
                printf '| %s | blpp | %s | - | - | - | - | %.0f | %.2f | %.2f | %s |\n' "$p" "$ev" \
                    "$(awk -v e="$ev" -v b="$bum" 'BEGIN { print (b > 0 ? e * 1e3 / b : 0) }')" \
                    "$(awk -v b="$bum" 'BEGIN { print b / 1e9 }')" "$(awk -v b="$blm" 'BEGIN { print b / 1e9 }')" "$((dr + la))"
            else
                [ "$c" = "k$kk" ] || kk="$kk, ${c#*w} workers (busy: the owner only)"
                printf '| %s | %s | %s | %s | %.3f | %s | %s | %.1f | %.2f | %.2f | %s |\n' "$p" "$kk" "$kev" "$hops" \
                    "$(awk -v h="$hops" -v e="$kev" 'BEGIN { print h / e }')" "$ksf" "$kipf" \
                    "$(awk -v e="$kev" -v b="$bum" 'BEGIN { print (b > 0 ? e * 1e3 / b : 0) }')" \
                    "$(awk -v b="$bum" 'BEGIN { print b / 1e9 }')" "$(awk -v b="$blm" 'BEGIN { print b / 1e9 }')" "$((dr + la))"
            fi
        done
        h=$("$cli" report --json "$K/count.$p.prof" | perl -MJSON::PP -e 'my $d = decode_json(join "", <STDIN>); print "$d->{paths_executed} $d->{hash_updates}"')
        echo "| $p | count | ${h% *} | ${h#* } (hash-mode functions) | $(awk -v a="${h#* }" -v b="${h% *}" 'BEGIN { printf "%.3f", a / b }') | - | - | - | - | - | - |"
    done
} | tee "$K/results.md"

# Several k-SF workers on one producer stream (PATHPROF_KSF_WORKERS): the
# owner pre-pass and W workers in-process on synthetic streams.
gcc -O2 -std=c11 -D_GNU_SOURCE -pthread -Ianalyzers -Iruntime perfctl/micro/ksf-fanout.c \
    analyzers/ksf/{forest,build,ipf,suffix-links,stats,feed,split,pool}.c analyzers/common/activations.c runtime/thread-start.c \
    -o "$K/ksf-fanout"
{
    echo
    echo "One producer stream fanned out to W k-SF workers (PATHPROF_KSF_WORKERS=W; perfctl/micro/ksf-fanout.c, in-process, 8192-event batches): build rate (M events/s until every job ran), k-IPF conversion + union, total; medians of $runs; $(nproc) CPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg):"
    echo
    "$K/ksf-fanout" "$runs"
} | tee -a "$K/results.md"

# The same fan-out on real streams, simulated for more cores than this
# machine has (issue 13, item 5; perfctl/micro/ksf-fanout-sim.c): each
# stage timed alone on one core, makespans computed.
gcc -O2 -std=c11 -D_GNU_SOURCE -Ianalyzers -Ianalyzers/ksf -Iruntime perfctl/micro/ksf-fanout-sim.c \
    analyzers/ksf/{forest,build,feed,ipf,suffix-links,split}.c analyzers/common/activations.c \
    -o "$K/ksf-fanout-sim"
for p in bzip2 lua; do
    PATHPROF_ANALYZER=trace PATHPROF_TRACE=$K/$p.trace PATHPROF_QUIET=1 run $p stream >/dev/null
    {
        echo
        echo "$p's stream fanned out to W workers, simulated (perfctl/micro/ksf-fanout-sim.c: each stage timed alone on one core; upper bounds, no memory contention between workers):"
        echo
        "$K/ksf-fanout-sim" "$K/$p.trace" 8 1 2 4 8
    } | tee -a "$K/results.md"
    rm -f "$K/$p.trace"
done
echo
echo "perfctl/micro/ksf: results in $K/results.md"
