/* Calls to a user noreturn function in the middle of a loop.
 * fatal() is noreturn and longjmps to main.  check(x) for x = 0..24 calls
 * fatal when x % 5 == 0 (5 times): that path ends at the noreturn call and
 * is counted (BAD), so check has no abandoned activation; GOOD 20.
 * main's path in progress at CHECK is abandoned by each of the 5 longjmps. */
#include <setjmp.h>
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;
static jmp_buf env;

__attribute__((noreturn)) NOINLINE void fatal(int code)
{
    sink += 1;               /*@FATAL*/
    longjmp(env, code);
}

NOINLINE int check(int x)
{
    if (x % 5 == 0) {
        sink += 2;           /*@BAD*/
        fatal(x + 1);
    }
    sink += 3;               /*@GOOD*/
    return x * 2;
}

int main(void)
{
    volatile int i = 0, good = 0, bad = 0;
    while (i < 25) {
        if (setjmp(env) == 0) {
            good = good + check(i);  /*@CHECK*/
        } else {
            bad = bad + 1;   /*@CAUGHT*/
        }
        i = i + 1;
    }
    printf("good %d bad %d\n", good, bad);
    return 0;
}
//! expect fatal paths(FATAL |) = 5
//! expect check paths(BAD |) = 5
//! expect check paths(GOOD $) = 20
//! expect check total = 25
//! expect main paths(CAUGHT) = 5
//! expect main paths(CHECK) = 20
//! expect main paths($) = 1
//! abandoned main 5 CHECK
//! gcov-extra CHECK 5
