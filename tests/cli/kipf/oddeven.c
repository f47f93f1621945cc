/* oddeven.c - the loop of tests/cli-kipf-e2e.t: its iterations take the
 * odd arm (O) or the even arm (E); a call runs entry-O, E, E, O, E, E, exit,
 * so its 4-iteration paths are known: every sequence occurs once per call
 * except E E, twice. loop stays a function of its own: under
 * -fsanitize=address GCC inlines it into main at -O2. */
#include <stdio.h>

__attribute__((noinline)) int loop(const int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] & 1)
            s += a[i];
        else
            s -= a[i];
    }
    return s;
}

int main(void)
{
    static const int a[6] = { 1, 2, 2, 1, 2, 2 };
    int t = 0;
    for (int r = 0; r < 100; r++)
        t += loop(a, 6);
    printf("%d\n", t);
    return 0;
}
