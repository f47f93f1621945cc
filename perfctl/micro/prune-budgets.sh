#!/bin/bash
# After perfctl/micro/prune.sh: ksf-pruned once more at larger budgets (MULTS x
# the 1% budget it chose), bzip2 and lz4 (deterministic: compared with the
# exact profiles perfctl/micro/prune.sh left; 16x skips lz4 k = 16, 32, which take
# minutes). Prints one line per run: program, k, multiple, budget, wall s
# and peak RSS KB, then perfctl/micro/prune-accuracy.c's line for phi = 1e-3 and
# 1e-4 (phi recall precision max_err avg_err hot reported exact_bytes
# pruned_peak).
#
# Usage: perfctl/micro/prune-budgets.sh [MULTS (default "4 16")]
set -euo pipefail
P=$(cd "$(dirname "$0")/../.." && pwd)/build/bench/prune
[ -x "$P/prune-accuracy" ] || { echo "perfctl/micro/prune-budgets.sh: run perfctl/micro/prune.sh first" >&2; exit 1; }
export PATHPROF_QUIET=1 PATHPROF_POLICY=block
for mult in ${1:-4 16}; do
    for p in bzip2 lz4; do
        for k in 8 16 32; do
            [ "$mult" -ge 16 ] && [ $p = lz4 ] && [ $k != 8 ] && continue
            [ -s "$P/$p.k$k.budget" ] || continue
            b=$(($(cat "$P/$p.k$k.budget") * mult))
            case $p in
                bzip2) set -- "$P/bzip2" -c; in=$P/bzip2.in ;;
                lz4) set -- "$P/lz4" -9 -c; in=$P/lz4.in ;;
            esac
            PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=$k PATHPROF_PRUNE=$b PATHPROF_OUT=$P/$p.k$k.x$mult.prof \
                /usr/bin/time -o "$P/.time" -f "%e %M" "$@" <"$in" >/dev/null
            echo "$p k=$k x$mult budget=$b $(cat "$P/.time") |" \
                $("$P/prune-accuracy" "$P/$p.k$k.exact.prof" "$P/$p.k$k.x$mult.prof" 1e-3 1e-4 | tr '\n' '|')
        done
    done
done
