/* tests/sampling-kpaths-exact-fn.t: a function with no checking copy
 * (computed gotos: sampling=yes leaves it exact, docs/sampling.md) beside
 * a sampled one, both looping.  interp() runs a byte program with a
 * dispatch table of labels, as an interpreter's loop does; step() is an
 * ordinary function with a loop. */
#include <stdio.h>
#include <stdlib.h>

static const unsigned char prog[] = {0, 1, 2, 1, 0, 2, 2, 1, 3};

__attribute__((noinline)) static long interp(long x)
{
    static void *const ops[] = {&&add, &&mul, &&sub, &&done};
    const unsigned char *pc = prog;
    goto *ops[*pc++];
add:
    x += 3;
    goto *ops[*pc++];
mul:
    x *= 5;
    goto *ops[*pc++];
sub:
    x -= 7;
    goto *ops[*pc++];
done:
    return x;
}

__attribute__((noinline)) static long step(long x)
{
    long s = 0;
    for (int i = 0; i < 8; i++)
        s += (x >> i) & 1 ? x : -i;
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000, s = 0;
    for (long i = 0; i < n; i++)
        s += interp(i) + step(i);
    printf("%ld\n", s);
    return 0;
}
