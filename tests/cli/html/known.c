/* known.c - a program whose path counts are known by construction, for
 * tests/html-chromium.t: hot runs 1000 times, 250 times through QUARTER
 * and 750 through REST; its RARE branch is never taken (a partial line);
 * cold never runs (its lines never ran).
 * A comment the page must show as text, not markup:
 * </script><script>document.title='pwned'</script> <b>bold</b> & &amp;
 */
#include <stdio.h>
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) static void rare(long i)
{
    sink += i * 7;          /* RARE_BODY */
}

__attribute__((noinline)) static long hot(long i)
{
    if (i > 1000000)        /* RARE_TEST */
        rare(i);
    if (i % 4 == 0) {
        sink += 1;          /* QUARTER */
        return i / 4;
    }
    sink += 2;              /* REST */
    return i * 3;
}

__attribute__((noinline)) static long cold(long i)
{
    sink -= i;              /* COLD */
    return sink;
}

int main(int argc, char **argv)
{
    long s = 0;
    for (long i = 0; i < 1000; i++)
        s += hot(i);
    if (argc > 5)
        s += cold(argc);
    printf("%ld\n", s);
    return 0;
}
