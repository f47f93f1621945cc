/* tests/count-sparse-pages.t: a function of 2^18 paths (2 MiB of array
 * counters, 512 pages) of which a run takes 64, spread over the array, so
 * that most counter pages are never written and the exit's scan skips
 * them (runtime/written-pages.c).  decide() takes 18 independent
 * decisions on the bits of X, so each X runs a path of its own; the K-th
 * X chosen runs K + 1 times, so the 64 counts are 1..64, all different.
 *
 *   sparse_pages         all 64 in this process
 *   sparse_pages fork    the first 32 here, then a child runs the other 32
 *                        and both exit: the child's profile holds all 64
 *                        (its counters are copies of the parent's pages),
 *                        the parent's the first 32 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned a, b;

#define DECIDE(bit) \
    do { \
        if (x & (1u << (bit))) \
            a += (bit) + 1; \
        else \
            b ^= (bit) + 3; \
    } while (0)

__attribute__((noinline)) static void decide(unsigned x)
{
    DECIDE(0); DECIDE(1); DECIDE(2); DECIDE(3); DECIDE(4); DECIDE(5);
    DECIDE(6); DECIDE(7); DECIDE(8); DECIDE(9); DECIDE(10); DECIDE(11);
    DECIDE(12); DECIDE(13); DECIDE(14); DECIDE(15); DECIDE(16); DECIDE(17);
}

static void run(unsigned from, unsigned to)
{
    for (unsigned k = from; k < to; k++) {
        unsigned x = (k * 4099u + 7u) & ((1u << 18) - 1);
        for (unsigned r = 0; r <= k; r++)
            decide(x);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "fork") == 0) {
        run(0, 32);
        pid_t pid = fork();
        if (pid < 0)
            return 2;
        if (pid == 0) {
            run(32, 64);
            return 0;
        }
        int st;
        if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 3;
    } else {
        run(0, 64);
    }
    printf("%u %u\n", a, b);
    return 0;
}
