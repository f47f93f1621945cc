/* Early returns, straight and from inside a loop.
 * classify(x) for x = -20..130: NEG 20, ZERO 1, SMALL 100 (1..100),
 * BIG 30 (101..130); each is its own entry-to-return path.
 * find(a, 10, key) over a[i] = 2i and keys 0..19:
 *   even key k is found at index k/2 after k/2 NEXTs; odd keys are not
 *   found after 10 NEXTs.  NEXT runs 0+1+...+9 + 10*10 = 145 times.
 *   entry -> FOUND (key 0): 1;  entry -> NEXT -> back: 19 (every other key)
 *   header -> FOUND: 9;  header -> NEXT -> back: 145 - 19 = 126
 *   header -> NOTFOUND: 10 */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE int classify(int x)
{
    if (x < 0) {
        sink += 1;           /*@NEG*/
        return -1;
    }
    if (x == 0) {
        sink += 2;           /*@ZERO*/
        return 0;
    }
    if (x > 100) {
        sink += 3;           /*@BIG*/
        return 2;
    }
    sink += 4;               /*@SMALL*/
    return 1;
}

NOINLINE int find(const int *a, int n, int key)
{
    int i = 0;
    while (i < n) {
        if (a[i] == key) {
            sink += 1;       /*@FOUND*/
            return i;
        }
        i++;                 /*@NEXT*/
    }
    sink += 2;               /*@NOTFOUND*/
    return -1;
}

int main(void)
{
    int a[10], i, s = 0;
    for (i = 0; i < 10; i++)
        a[i] = 2 * i;
    for (i = -20; i <= 130; i++)
        s += classify(i);
    printf("classify %d\n", s);
    unsigned h = 0;
    for (i = 0; i < 20; i++)
        h = h * 31u + (unsigned)find(a, 10, i);
    printf("find %u\n", h);
    return 0;
}
//! expect classify paths(NEG) = 20
//! expect classify paths(ZERO) = 1
//! expect classify paths(SMALL) = 100
//! expect classify paths(BIG) = 30
//! expect classify paths(^ $) = 151
//! expect classify counts() = 20 1 100 30
//! expect O0 classify npaths = 4
//! expect find paths(FOUND) = 10
//! expect find paths(NOTFOUND) = 10
//! expect find paths(NEXT) = 145
//! expect find paths(^) = 20
//! expect find paths($) = 20
//! expect find paths(>) = 145
//! expect find paths(^ FOUND $) = 1
//! expect find paths(^ NEXT >) = 19
//! expect find paths(!^ FOUND $) = 9
//! expect find paths(!^ NEXT >) = 126
//! expect find paths(!^ NOTFOUND $) = 10
//! expect find counts() = 1 19 9 126 10
