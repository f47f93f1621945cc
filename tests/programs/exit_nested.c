/* exit() called two frames down: main -> level2 -> die_if -> exit(3) at
 * i = 7.  die_if's path ends at the exit call (counted): DIE 1, LIVE 7.
 * level2 is called 8 times, 7 return; the 8th is abandoned in the block
 * of L2CALL.  main's path of iteration i = 7 is abandoned at MAINCALL. */
#include <stdio.h>
#include <stdlib.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE void die_if(int i)
{
    if (i == 7) {
        sink += 1;           /*@DIE*/
        fflush(stdout);
        exit(3);
    }
    sink += 2;               /*@LIVE*/
}

NOINLINE void level2(int i)
{
    sink += 3;               /*@L2*/
    die_if(i);               /*@L2CALL*/
    sink += 4;               /*@L2AFTER*/
}

int main(void)
{
    int i = 0;
    while (i < 10) {
        printf("%d\n", i);
        level2(i);           /*@MAINCALL*/
        i++;
    }
    return 0;
}
//! status 3
//! expect die_if paths(DIE |) = 1
//! expect die_if paths(LIVE $) = 7
//! expect level2 paths(L2 L2AFTER $) = 7
//! expect level2 total = 7
//! expect main paths(MAINCALL) = 7
//! expect main paths(^ MAINCALL >) = 1
//! expect main paths($) = 0
//! abandoned level2 1 L2CALL
//! abandoned main 1 MAINCALL
//! gcov-extra L2 1
//! gcov-extra L2CALL 1
//! gcov-extra MAINCALL 1
