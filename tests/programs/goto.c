/* goto: a loop made of gotos, and the cleanup-chain idiom.
 * gsum(9): i = 0..8 (EVENI 5, ODDI 4, NEXTI 9), OUT once.  The back edge
 * is `goto again`; i = 0 runs EVENI on the path from the entry.
 * setup(k) is called k + 1 times for k = 0..3:
 *   k=0: STEP1 STEP2 STEP3 (1)   k=1: UNDO1 (2)
 *   k=2: STEP1 UNDO2 UNDO1 (3)   k=3: STEP1 STEP2 UNDO3 UNDO2 UNDO1 (4) */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE int gsum(int n)
{
    int i = 0, s = 0;
again:
    if (i >= n)
        goto out;
    if (i & 1)
        goto odd;
    s += i;
    sink += 1;               /*@EVENI*/
    goto next;
odd:
    s -= i;
    sink += 2;               /*@ODDI*/
next:
    i++;                     /*@NEXTI*/
    goto again;
out:
    sink += 3;               /*@OUT*/
    return s;
}

NOINLINE int setup(int fail_at)
{
    if (fail_at == 1)
        goto fail1;
    sink += 1;               /*@STEP1*/
    if (fail_at == 2)
        goto fail2;
    sink += 2;               /*@STEP2*/
    if (fail_at == 3)
        goto fail3;
    sink += 3;               /*@STEP3*/
    return 0;
fail3:
    sink += 30;              /*@UNDO3*/
fail2:
    sink += 20;              /*@UNDO2*/
fail1:
    sink += 10;              /*@UNDO1*/
    return -fail_at;
}

int main(void)
{
    int k, m, s = 0;
    printf("gsum %d\n", gsum(9));
    for (k = 0; k < 4; k++)
        for (m = 0; m <= k; m++)
            s += setup(k);
    printf("setup %d\n", s);
    return 0;
}
//! expect gsum paths(EVENI) = 5
//! expect gsum paths(ODDI) = 4
//! expect gsum paths(NEXTI) = 9
//! expect gsum paths(OUT) = 1
//! expect gsum paths(^ EVENI >) = 1
//! expect gsum paths(!^ EVENI >) = 4
//! expect gsum paths(!^ ODDI >) = 4
//! expect gsum paths(!^ OUT $) = 1
//! expect gsum counts() = 1 4 4 1
//! expect setup paths(STEP1) = 1 + 3 + 4
//! expect setup paths(STEP2) = 1 + 4
//! expect setup paths(STEP3) = 1
//! expect setup paths(UNDO3) = 4
//! expect setup paths(UNDO2) = 3 + 4
//! expect setup paths(UNDO1) = 2 + 3 + 4
//! expect setup paths(STEP1 !STEP2 UNDO2 UNDO1) = 3
//! expect setup paths(!STEP1 UNDO1) = 2
//! expect setup counts() = 1 2 3 4
//! expect setup paths(^ $) = 10
