/* A function whose branches test __builtin_constant_p, the way glibc's
   fwrite_unlocked (bits/stdio.h) does and GNU sed's ck_fwrite inherits:
   at -O3 GCC splits ck_fwrite (fnsplit) and, in a counting build, inlines
   the split part into callers passing a constant size, where the test
   answers 1 (a putc loop), while the sampled build's instrumented copy
   called it out of line, where it answers 0 (the call).
   tests/sampling-constant-p.t; plugin/constant-p.cc.  */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__ ((noinline, cold)) static void
panic (const char *m)
{
  fprintf (stderr, "%s\n", m);
  exit (4);
}

void
ck_fwrite (const void *ptr, size_t size, size_t nmemb, FILE *stream)
{
  clearerr_unlocked (stream);
  if (size && fwrite_unlocked (ptr, size, nmemb, stream) != nmemb)
    panic ("couldn't write");
}

/* The same test written out: a byte loop for a small constant length.  */
static inline size_t
put (char *dst, const char *src, size_t n)
{
  if (__builtin_constant_p (n) && n <= 4)
    for (size_t i = 0; i < n; i++)
      dst[i] = src[i];
  else
    memcpy (dst, src, n);
  return n;
}

__attribute__ ((noinline)) size_t
fill (char *dst, const char *src, size_t n, int twice)
{
  size_t k = put (dst, src, 2);
  if (twice)
    k += put (dst + k, src, n);
  return k;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 1000;
  char *mem = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&mem, &len);
  char buf[64], out[128];
  unsigned long h = 5381, total = 0;
  if (!f)
    return 1;
  for (int i = 0; i < n; i++)
    {
      char c = 'a' + i % 26;
      ck_fwrite (&c, 1, 1, f);
      int l = snprintf (buf, sizeof buf, "%d", i);
      ck_fwrite (buf, 1, l, f);
      total += fill (out, buf, l, i & 1);
    }
  fclose (f);
  for (size_t i = 0; i < len; i++)
    h = h * 33 + (unsigned char) mem[i];
  printf ("%zu %lu %lu\n", len, h, total);
  free (mem);
  return 0;
}
