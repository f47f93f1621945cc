/* VLAs: a variable-length array per loop iteration (stack save/restore
 * on every iteration), a second one in a nested block, and an early
 * `break` out of a VLA's scope.
 * vsum(8): k = 1..8; FILL runs 1+2+...+8 = 36 times; ODDK 4, EVENK 4;
 * TWO (the 2-D VLA, k % 3 == 0: k = 3, 6) 2 times; k = 8 breaks out
 * before the end of its iteration (BRK once), so TAIL runs 7 times. */
#include <stdio.h>
#define NOINLINE __attribute__((noinline, noclone))
volatile int sink;

NOINLINE long vsum(int n)
{
    long s = 0;
    int k = 1;
    while (k <= n) {
        int a[k];
        int j = 0;
        while (j < k) {
            a[j] = j * k;
            sink += 1;       /*@FILL*/
            j++;
        }
        if (k % 2) {
            sink += 2;       /*@ODDK*/
            s += a[0];
        } else {
            sink += 3;       /*@EVENK*/
            s += a[k - 1];
        }
        if (k % 3 == 0) {
            int b[k][2];
            b[k - 1][1] = k;
            sink += 4;       /*@TWO*/
            s += b[k - 1][1];
        }
        if (k == n) {
            sink += 5;       /*@BRK*/
            break;
        }
        sink += 6;           /*@TAIL*/
        k++;
    }
    return s;
}

int main(void)
{
    printf("%ld\n", vsum(8));
    return 0;
}
//! expect vsum paths(FILL) = 36
//! expect vsum paths(ODDK) = 4
//! expect vsum paths(EVENK) = 4
//! expect vsum paths(TWO) = 2
//! expect vsum paths(BRK) = 1
//! expect vsum paths(TAIL) = 7
//! expect vsum paths(^) = 1
//! expect vsum paths($) = 1
