#!/usr/bin/env bash
# stream-threads.t - issue 3: multithreaded programs in stream mode give
# exact profiles, without atomic counters.
#
#   mt_loops.c       threads created and joined in loops (7 rounds of 6),
#                    with recursion in the threads; -O0 and -O2
#   many_threads.c   3000 short-lived threads (150 waves of 20), ~240
#                    events each
#   omp_loop.c       OpenMP parallel loops (4 threads, static schedule);
#                    libgomp's pool threads are still alive at exit
#
# Each is built plain, in count mode with -fprofile-update=atomic (exact
# counts) and in stream mode without it, and the stream build is run with 1
# and 2 analyzer threads (PATHPROF_ANALYZERS), and with tiny chunks.
# Checked for every stream run: same behaviour as the plain build; the
# profile equals the atomic count-mode profile (normjson.pl); the
# program's `//! expect` lines (counts by construction) hold, for the
# count-mode profile too; the STREAM section is exact, says the analyzer
# threads asked for, one producer per thread that ran instrumented code
# (the threads plus main), and as many events as path counts.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build

# case NAME SRC LEVEL PRODUCERS CFLAGS -- RUNS... : RUNS are
# "label:ANALYZERS:CHUNK" (CHUNK "-" for the default)
case_() {
    local name=$1 src=$2 level=$3 producers=$4; shift 4
    local cflags=()
    while [ "$1" != -- ]; do cflags+=("$1"); shift; done
    shift
    local d=$T/$name-$level tag="$name -$level"
    mkdir -p "$d"
    if ! pp_cc_plain "$d/plain" "$src" -"$level" "${cflags[@]}" ||
        ! pp_cc "$d/count" "$src" -"$level" "${cflags[@]}" -fprofile-update=atomic ||
        ! pp_cc "$d/stream" "$src" -"$level" "${cflags[@]}" $STREAM; then
        fail "$tag: builds plain, in count mode (atomic) and in stream mode"
        return 1
    fi
    pass "$tag: builds plain, in count mode (atomic) and in stream mode"
    srun "$d" plain -- "$d/plain"
    srun "$d" count -- "$d/count"
    same_behaviour "$d" count plain "$tag count mode"
    if [ -s "$d/count.json" ]; then
        pp_check expect "$src" "$d/count.json" "$level" "$tag count mode (atomic): "
    else
        fail "$tag count mode: profile written" "$(head -n 5 "$d/count.err")"
    fi
    local run label an chunk envs
    for run in "$@"; do
        IFS=: read -r label an chunk <<<"$run"
        envs=(PATHPROF_ANALYZERS="$an")
        [ "$chunk" != - ] && envs+=(PATHPROF_CHUNK="$chunk" PATHPROF_CHUNKS=2)
        srun "$d" "$label" "${envs[@]}" -- "$d/stream"
        local t="$tag stream, $an analyzer thread(s)"
        [ "$chunk" != - ] && t="$t, chunks of $chunk"
        same_behaviour "$d" "$label" plain "$t"
        same_profile "$d" "$label" count "$t" || continue
        pp_check expect "$src" "$d/$label.json" "$level" "$t: "
        local pe
        pe=$(sfacts "$d/$label.json" paths_executed)
        is "$(sfacts "$d/$label.json" mode exact policy analyzer_threads producers events dropped late resync unknown)" \
            "stream true block $an $producers $pe 0 0 0 0" \
            "$t: STREAM exact, $an analyzer thread(s), $producers producers, events = path counts"
    done
}

S=$STREAM_DIR
case_ mt_loops "$S/mt_loops.c" O0 43 -pthread -- a1:1:- a2:2:- a2tiny:2:16
case_ mt_loops "$S/mt_loops.c" O2 43 -pthread -- a1:1:- a2:2:- a2tiny:2:16 a1tiny:1:16
case_ many_threads "$S/many_threads.c" O2 3001 -pthread -- a1:1:- a2:2:- a2tiny:2:16

# OpenMP, when gcc -fopenmp can link here (libgomp)
cat >"$T/omp-probe.c" <<'C'
#include <omp.h>
int main(void) { int n = 0;
#pragma omp parallel reduction(+ : n)
n += 1;
return n < 1; }
C
if [ "${PP_SANITIZE:-}" = thread ]; then
    # Debian's libgomp is not built with TSan: its barriers and reductions
    # are invisible to it, so it reports races in any OpenMP program
    # (docs/install.md).
    skip "OpenMP under TSan: libgomp is not instrumented" 1
elif "$PP_GCC" -fopenmp "$T/omp-probe.c" -o "$T/omp-probe" >/dev/null 2>&1 && "$T/omp-probe"; then
    export OMP_NUM_THREADS=4 OMP_DYNAMIC=false OMP_PROC_BIND=false
    case_ omp_loop "$S/omp_loop.c" O2 4 -fopenmp -- a1:1:- a2:2:- a2tiny:2:64
    case_ omp_loop "$S/omp_loop.c" O0 4 -fopenmp -- a1:1:-
else
    skip "gcc -fopenmp does not link or run here (no libgomp)" 1
fi
done_testing
