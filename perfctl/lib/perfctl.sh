# shellcheck shell=bash disable=SC2034 # sets variables for perfctl and the program files
# perfctl/lib/perfctl.sh - what perfctl's driver and its program files share:
# the builds, the configurations, and compiling a list of C files.
# Sourced by perfctl/perfctl and perfctl/crosscheck from the repository root.

# --- builds ---------------------------------------------------------------
# A build is how a program is compiled; a configuration is a build plus the
# environment it runs with. The builds:
#   native               gcc -O2
#   fprofile-generate    GCC's edge profiler (+ value profiling), what PGO runs,
#                        with GCC's default (single-threaded) counter updates
#   fprofile-generate-atomic   the same with -fprofile-update=atomic
#   count                pathprof counting mode (Ball-Larus, in-thread counters)
#   count-atomic         the same with -fprofile-update=atomic (the plugin follows it)
#   count-inloop         count with loop-counts=0: a one-path loop's probe stays
#                        in the loop (what plugin/loop-counts.cc saves)
#   stream               pathprof streaming mode: the analyzer is chosen at run time
#   stream-inloop        stream with loop-counts=0: a one-path loop emits an event
#                        per iteration instead of a RUN marker at its exits
#   ppp                  preferential path profiling (ppp=FILE) trained on a
#                        count run of the same workload: the hottest paths
#                        covering PERFCTL_PPP_COVER (0.99) of the flow
#   ppp-hash             the same with ppp-scope=hash: PPP only in functions
#                        count would hash, plain array counting elsewhere
#   ppp-total            ppp with ppp-uninteresting=total: the other paths
#                        only as a total per function (no hash table)
BUILDS="native fprofile-generate fprofile-generate-atomic count count-atomic count-inloop ppp ppp-hash ppp-total stream stream-inloop sampled sampled-stream"
PERFCTL_PPP_COVER=${PERFCTL_PPP_COVER:-0.99}

# pp_setup: PP_CFLAGS / PP_LIBS / PP_CLI from $PATHPROF_BUILD (default build/).
pp_setup() {
    PP_BUILD=${PATHPROF_BUILD:-$PWD/build}
    PP_CLI=$PP_BUILD/bin/pathprof
    local f
    for f in "$PP_BUILD/lib/pathprof.so" "$PP_BUILD/lib/libpathprof.so" "$PP_CLI"; do
        [ -e "$f" ] || { echo "perfctl: $f is missing: run make first (or set PATHPROF_BUILD to a build directory)" >&2; exit 1; }
    done
    PP_CFLAGS=$("$PP_CLI" config --cflags)
    PP_LIBS=$("$PP_CLI" config --libs)
}

# cflags_of BUILD, libs_of BUILD: shared with the microbenchmarks.
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# compile_c BUILD OBJDIR FLAGS FILE...: FILE.c -> OBJDIR/FILE.o, two at a
# time, with the build's flags after FLAGS. Fails if any compile fails.
# C++ files (.cc, .cpp, .cxx) go to g++ with the same flags (the plugin
# runs in cc1plus as in cc1): FILE.cpp -> OBJDIR/FILE.o.
compile_c() {
    local b=$1 d=$2 flags=$3 f pids=() rc=0 p cc
    shift 3
    mkdir -p "$d"
    for f in "$@"; do
        case $f in *.cc|*.cpp|*.cxx) cc="g++" ;; *) cc=gcc ;; esac
        # shellcheck disable=SC2046,SC2086
        $cc $flags $(cflags_of "$b") -c "$f" -o "$d/$(basename "${f%.*}").o" &
        pids+=($!)
        if [ "${#pids[@]}" -ge 2 ]; then
            wait "${pids[0]}" || rc=1
            pids=("${pids[@]:1}")
        fi
    done
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    return $rc
}

# size_of SIZE FULL: the workload size for SIZE (full or small) and $SCALE.
# gen_input FILE BYTES: perfctl/lib/gen-input.c's deterministic input, made once
# (the generator is built into $OUT/bin). Program files call both; they
# live here so perfctl/crosscheck runs the same workloads.
size_of() {
    case $1 in
        full) awk -v f="$2" -v s="$SCALE" 'BEGIN { printf "%d", f * s }' ;;
        small) awk -v f="$2" -v s="$SCALE" 'BEGIN { v = f * s / 40; printf "%d", (v < 1 ? 1 : v) }' ;;
    esac
}
gen_input() {
    local g=$OUT/bin/gen-input
    if [ ! -x "$g" ]; then
        mkdir -p "$OUT/bin"
        gcc -std=c11 -O2 -Wall -Wextra -Werror "$ROOT/perfctl/lib/gen-input.c" -o "$g"
    fi
    [ "$(stat -c %s "$1" 2>/dev/null || echo -1)" = "$2" ] || "$g" "$2" >"$1"
}

