/* tab.c - a pure reader of memory, a const+leaf classifier, an allocator
 * declared malloc, and a plain function that calls back into rev.c. */
#include "attrs.h"

#include <stdlib.h>

long
tab_sum (const int *t, int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] > 0 ? t[i] : -t[i];
  return s;
}

int
classify (int c)
{
  if (c >= '0' && c <= '9')
    return 1;
  if ((c | 32) >= 'a' && (c | 32) <= 'z')
    return 2;
  return c == ' ' ? 3 : 0;
}

static char pool[1 << 16];
static unsigned pool_used;

void *
pool_get (unsigned n)
{
  if (n > sizeof pool)
    return malloc (n);
  if (pool_used + n > sizeof pool)
    pool_used = 0;
  pool_used += n;
  return pool + pool_used - n;
}

unsigned
mix (unsigned a, unsigned b)
{
  return rev_both (a) * 31u + (b & 7 ? rev (b, 4) : b);
}
