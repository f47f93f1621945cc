/* A training driver that links copies-a.c only (tests/ppp-tu-copies.t):
   its profile has no copy of shape() from copies-b.c at all. */
#include <stdio.h>
int run_a(int n);
int main(void)
{
    printf("%d\n", run_a(1000));
    return 0;
}
