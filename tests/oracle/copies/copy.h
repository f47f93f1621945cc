/* tests/oracle-samepaths.t: a static function compiled into two TUs with
 * different CFGs (K), so a profile holds two copies of h.h's f. */
__attribute__((noinline)) static int f(int x)
{
    int s = 0;
    for (int i = 0; i < x; i++) {
        s += (i & 1) ? i : 1;
#if K == 2
        if (i % 3 == 0)
            s ^= 5;
#endif
    }
    return s;
}
