#!/usr/bin/env bash
# PATHPROF_KSF_WORKERS: several k-SF workers on one producer stream give
# the same k-IPF as one (docs/kiterations.md).  Real programs (threads,
# recursion + longjmp, C++ exceptions, fork, tests/programs) run with
# PATHPROF_ANALYZER=ksf,trace for k = 1, 2, 3, 4, 8, 16, with 0 workers and
# with 2 (and 3 on 2 analyzer threads) over 16-event chunks, so that
# streams are cut at thousands of places, inside two-word markers too:
# tests/ksf/oracle.pl checks every profile against brute force on its
# trace, and "same" compares the forests of 0 and n workers path by path.
# Also: the variable's bad values, the workers really run (and exist per
# analyzer thread), their pinning along PATHPROF_CPUS, a program whose main
# calls pthread_exit still ends.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
# The harness's own variable would be warned about by every run.
unset PATHPROF_BUILD
ORACLE=$TAP_ROOT/tests/ksf/oracle.pl
STREAM=-fplugin-arg-pathprof-mode=stream
KS="1 2 3 4 8 16"
export PATHPROF_QUIET=1

# run NAME WORKERS K BIN ARGS...: one run; its profile is $T/NAME-wWORKERS-kK.out
run() {
    local name=$1 w=$2 k=$3; shift 3
    local R=$T/$name-w$w-k$k
    PATHPROF_ANALYZER=ksf,trace PATHPROF_K=$k PATHPROF_KSF_WORKERS=$w PATHPROF_OUT=$R.out \
        PATHPROF_TRACE=$R.trace timeout 120 "$@" >"$R.stdout" 2>"$R.stderr"
}

# check NAME WORKERS K: the run's KIPF = brute force on its trace
check() {
    local R=$T/$1-w$2-k$3 out
    if [ ! -s "$R.out" ] || [ ! -s "$R.trace" ]; then
        fail "$1 workers=$2 k=$3: profile and trace written" "$(head -n 5 "$R.stderr")"
        return
    fi
    if out=$(perl "$ORACLE" check "$R.out" "$R.trace" 2>&1); then
        pass "$1 workers=$2 k=$3: KIPF = brute force ($out)"
    else
        fail "$1 workers=$2 k=$3: KIPF = brute force" "$out"
    fi
}

# same NAME W1 W2 K: the two runs' forests are equal
same() {
    local out
    if out=$(perl "$ORACLE" same "$T/$1-w$2-k$4.out" "$T/$1-w$3-k$4.out" 2>&1); then
        pass "$1 k=$4: $2 and $3 workers give the same k-IPF ($out)"
    else
        fail "$1 k=$4: $2 and $3 workers give the same k-IPF" "$out"
    fi
}

# program NAME BIN ARGS...: deterministic programs; 0 vs 2 workers
program() {
    local name=$1 k; shift
    for k in $KS; do
        PATHPROF_CHUNK=16 run "$name" 0 "$k" "$@"
        PATHPROF_CHUNK=16 run "$name" 2 "$k" "$@"
        check "$name" 2 "$k"
        same "$name" 0 2 "$k"
    done
}

P=$TAP_ROOT/tests/trace/programs
if pp_cc "$T/rl" "$P/recurse_longjmp.c" $STREAM -O2; then
    program recurse_longjmp "$T/rl" 60
else
    skip "recurse_longjmp did not build" 12
fi
if command -v g++ >/dev/null && PP_GCC=g++ pp_cc "$T/tr" "$P/throw_recursive.cc" $STREAM -O2; then
    program throw_recursive "$T/tr" 40
else
    skip "throw_recursive did not build (no g++?)" 12
fi
for base in recursion setjmp_longjmp nested_loops; do
    if pp_cc "$T/$base" "$TAP_ROOT/tests/programs/$base.c" $STREAM -O2; then
        program "$base" "$T/$base"
    else
        skip "$base did not build" 12
    fi
done

# Threads: each thread's n-grams are its own, so the forests agree whatever
# the interleaving; 2 analyzer threads with 3 workers each too.
if pp_cc "$T/tl" "$P/threads_loop.c" $STREAM -O2 -pthread; then
    for k in $KS; do
        PATHPROF_CHUNK=16 run threads_loop 0 "$k" "$T/tl" 5
        PATHPROF_CHUNK=16 run threads_loop 2 "$k" "$T/tl" 5
        PATHPROF_CHUNK=16 PATHPROF_ANALYZERS=2 run threads_loop 3 "$k" "$T/tl" 5
        check threads_loop 2 "$k"
        check threads_loop 3 "$k"
        same threads_loop 0 2 "$k"
        same threads_loop 0 3 "$k"
    done
else
    skip "threads_loop did not build" 24
fi

# fork: workers quiesced before, restarted in the child; both profiles
# exact against their own traces.
if [ "${PP_SANITIZE:-}" = thread ]; then
    # TSan cannot start threads in a multithreaded fork's child, which the
    # runtime does (docs/install.md, "Sanitizer suites").
    skip "fork under TSan: no threads in a multithreaded fork's child" 4
elif pp_cc "$T/fk" "$P/fork_child.c" $STREAM -O2; then
    mkdir -p "$T/fork"
    PATHPROF_ANALYZER=ksf,trace PATHPROF_K=4 PATHPROF_KSF_WORKERS=2 PATHPROF_CHUNK=64 \
        PATHPROF_OUT=$T/fork/p.%p.out PATHPROF_TRACE=$T/fork/p.%p.trace \
        timeout 120 "$T/fk" >"$T/fork/stdout" 2>"$T/fork/stderr"
    is "$?" 0 "fork with workers: exit status" || diag "$(head -n 5 "$T/fork/stderr")"
    n=0
    for p in $(awk '{print $3}' "$T/fork/stdout"); do
        n=$((n + 1))
        if out=$(perl "$ORACLE" check "$T/fork/p.$p.out" "$T/fork/p.$p.trace" 2>&1); then
            pass "fork with workers, process $p: KIPF = brute force ($out)"
        else
            fail "fork with workers, process $p: KIPF = brute force" "$out"
        fi
    done
    is "$n" 2 "fork with workers: parent and child reported"
