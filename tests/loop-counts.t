#!/usr/bin/env bash
# Counting mode counts the iterations of a loop whose body is one path at
# the loop's exits (plugin/loop-counts.h, docs/algorithms.md "Loops
# counted at their exits"), so that nothing in the loop touches memory and
# GCC vectorizes it as it does natively.  Checked here:
#   - paths known by construction (tests/programs/one_path_loops.c's
#     `//! expect` lines) and GCC's own line coverage (gcov) as oracles,
#     at -O0 and -O2, and -O3 with expects;
#   - the same profile, path for path, as with the probes in the loop
#     (-fplugin-arg-pathprof-loop-counts=0), on that program and on
#     threaded code (atomic updates), where the counts are exact too;
#   - which loops are rewritten: one-path loops, not those with a call or
#     a volatile access (the plugin's verbose note);
#   - at -O3, as many loops vectorized as natively (none were before).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
SRC=$PP_PROGRAMS/one_path_loops.c

# same_paths A.json B.json: every (function, path ID) count equal
same_paths() { perl "$TAP_ROOT/tests/oracle/samepaths.pl" "$1" "$2"; }

for level in O0 O2 O3; do
    if [ "$level" = O3 ]; then pp_program "$SRC" "$level"; else pp_program "$SRC" "$level" gcov; fi
    with=$PP_LAST_DIR/prof.json
    pp_program "$SRC" "$level" noexpect pp:-fplugin-arg-pathprof-loop-counts=0
    ok "one_path_loops -$level: the same paths and counts as with the probes in the loop" \
        same_paths "$with" "$PP_LAST_DIR/prof.json"
done

# The oracle itself: a profile with other counts is told apart.
ok "samepaths.pl tells profiles with other counts apart" sh -c "! perl '$TAP_ROOT/tests/oracle/samepaths.pl' '$with' '$T/one_path_loops-O0/prof.json' >/dev/null"

# Which loops are counted at their exits.
pp_flags
# shellcheck disable=SC2086
"$PP_GCC" $_pp_cflags -O2 -fplugin-arg-pathprof-verbose=1 -c "$SRC" -o "$T/v.o" 2>"$T/verbose.log"
for fn in fill find nested; do
    ok "-O2: $fn's loop is counted at its exits" grep -q ".$fn.: 1 loops counted at their exits" "$T/verbose.log"
done
for fn in with_call volatile_loop touch main; do
    ok "-O2: $fn has no loop counted at its exits" sh -c "! grep -q '.$fn.: .* loops counted' '$T/verbose.log'"
done
# Stream mode counts them too (a RUN marker at the exit, tests/stream-loop-runs.t);
# not the modes whose probes must stay in the loop.
# shellcheck disable=SC2086
"$PP_GCC" $_pp_cflags -O2 -fplugin-arg-pathprof-verbose=1 -fplugin-arg-pathprof-mode=stream \
    -c "$SRC" -o "$T/m.o" 2>"$T/verbose-stream.log"
ok "-O2 mode=stream: fill's loop is counted at its exits" grep -q ".fill.: 1 loops counted at their exits" "$T/verbose-stream.log"
for arg in verify sampling=yes; do
    # shellcheck disable=SC2086
    "$PP_GCC" $_pp_cflags -O2 -fplugin-arg-pathprof-verbose=1 "-fplugin-arg-pathprof-$arg" \
        -c "$SRC" -o "$T/m.o" 2>"$T/verbose-$arg.log"
    ok "-O2 $arg: no loop counted at its exits" sh -c "! grep -q 'loops counted at their exits' '$T/verbose-$arg.log'"
done

