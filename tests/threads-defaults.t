#!/usr/bin/env bash
# Threaded code counts atomically by default, and the runtime says when
# plain counters were bumped by several threads (plugin/options.cc,
# pp_atomic_updates; runtime/plain-updates.h). Plain increments from two
# threads lose counts while the profile reads as exact, so:
#   - -pthread (which reaches cc1 as -D_REENTRANT, as the gcc driver makes
#     it -fprofile-update=prefer-atomic for its own edge profiler) and
#     -fopenmp make array counters atomic unless -fprofile-update or
#     update= says otherwise;
#   - a run of more than one thread through plain counters warns at exit,
#     naming a TU; a single-threaded run does not.
# Oracles: tests/programs/threads.c's counts, known by construction; for
# OpenMP, stream mode's counts of the same build options (each thread's
# events counted apart, nothing to race on), path for path.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$T" || exit 1
cp "$TAP_ROOT/tests/programs/threads.c" "$TAP_ROOT/tests/threads/omp.c" .
WANT="3 9 12 299997 899991"

# counts_of PROFILE FUNCTION: its path counts, sorted numerically
counts_of() {
    pp_path_counts "$1" | awk -v f="$2" '$1 == f { print $3 }' | sort -n | tr '\n' ' ' | sed 's/ $//'
}
atomic() { case ",$1," in *,atomic,*) return 0 ;; esac; return 1; }
plain() { ! atomic "$1"; }

# threads BUILD-FLAGS... : builds threads.c with pathprof, runs it
threads() {
    local tag=$1; shift
    pp_cc "$tag" threads.c -O2 "$@" -pthread || BAIL_OUT "cannot build threads.c ($*)"
    pp_run "$tag.pp" "./$tag"
}

# -pthread when compiling: atomic, exact, no warning.
threads pthread -pthread
f=$(pp_fn_flags pthread.pp worker)
ok "-pthread: worker's counters are atomic (flags: $f)" atomic "$f"
is "$(counts_of pthread.pp worker)" "$WANT" "-pthread: worker's counts are exact"
is "$(cat pthread.pp.stderr)" "" "-pthread: no warning"
like "$("$PP_CLI" report pthread.pp | grep '^analysis')" "threads not recorded \\(count mode: each thread updates the counters, atomically or in hash tables\\)" \
    "-pthread: the report says every counter was updated atomically"

# Under TSan, the two builds below race on their plain counters on
# purpose (what their warnings are about): told to TSan, not reported.
tsan_before=${TSAN_OPTIONS-}
if [ "${PP_SANITIZE:-}" = thread ]; then
    echo "race:__pathprof_counters" >"$T/tsan.supp"
    export TSAN_OPTIONS="${TSAN_OPTIONS:-}${TSAN_OPTIONS:+:}suppressions=$T/tsan.supp"
fi

# -pthread -fprofile-update=single: the explicit choice wins, and the
# threads' run warns.
threads single -pthread -fprofile-update=single
f=$(pp_fn_flags single.pp worker)
ok "-pthread -fprofile-update=single: plain counters (flags: $f)" plain "$f"
like "$(cat single.pp.stderr)" "pathprof: warning: the program ran more than one thread, and 1 translation unit \\(threads\\.c\\) counts paths with plain increments \\(update=single\\)" \
    "-pthread -fprofile-update=single: the run warns, naming the TU"
like "$("$PP_CLI" report single.pp | grep '^analysis')" "plain increments in 2 of the 2 functions that ran: exact only if no two threads ran one at once" \
    "-pthread -fprofile-update=single: the report names the plain counters"
is "$(sed -n 's/^a \([0-9]*\) b \([0-9]*\)$/\1 \2/p' single.pp.stdout)" "300000 900000" \
    "-pthread -fprofile-update=single: the program computes what it computes"

# Threads linked in but not compiled with -pthread: plain, and a warning.
pp_cc nopthread threads.c -O2 -Wl,--no-as-needed -lpthread || BAIL_OUT "cannot build threads.c without -pthread"
pp_run nopthread.pp ./nopthread
f=$(pp_fn_flags nopthread.pp worker)
ok "compiled without -pthread: plain counters (flags: $f)" plain "$f"
like "$(cat nopthread.pp.stderr)" "pathprof: warning: the program ran more than one thread, and 1 translation unit \\(threads\\.c\\)" \
    "compiled without -pthread: the run warns"

# update=atomic without -pthread: atomic, exact, no warning.
pp_cc upd threads.c -O2 -fplugin-arg-pathprof-update=atomic -Wl,--no-as-needed -lpthread || BAIL_OUT "cannot build threads.c"
pp_run upd.pp ./upd
is "$(counts_of upd.pp worker)" "$WANT" "update=atomic: worker's counts are exact"
is "$(cat upd.pp.stderr)" "" "update=atomic: no warning"

[ "${PP_SANITIZE:-}" = thread ] && export TSAN_OPTIONS="$tsan_before"

# A single-threaded program with plain counters: no warning.
printf 'int main(int c, char **v) { (void)v; int s = 0; for (int i = 0; i < 100 * c; i++) s += i & 1 ? 1 : 2; return s == 0; }\n' >one.c
pp_cc one one.c -O2 || BAIL_OUT "cannot build one.c"
pp_run one.pp ./one
is "$(cat one.pp.stderr)" "" "one thread, plain counters: no warning"

# OpenMP: -fopenmp alone makes the outlined bodies' counters atomic; the
# counts equal stream mode's path for path with 3 threads.
if [ "${PP_SANITIZE:-}" = thread ]; then
    # libgomp is not built with TSan: its barriers are invisible to it, and
    # omp.c without pathprof is reported the same way.
    skip "TSan: libgomp's synchronisation is invisible to TSan" 4
elif ! gcc -fopenmp omp.c -o omp-native 2>/dev/null; then
    skip "gcc cannot build -fopenmp programs here" 4
else
    pp_cc omp omp.c -O2 -fopenmp || BAIL_OUT "cannot build omp.c with pathprof"
    pp_cc omp-stream omp.c -O2 -fopenmp -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build omp.c in stream mode"
    OMP_NUM_THREADS=3 pp_run omp.pp ./omp
    OMP_NUM_THREADS=3 pp_run omp-stream.pp ./omp-stream
    f=$(pp_fn_flags omp.pp main._omp_fn.0)
    ok "-fopenmp: the outlined loop's counters are atomic (flags: $f)" atomic "$f"
    is "$(cat omp.pp.stdout)" "$(OMP_NUM_THREADS=3 ./omp-native)" "-fopenmp: the program computes what it computes"
    is "$(cat omp.pp.stderr)" "" "-fopenmp: no warning"
    is "$(pp_path_counts omp.pp)" "$(pp_path_counts omp-stream.pp)" \
        "-fopenmp, 3 threads: counting mode == stream mode, path for path"
fi
done_testing