# --- configurations ---------------------------------------------------------
# Every configuration perfctl knows by name. `perfctl list` prints them.
# A later issue adds a configuration here (a build and its environment).
KS="1 2 3 4 6 8 11 16"
DEFAULT_CONFIGS="native fprofile-generate fprofile-generate-atomic count count-atomic ppp ppp-hash stream-blpp $(for k in $KS; do printf 'ksf-%s ' "$k"; done)ksf-pruned ksf-pruned-16 ksf-fanout"
# sample-*: sampling=yes (docs/sampling.md); not in the default list (each
# configuration adds a build and runs to an hours-long sweep): name them
# with --configs, or run perfctl/micro/sampling.sh.
SAMPLE_CONFIGS="sample-0 sample-10000 sample-1000 sample-100 sample-ksf-8"
# ksf-pruned: the ksf-pruned analyzer (bounded memory) at k = PERFCTL_PRUNE_K
# within PATHPROF_PRUNE = PERFCTL_PRUNE bytes per analyzer thread.
PERFCTL_PRUNE=${PERFCTL_PRUNE:-16M}
PERFCTL_PRUNE_K=${PERFCTL_PRUNE_K:-8}
# ksf-fanout: ksf at k = 8 with PATHPROF_KSF_WORKERS k-SF worker threads.
PERFCTL_KSF_WORKERS=${PERFCTL_KSF_WORKERS:-1}

# config_build NAME: the build of configuration NAME ("" when unknown).
# config_env NAME: its environment, VAR=VALUE words.
# Defined configurations (--define NAME=BASE:VAR=VAL:...) and sweeps
# (BASE@VAR=VAL) are resolved through their base.
declare -A DEF_BASE DEF_ENV
config_build() {
    local c=$1
    case $c in
        *@*) config_build "${c%%@*}"; return ;;
    esac
    if [ -n "${DEF_BASE[$c]:-}" ]; then config_build "${DEF_BASE[$c]}"; return; fi
    case $c in
        native|fprofile-generate|fprofile-generate-atomic|count|count-atomic|count-inloop|ppp|ppp-hash|ppp-total) echo "$c" ;;
        stream-blpp|stream-trace|ksf-pruned|ksf-pruned-16|ksf-fanout|wpp) echo stream ;;
        stream-blpp-inloop|ksf-8-inloop) echo stream-inloop ;;
        ksf-[0-9]*) echo stream ;;
        sample-0|sample-10000|sample-1000|sample-100) echo sampled ;;
        sample-ksf-8) echo sampled-stream ;;
        *) echo "" ;;
    esac
}
config_env() {
    local c=$1
    case $c in
        *@*) config_env "${c%%@*}"; echo "PATHPROF_${c#*@}"; return ;;
    esac
    if [ -n "${DEF_BASE[$c]:-}" ]; then config_env "${DEF_BASE[$c]}"; echo "${DEF_ENV[$c]}"; return; fi
    case $c in
        stream-blpp|stream-blpp-inloop) echo "PATHPROF_ANALYZER=blpp" ;;
        ksf-8-inloop) echo "PATHPROF_ANALYZER=ksf PATHPROF_K=8" ;;
        stream-trace) echo "PATHPROF_ANALYZER=trace" ;;
        wpp) echo "PATHPROF_ANALYZER=wpp" ;;
        ksf-pruned) echo "PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=$PERFCTL_PRUNE_K PATHPROF_PRUNE=$PERFCTL_PRUNE" ;;
        ksf-pruned-16) echo "PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=16 PATHPROF_PRUNE=$PERFCTL_PRUNE" ;;
        ksf-fanout) echo "PATHPROF_ANALYZER=ksf PATHPROF_K=8 PATHPROF_KSF_WORKERS=$PERFCTL_KSF_WORKERS" ;;
        ksf-[0-9]*) echo "PATHPROF_ANALYZER=ksf PATHPROF_K=${c#ksf-}" ;;
        sample-0) echo "PATHPROF_SAMPLE=0" ;;
        sample-10000|sample-1000|sample-100) echo "PATHPROF_SAMPLE=1/${c#sample-}" ;;
        sample-ksf-8) echo "PATHPROF_ANALYZER=ksf PATHPROF_K=8 PATHPROF_SAMPLE=1/10000" ;;
    esac
}
# config_k NAME: the k of a ksf configuration, "" otherwise.
config_k() {
    local e
    e=$(config_env "$1" | tr ' ' '\n')
    if echo "$e" | grep -qx 'PATHPROF_ANALYZER=ksf\(-pruned\)\{0,1\}'; then
        echo "$e" | sed -n 's/^PATHPROF_K=//p' | tail -n 1
    fi
}
