/* main.c - loops whose calls GCC may believe leave memory alone.
 * Usage: attrs N (prints a checksum of the work).  */
#include "attrs.h"

#include <stdio.h>
#include <stdlib.h>

/* A const function pointer: the call's type, not a declaration, says so. */
static unsigned (*const_rev) (unsigned, int) __attribute__ ((const)) = rev;

/* Excluded from instrumentation by the test (exclude=outer): a const
   function that is not instrumented but calls one that is.  */
static __attribute__ ((const, noinline)) unsigned
outer (unsigned x)
{
  return rev (x, 2) + rev (x >> 2, 2);
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 1000;
  static int tab[64];
  unsigned long sum = 0;
  for (unsigned i = 0; i < 64; i++)
    tab[i] = (int) (i * 2654435761u) >> 20;
  for (unsigned i = 0; i < n; i++)
    {
      sum += rev (i, 1 + (int) (i & 7));
      sum += (unsigned long) tab_sum (tab, 1 + (int) (i & 63));
      sum += (unsigned) classify ("a1 ?Z9"[i % 6]);
      sum += (unsigned) parity (i);
      sum += rev_both (i);
      sum += const_rev (i, 6);
      sum += outer (i);
      sum += mix (i, i >> 3);
      char *p = pool_get (1 + (i & 31));
      p[0] = (char) i;
      sum += (unsigned char) p[0];
    }
  printf ("%lu\n", sum);
  return 0;
}
