/* tests/tpp-longjmp.t: TPP's derived counts (the obvious paths, counted
 * on their defining edge) when a callee longjmps out after that edge.
 * step has two paths, both obvious; check() longjmps back to main on
 * every 7th call of the "other" input (never on "train"), abandoning
 * step's path in progress: its edge ran, its path never completes. The
 * program counts each branch itself, and how many times it bailed out on
 * each: the oracle the test compares TPP's and BLPP's counts with. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static jmp_buf env;
static int bail_every;
static long then_runs, else_runs, then_bails, else_bails;
static int last_then;

__attribute__((noinline)) static int check(int i)
{
    if (bail_every && i % bail_every == 0) {
        if (last_then)
            then_bails++;
        else
            else_bails++;
        longjmp(env, 1);
    }
    return i & 1;
}

__attribute__((noinline)) static int step(int i)
{
    int r;
    if (i % 3 == 0) {
        r = i * 2;
        then_runs++;
        last_then = 1;
    } else {
        r = i + 1;
        else_runs++;
        last_then = 0;
    }
    /* not a call in tail position: step's path is counted after it */
    r ^= check(i);
    return r * 3;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: longjmp train|other\n");
        return 2;
    }
    bail_every = strcmp(argv[1], "train") == 0 ? 0 : 7;
    long sum = 0;
    for (volatile int i = 1; i <= 3000; i++) {
        if (setjmp(env) == 0)
            sum += step(i);
    }
    printf("sum %ld\nthen %ld %ld\nelse %ld %ld\n", sum, then_runs, then_bails, else_runs, else_bails);
    return 0;
}
