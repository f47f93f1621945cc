/* fork-loop.c - a loop that forks; each child leaves the loop body by
 * exit() (as dash's evalpipe: forkshell() == 0 -> evaltreenr, never
 * returns). tests/ksf-crossmode.t: with PATHPROF_ACCUMULATE=1 the child's
 * k-IPF starts the loop's sequences at the fork (docs/runtime.md, "fork"),
 * so kipfcmp.pl's level rule needs --max-forked. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

__attribute__((noinline)) void child(int i) { if (i & 1) printf("odd %d\n", i); else printf("even %d\n", i); fflush(stdout); exit(0); }

__attribute__((noinline)) int loop(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (fork() == 0)
            child(i);            /* never returns */
        wait(0);
        s += i;
    }
    return s;
}

int main(void) {
    printf("%d\n", loop(5));
    return 0;
}
