/* Included by a.c and b.c: each TU instruments its own copy of shared(),
 * and pathprof report shows them as one function (copies 2). */
static __attribute__((noinline, unused)) int shared(int x)
{
    if (x & 1)
        return x * 3;
    return x / 2;
}
int b_entry(int n);
