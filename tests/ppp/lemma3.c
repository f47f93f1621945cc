/* lemma3.c - the PPP paper's Lemma 3 graph (Fig. 6) as a program: pick()
 * takes one of three ways (a) then one of three ways (b), nine paths
 * through one join. Run as "train", it takes the six pairs with a != b,
 * each prefix with two suffixes and each suffix with two prefixes: no
 * numbering gives them 0..5 (Lemma 3), so PPP's interval has holes. Run
 * as "all", it takes all nine pairs, each (a, b) 1 + 3a + b times.
 * tests/ppp-e2e.t. */
#include <stdio.h>
#include <string.h>

static volatile int sink; /* volatile stores: no branch becomes a select */

__attribute__((noinline)) static void pick(int a, int b)
{
    if (a == 0)
        sink = 1;
    else if (a == 1)
        sink = 2;
    else
        sink = 3;
    if (b == 0)
        sink = 4;
    else if (b == 1)
        sink = 5;
    else
        sink = 6;
}

int main(int argc, char **argv)
{
    int all = argc > 1 && !strcmp(argv[1], "all"), n = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            if (all || a != b)
                for (int k = 0; k < 1 + 3 * a + b; k++, n++)
                    pick(a, b);
    printf("%d\n", n);
    return 0;
}
