/* vec.c - loops GCC vectorizes at -O3 natively (tests/stream-loop-runs.t):
 * their stream-mode build must vectorize them too, and profile them as the
 * probes in the loop would.  argv[1]: rounds. */
#include <stdio.h>
#include <stdlib.h>
#define N 4096
float a[N], b[N], c[N];
int ia[N], ib[N];
__attribute__((noinline)) void add(int n) { for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }
__attribute__((noinline)) int dot(int n) { int s = 0; for (int i = 0; i < n; i++) s += ia[i] * ib[i]; return s; }
__attribute__((noinline)) void scale(int n, int k) { for (int i = 0; i < n; i++) ia[i] = ib[i] * k + 3; }
int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 50;
    for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2 * i; ib[i] = i % 17; }
    long t = 0;
    for (int r = 0; r < rounds; r++) {
        add(N - r % 50);
        scale(N - 2 * (r % 50), r);
        t += dot(N - 3 * (r % 50));
    }
    printf("%ld %.1f\n", t, c[7]);
    return 0;
}
