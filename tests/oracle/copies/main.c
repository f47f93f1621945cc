/* tests/oracle-samepaths.t: calls both TUs' copies of copy.h's f. */
#include <stdio.h>
int fa(int), fb(int);
int main(void)
{
    int r = fb(7);
    r += fa(100);
    printf("%d\n", r);
    return 0;
}
