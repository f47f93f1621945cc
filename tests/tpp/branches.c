/* tests/tpp.t: a program whose branch biases depend on its input.
 *
 * "train" (the -fprofile-generate run) makes some edges rare: below 5% of
 * their block's flow, so TPP(5, 0) drops them; "other" takes them often,
 * so its paths through them land in the cold counters.  Shapes covered:
 * if-chains, a switch, an early return, a loop that usually runs once
 * (its back edge cold), a loop whose exit is rare, a function never called
 * in training (no flow at all: nothing cold in it by itself), recursion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;

static int classify(int x, int rare)
{
    int r = 0;
    if (x % rare == 0)
        r += 3;
    else
        r += 1;
    if (x & 1)
        r *= 2;
    else
        r -= 1;
    if (x % 1000 == 999)
        r += 100;
    return r;
}

static int pick(int x, int other)
{
    switch (other ? x % 5 : (x % 97 == 0 ? 4 : x % 3)) {
    case 0: return 1;
    case 1: sink++; return 2;
    case 2: return 3;
    case 3: sink += 2; return 7;
    default: return 11;
    }
}

static int early(int x, int other)
{
    if (x < 0)
        return -1;
    if (!other && x % 50 != 0)
        return 0;
    for (int i = 0; i < 3; i++)
        if (x % (i + 2) == 0)
            return i;
    return 5;
}

/* Usually one iteration in training: the back edge is cold. */
static long once(int x, int other)
{
    long s = 0;
    int n = other ? 1 + x % 4 : (x % 200 == 0 ? 2 : 1);
    for (int i = 0; i < n; i++)
        s += i * x;
    return s;
}

/* Called only by "other". */
static int never_in_training(int x)
{
    if (x & 2)
        return x / 3;
    return x * 3;
}

static long rec(int d, int other)
{
    if (d == 0)
        return 1;
    if (other && d % 3 == 0)
        return 2 * rec(d - 1, other);
    return rec(d - 1, other) + d;
}

int main(int argc, char **argv)
{
    int other = argc > 1 && strcmp(argv[1], "other") == 0;
    int rare = other ? 3 : 500;
    long s = 0;
    for (int i = 0; i < 20000; i++) {
        s += classify(i, rare);
        s += pick(i, other);
        s += early(i, other);
        s += once(i, other);
        if (other && i % 10 == 0)
            s += never_in_training(i);
        if (i % 7 == 0)
            s ^= i;
    }
    s += rec(30, other);
    printf("%ld %ld\n", s, (long)sink);
    return 0;
}
