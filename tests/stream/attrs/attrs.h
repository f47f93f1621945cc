/* attrs.h - callees that GCC is told (or finds) leave memory alone, each
 * defined and instrumented in another translation unit than its callers
 * (tests/stream-attrs.t).  In stream mode each of them writes events
 * through the caller's thread-local cursor all the same. */
#ifndef ATTRS_H
#define ATTRS_H

unsigned rev (unsigned x, int n) __attribute__ ((const));
long tab_sum (const int *t, int n) __attribute__ ((pure));
int classify (int c) __attribute__ ((const, leaf, nothrow));
int parity (unsigned x) __attribute__ ((leaf));
void *pool_get (unsigned n) __attribute__ ((malloc));
unsigned mix (unsigned a, unsigned b);

/* Instrumented in every TU that includes it: a const function whose own
   probes write memory, calling a const function of another TU.  */
static inline __attribute__ ((const)) unsigned
rev_both (unsigned x)
{
  return x & 1 ? rev (x, 3) : rev (x, 5) ^ 1u;
}

#endif
