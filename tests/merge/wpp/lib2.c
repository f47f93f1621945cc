/* lib2.c - one of the two libraries of tests/merge/wpp/main.c: its loop's
 * paths follow a pseudo-random sequence, so that its whole program path
 * does not compress to a few rules (a long run fills several epochs). */
static __attribute__((noinline)) int pick2(unsigned x) { return x % 4 == 1 ? 7 : (int)(x & 1); }

int work2(int n)
{
    int s = 0;
    unsigned x = 12345u + (unsigned)n;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        s += (x >> 16) % 3 ? pick2(x >> 20) : 1;
    }
    return s;
}
