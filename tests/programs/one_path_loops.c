/* Loops whose body is one path, which counting mode counts at their exits
 * (plugin/loop-counts.h), beside loops it must leave alone.
 *
 * fill(v, n): for (i = 0; i < n; i++) v[i] = i.  A path starts at the
 * entry or at the header (after the back edge) and ends at the back edge
 * or the return.  fill(.., 10), fill(.., 1), fill(.., 0): the first
 * iteration's path from the entry twice (n = 10, 1), the later ones from
 * the header 9 times, the return from the header twice and from the
 * entry once (n = 0).
 *
 * find(v, n, x): two exits, at the header's test and at a match in the
 * body.  Found at i = 5: 1 path from the entry to the back edge, 4 from
 * the header, the match from the header; not found in 10: 1 + 9, then
 * the test's exit from the header; found at i = 0: the match from the
 * entry; n = 0: the test's exit from the entry.
 *
 * nested(m, n): the inner loop's body is one path, the outer loop's is
 * not (it holds the inner loop); the inner loop's exit goes on to the
 * outer latch.  nested(3, 4) and nested(2, 0): the inner body runs 12
 * times.
 *
 * with_call(n): the body calls a function that could exit, and
 * volatile_loop(n) reads a volatile: both keep their probe in the loop. */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE void fill(int *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = i;            /*@FILL*/
    sink = 0;                /*@FILLRET*/
}

NOINLINE int find(const int *v, int n, int x)
{
    int i = 0;
    while (i < n) {          /*@TEST*/
        if (v[i] == x) {
            sink = 1;        /*@FOUND*/
            return i;
        }
        i++;                 /*@NEXT*/
    }
    sink = 2;                /*@NOTFOUND*/
    return -1;
}

NOINLINE long nested(int m, int n)
{
    long s = 0;
    for (int j = 0; j < m; j++) {
        for (int i = 0; i < n; i++)
            s += i ^ j;      /*@INNER*/
        s += 7;              /*@OUTER*/
    }
    return s;
}

NOINLINE void touch(int i)
{
    sink += i;
}

NOINLINE void with_call(int n)
{
    for (int i = 0; i < n; i++)
        touch(i);            /*@CALL*/
}

NOINLINE void volatile_loop(int n)
{
    for (int i = 0; i < n; i++)
        sink += i;           /*@VOL*/
}

int main(void)
{
    int v[10];
    fill(v, 10);
    fill(v, 1);
    fill(v, 0);
    fill(v, 10);
    fill(v, 10);
    fill(v, 10);
    printf("%d %d %d %d\n", find(v, 10, 5), find(v, 10, 42), find(v, 10, 0),
           find(v, 0, 1));
    printf("%ld %ld\n", nested(3, 4), nested(2, 0));
    with_call(5);
    volatile_loop(6);
    printf("%d\n", sink);
    return 0;
}
//! expect fill paths(^ FILL >) = 5
//! expect fill paths(!^ FILL >) = 36
//! expect fill paths(FILL) = 41
//! expect fill paths(^ FILLRET $) = 1
//! expect fill paths(!^ FILLRET $) = 5
//! expect find paths(^ NEXT >) = 2
//! expect find paths(!^ NEXT >) = 13
//! expect find paths(!^ FOUND $) = 1
//! expect find paths(^ FOUND $) = 1
//! expect find paths(!^ NOTFOUND $) = 1
//! expect find paths(^ NOTFOUND $) = 1
//! expect nested paths(INNER) = 12
//! expect nested paths(OUTER) = 5
//! expect with_call paths(CALL) = 5
//! expect with_call paths(^ CALL >) = 1
//! expect with_call paths(!^ CALL >) = 4
//! expect volatile_loop paths(VOL) = 6
//! expect volatile_loop paths(!^ VOL >) = 5
