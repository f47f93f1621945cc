/* alloc_main.c - allocates from 4 threads and through stdio, for
 * tests/os-hazards.t (with alloc.c linked in or preloaded).
 *
 *   alloc_main N
 *
 * Thread t (0..3) calls work() N * (t + 1) times; work allocates and
 * frees one block (the pointer escapes, so GCC cannot drop the pair).
 * By construction work runs 10 N times in all, whatever the allocator. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define NOINLINE __attribute__((noinline, noclone))
static void *volatile escape;
static long n;

NOINLINE static long work(long i)
{
    char *p = malloc(32 + (size_t)(i % 64));
    p[0] = (char)i;
    escape = p;
    long r = p[0];
    free(p);
    return r;
}

static void *thread(void *arg)
{
    long t = (long)arg, s = 0;
    for (long i = 0; i < n * (t + 1); i++)
        s += work(i);
    char *b = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&b, &len);
    fprintf(f, "%ld", s);
    fclose(f);
    free(b);
    return (void *)len;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atol(argv[1]) : 1000;
    pthread_t t[4];
    size_t len = 0;
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, thread, (void *)i);
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        len += (size_t)r;
    }
    char *s = strdup("done");
    printf("%s %ld %zu\n", s, n, len);
    free(s);
    return 0;
}
