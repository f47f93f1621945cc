/* A header's static function whose body depends on a macro of the TU
   that includes it: one copy per TU, each with its own control flow
   graph and checksum (tests/ppp-tu-copies.t).  noinline keeps each copy
   a function of its own, as a bigger one would be. */
static __attribute__((noinline)) int shape(int x)
{
    int r = 0;
#ifdef SHAPE_WIDE
    if (x % 3 == 0)
        r += 3;
    else if (x % 3 == 1)
        r += 1;
#endif
    if (x & 1)
        r += x;
    else
        r -= x;
    return r;
}
