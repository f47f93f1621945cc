/* prog.c - the program whose profile tests/writer-faults.t writes into
 * harm's way.  Deterministic (the same paths every run, in counting and
 * stream mode), its stdout is left in stdio's buffer until exit (a signal
 * raised while the profile is written would lose it), and it ends with
 * status 7 (a changed status is seen).  Sixty-four functions make the
 * profile larger than a minimal pipe buffer (4 KiB), so a FIFO reader that
 * stops reading makes the write fail with EPIPE rather than fit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* noinline: GCC's early inliner, run before pathprof's pass, would
 * otherwise decide by a margin of two instructions whether the 64 steps
 * are functions of their own (195,001 paths, a 1.6 MB trace) or part of
 * main (12,001 paths, a trace too small to pass the 1 MiB buffer), and
 * that margin moves with the build (sanitizers, the machine's GCC). */
#define STEP(n)                                                                \
    __attribute__((noinline)) static long step##n(long i)                      \
    {                                                                          \
        if (i % (n + 2) == 0)                                                  \
            return i / 2 + n;                                                  \
        if (i % 3 == 1)                                                        \
            return i * 3 - n;                                                  \
        return i ^ n;                                                          \
    }
#define STEP8(n) STEP(n##0) STEP(n##1) STEP(n##2) STEP(n##3) STEP(n##4) STEP(n##5) STEP(n##6) STEP(n##7)
STEP8(1) STEP8(2) STEP8(3) STEP8(4) STEP8(5) STEP8(6) STEP8(7) STEP8(8)

#define CALL(n) s += step##n(i);
#define CALL8(n) CALL(n##0) CALL(n##1) CALL(n##2) CALL(n##3) CALL(n##4) CALL(n##5) CALL(n##6) CALL(n##7)

/* With a second argument "fork": after the loop, a child is forked that
 * exits at once, and the parent waits for it (a child's trace when the
 * parent's goes through a device or FIFO).  After the loop, so that in
 * stream mode the trace is open: the default 4 chunks per thread keep the
 * loop's ~24 chunks at most 4 ahead of the analyzer. */
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, s = 0;
    for (long i = 0; i < n; i++) {
        CALL8(1) CALL8(2) CALL8(3) CALL8(4) CALL8(5) CALL8(6) CALL8(7) CALL8(8)
    }
    pid_t child = argc > 2 && strcmp(argv[2], "fork") == 0 ? fork() : -1;
    if (child == 0)
        return 0; /* exit, so the child's profile is written */
    if (child > 0)
        waitpid(child, NULL, 0);
    printf("sum %ld\n", s);
    printf("last line, no newline, still buffered at exit");
    return 7;
}
