/* coro.c - coroutines on ucontext, for tests/os-hazards.t.
 *
 *   coro N
 *
 * NCO = 3 coroutines, each on its own stack (makecontext), run by a
 * round-robin scheduler (swapcontext).  Coroutine id runs co_body, which
 * calls step N * (id + 1) times; step runs its loop 3 times, calling leaf
 * each time, and yields back to the scheduler in the middle, so every
 * step activation is suspended under the other coroutines' and returns
 * after many switches.  By construction: step runs 6 N times, leaf
 * 18 N times, yield 6 N times; the scheduler switches 12 N + 3 times
 * (each yield and each resume, and the first entry of each coroutine). */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>
#define NOINLINE __attribute__((noinline, noclone))
#define NCO 3
static ucontext_t sched_ctx, co_ctx[NCO];
static int done[NCO];
static volatile long sink;

NOINLINE static void yield(int id) { swapcontext(&co_ctx[id], &sched_ctx); }

NOINLINE static long leaf(long x) { return x & 1 ? x * 3 : x / 2; }

NOINLINE static long step(int id, long i)
{
    long s = 0;
    for (int j = 0; j < 3; j++) {
        s += leaf(i + j);
        if (j == 1)
            yield(id);           /* suspended with step's activation open */
    }
    return s;
}

static void co_body(int id, int n)
{
    for (long i = 0; i < n; i++)
        sink += step(id, i + id);
    done[id] = 1;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    static char stacks[NCO][64 * 1024];
    for (int id = 0; id < NCO; id++) {
        getcontext(&co_ctx[id]);
        co_ctx[id].uc_stack.ss_sp = stacks[id];
        co_ctx[id].uc_stack.ss_size = sizeof stacks[id];
        co_ctx[id].uc_link = &sched_ctx;
        makecontext(&co_ctx[id], (void (*)(void))co_body, 2, id, n * (id + 1));
    }
    int live = NCO;
    while (live) {
        live = 0;
        for (int id = 0; id < NCO; id++)
            if (!done[id]) {
                swapcontext(&sched_ctx, &co_ctx[id]);
                live += !done[id];
            }
    }
    printf("sink %ld\n", sink);
    return 0;
}