# Vectorization: a loop the vectorizer takes natively stays vectorizable.
cat >"$T/vec.c" <<'C'
#define N 4096
float a[N], b[N], c[N];
int ia[N], ib[N];
__attribute__((noinline)) void add(int n) { for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }
__attribute__((noinline)) int dot(int n) { int s = 0; for (int i = 0; i < n; i++) s += ia[i] * ib[i]; return s; }
__attribute__((noinline)) void scale(int n, int k) { for (int i = 0; i < n; i++) ia[i] = ib[i] * k + 3; }
int main(void)
{
    for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2 * i; ib[i] = i % 17; }
    long t = 0;
    for (int r = 0; r < 50; r++) { add(N - r); scale(N - 2 * r, r); t += dot(N - 3 * r); }
    return (int) (t + (long) c[7]) & 1;
}
C
vec_count() { grep -c "optimized: loop vectorized" "$1" || true; }
# (a sanitizer suite builds both with its flags: its checks may keep loops
# from vectorizing, natively too)
# shellcheck disable=SC2086
"$PP_GCC" $PP_SAN_CFLAGS -O3 -fopt-info-vec-optimized -c "$T/vec.c" -o "$T/vec-native.o" 2>"$T/vec-native.log"
# shellcheck disable=SC2086
"$PP_GCC" $_pp_cflags -O3 -fopt-info-vec-optimized -c "$T/vec.c" -o "$T/vec-pp.o" 2>"$T/vec-pp.log"
native=$(vec_count "$T/vec-native.log") pp=$(vec_count "$T/vec-pp.log")
if [ -z "$PP_SANITIZE" ]; then
    ok "-O3: native vectorizes the three loops of vec.c ($native loops)" test "$native" -ge 3
fi
is "$pp" "$native" "-O3: counting mode vectorizes as many loops as native"
pp_cc "$T/vec" "$T/vec.c" -O3 && pp_cc "$T/vec0" "$T/vec.c" -O3 -fplugin-arg-pathprof-loop-counts=0
(cd "$T" && PATHPROF_OUT=$T/vec.prof PATHPROF_QUIET=1 ./vec; PATHPROF_OUT=$T/vec0.prof PATHPROF_QUIET=1 ./vec0)
pp_json "$T/vec.prof" >"$T/vec.json" && pp_json "$T/vec0.prof" >"$T/vec0.json"
ok "-O3 vectorized: the same paths and counts as with the probes in the loop" same_paths "$T/vec.json" "$T/vec0.json"

# Threads: atomic updates, each thread's loops counted at their exits.
cat >"$T/thr.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static int data[4][1000];
static void *work(void *arg)
{
    int *v = data[(long) arg];
    long s = 0;
    for (int r = 0; r < 2000; r++) {
        for (int i = 0; i < 1000 - r % 7; i++) v[i] = i + r;
        for (int i = 0; i < 1000; i++) s += v[i];
    }
    return (void *) s;
}
int main(void)
{
    pthread_t t[4];
    for (long i = 0; i < 4; i++) pthread_create(&t[i], 0, work, (void *) i);
    long s = 0;
    for (int i = 0; i < 4; i++) { void *r; pthread_join(t[i], &r); s += (long) r; }
    printf("%ld\n", s);
    return 0;
}
C
pp_cc "$T/thr" "$T/thr.c" -O2 -pthread && pp_cc "$T/thr0" "$T/thr.c" -O2 -pthread -fplugin-arg-pathprof-loop-counts=0
(cd "$T" && PATHPROF_OUT=$T/thr.prof PATHPROF_QUIET=1 ./thr >thr.out; PATHPROF_OUT=$T/thr0.prof PATHPROF_QUIET=1 ./thr0 >thr0.out)
ok "threads: the same output" diff "$T/thr.out" "$T/thr0.out"
pp_json "$T/thr.prof" >"$T/thr.json" && pp_json "$T/thr0.prof" >"$T/thr0.json"
ok "threads (atomic): the same paths and counts as with the probes in the loop" same_paths "$T/thr.json" "$T/thr0.json"
# By construction: a path ends at each back edge taken and at the return.
# Per thread, the first loop runs 1000 - r % 7 times in round r (1994005
# in all), the second 1000 times (2000000), the rounds' loop 2000 times:
# 3996006 paths, 15984024 in 4 threads.  The second loop's later
# iterations are one path, 4 x 2000 x 999 = 7992000 times; the first's
# 4 x (1994005 - 2000) = 7968020 times.
ok "threads: work's paths by construction (15984024 in all; 7992000 and 7968020 for the loops' later iterations)" \
    perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my ($n, %c) = (0);
        for my $f (@{$d->{functions}}) { next unless $f->{name} eq "work"; for (@{$f->{paths}}) { $n += $_->{count}; $c{$_->{count}}++ } }
        exit($n == 15984024 && $c{7992000} && $c{7968020} ? 0 : 1)' <"$T/thr.json"
done_testing
