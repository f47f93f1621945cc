/* tests/stream-tls.t: the shared library half of main.c: two paths, taken
 * in turn. */
long lib_mix(long x)
{
    if (x & 1)
        return x ^ 5;
    return x + 7;
}
