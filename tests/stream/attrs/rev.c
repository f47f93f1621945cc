/* rev.c - a const bit reversal, as a compressor's helper is declared. */
#include "attrs.h"

unsigned
rev (unsigned x, int n)
{
  unsigned r = 0;
  for (int i = 0; i < n; i++)
    {
      r = (r << 1) | (x & 1);
      x >>= 1;
    }
  return r;
}

int
parity (unsigned x)
{
  int p = 0;
  while (x)
    {
      p ^= 1;
      x &= x - 1;
    }
  return p;
}