else
    skip "fork_child did not build" 4
fi

# The workers exist: N per analyzer thread, named pathprof-wI.
cat >"$T/count.c" <<'C'
#include <dirent.h>
#include <stdio.h>
#include <string.h>
/* The program's own threads named pathprof-w*, after some path events;
 * with an argument, each one's name and CPUs ("pathprof-w0 1") too. */
int main(int argc, char **argv)
{
    volatile int s = 0;
    for (int i = 0; i < 1000; i++)
        s += i % 3 ? i : -i;
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[300], comm[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f && fgets(comm, sizeof comm, f) && strncmp(comm, "pathprof-w", 10) == 0) {
            n++;
            char line[256];
            FILE *st;
            snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
            comm[strcspn(comm, "\n")] = '\0';
            if (argc > 1 && (st = fopen(path, "r")) != NULL) {
                while (fgets(line, sizeof line, st))
                    if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
                        fprintf(stderr, "%s %s", comm, line + 18 + strspn(line + 18, " \t"));
                fclose(st);
            }
        }
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    printf("%d\n", n);
    return 0;
}
C
if pp_cc "$T/count" "$T/count.c" $STREAM -O2; then
    for c in "0 1" "2 1" "3 2"; do
        set -- $c
        got=$(PATHPROF_ANALYZER=ksf PATHPROF_KSF_WORKERS=$1 PATHPROF_ANALYZERS=$2 \
              PATHPROF_OUT=$T/count.out "$T/count")
        is "$got" $(($1 * $2)) "PATHPROF_KSF_WORKERS=$1 with $2 analyzer threads: $(($1 * $2)) workers"
    done
    got=$(PATHPROF_ANALYZER=blpp PATHPROF_KSF_WORKERS=2 PATHPROF_OUT=$T/count.out "$T/count")
    is "$got" 0 "no ksf analyzer: no workers"
    # Pinning: along PATHPROF_CPUS after the analyzer threads (cyclically).
    mask=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)
    if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null && taskset -c 1 true 2>/dev/null; then
        PATHPROF_ANALYZER=ksf PATHPROF_KSF_WORKERS=2 PATHPROF_CPUS=0,1 PATHPROF_OUT=$T/count.out \
            "$T/count" cpus >/dev/null 2>"$T/cpus.err"
        is "$(sort "$T/cpus.err" | tr '\n' ' ')" "pathprof-w0 1 pathprof-w1 0 " \
            "PATHPROF_CPUS=0,1: analyzer on 0, workers on 1 and 0"
        PATHPROF_ANALYZER=ksf PATHPROF_KSF_WORKERS=2 PATHPROF_CPUS=none PATHPROF_OUT=$T/count.out \
            "$T/count" cpus >/dev/null 2>"$T/cpus.err"
        is "$(sort "$T/cpus.err" | tr '\n' ' ')" "pathprof-w0 $mask pathprof-w1 $mask " \
            "PATHPROF_CPUS=none: workers unpinned"
    else
        skip "pinning: needs CPUs 0 and 1" 2
    fi
    for v in 17 -1 abc ''; do
        got=$(PATHPROF_ANALYZER=ksf PATHPROF_KSF_WORKERS=$v PATHPROF_OUT=$T/count.out \
              "$T/count" 2>"$T/bad.err")
        like "$(cat "$T/bad.err")" "warning: PATHPROF_KSF_WORKERS=$v is not valid .*using the default 0" \
            "PATHPROF_KSF_WORKERS='$v': warning"
        is "$got" 0 "PATHPROF_KSF_WORKERS='$v': no workers"
    done
else
    skip "count.c did not build" 12
fi

# main's pthread_exit: the process ends when the program's last thread
# does, workers or not (they are runtime threads).
cat >"$T/pexit.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static void *work(void *arg)
{
    volatile int s = 0;
    for (int i = 0; i < 100000; i++)
        s += i % 3 ? i : -i;
    (void)arg;
    return NULL;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, work, NULL);
    pthread_detach(t);
    pthread_exit(NULL);
}
C
if [ "${PP_SANITIZE:-}" = thread ]; then
    # TSan's background thread is a pthread that never ends: a TSan program
    # whose main calls pthread_exit never ends either, with or without
    # pathprof (checked uninstrumented; docs/install.md).
    skip "pthread_exit under TSan: TSan's own thread keeps every such process alive" 2
elif pp_cc "$T/pexit" "$T/pexit.c" $STREAM -O2 -pthread; then
    PATHPROF_ANALYZER=ksf,trace PATHPROF_KSF_WORKERS=2 PATHPROF_OUT=$T/pexit.out \
        PATHPROF_TRACE=$T/pexit.trace timeout -k 5 60 "$T/pexit" 2>"$T/pexit.err"
    is "$?" 0 "main calls pthread_exit, 2 workers: the process ends (no timeout)"
    out=$(perl "$ORACLE" check "$T/pexit.out" "$T/pexit.trace" 2>&1)
    is "$?" 0 "pthread_exit with workers: KIPF = brute force ($out)"
else
    skip "pexit.c did not build" 2
fi
done_testing
