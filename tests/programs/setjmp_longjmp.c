/* setjmp/longjmp out of two frames.
 * run(20) calls middle(i) -> thrower(i) for i = 0..19; thrower longjmps
 * back to run's setjmp when i % 4 == 3 (i = 3, 7, 11, 15, 19: 5 times).
 *   thrower: THROW path ends at the noreturn longjmp call (counted): 5;
 *            NOTHROW returns: 15.
 *   middle:  20 activations, 15 return; 5 are left by longjmp in the block
 *            of MID_CALL, their partial path is never counted.
 *   run:     its path in progress at CALL is abandoned by each of the 5
 *            longjmps (the path then restarts at the setjmp receiver):
 *            CALL is on 15 completed paths, NORMAL 15, CAUGHT 5. */
#include <setjmp.h>
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;
static jmp_buf jb;

NOINLINE void thrower(int x)
{
    if (x % 4 == 3) {
        sink += 1;                   /*@THROW*/
        longjmp(jb, x);
    }
    sink += 2;                       /*@NOTHROW*/
}

NOINLINE void middle(int x)
{
    sink += 3;                       /*@MID_BEFORE*/
    thrower(x);                      /*@MID_CALL*/
    sink += 4;                       /*@MID_AFTER*/
}

NOINLINE int run(int n)
{
    volatile int caught = 0;
    volatile int i = 0;
    while (i < n) {
        if (setjmp(jb) == 0) {
            middle(i);               /*@CALL*/
            sink += 5;               /*@NORMAL*/
        } else {
            caught = caught + 1;     /*@CAUGHT*/
        }
        i = i + 1;                   /*@NEXT*/
    }
    return caught;
}

int main(void)
{
    printf("caught %d\n", run(20));
    return 0;
}
//! expect thrower paths(THROW) = 5
//! expect thrower paths(THROW |) = 5
//! expect thrower paths(NOTHROW $) = 15
//! expect thrower paths(^) = 20
//! expect middle paths(^ MID_BEFORE MID_AFTER $) = 15
//! expect middle total = 15
//! expect run paths(CALL) = 15
//! expect run paths(NORMAL) = 15
//! expect run paths(CAUGHT) = 5
//! expect run paths(NEXT) = 20
//! expect run paths(^) = 1
//! expect run paths($) = 1
//! abandoned middle 5 MID_CALL
//! abandoned run 5 CALL
//! gcov-extra MID_BEFORE 5
//! gcov-extra MID_CALL 5
//! gcov-extra CALL 5
