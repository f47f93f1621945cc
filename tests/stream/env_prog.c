/* env_prog.c - a small multithreaded stream program for
 * tests/stream-env.t.
 *
 *   env_prog [DIR]
 *
 * Two threads each call work() 30000 times (a branch on i % 3), joined;
 * prints the sums.  With DIR, it then creates DIR/ready and waits until
 * DIR/go exists (so the test can look at the analyzer threads of the
 * running process), the waiting not profiled. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define NOINLINE __attribute__((noinline, noclone))
#define NOPROF __attribute__((no_profile_instrument_function, noinline, noclone))
static volatile long acc[2][2];

NOINLINE void work(long id, long i)
{
    if (i % 3 == 0)
        acc[id][0] += 1; /*@A*/
    else
        acc[id][1] += 1; /*@B*/
}

static void *thread(void *arg)
{
    long id = (long)arg;
    for (long i = 0; i < 30000; i++)
        work(id, i);
    return NULL;
}

NOPROF static int handshake(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/ready", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return 1;
    fclose(f);
    snprintf(path, sizeof path, "%s/go", dir);
    for (int i = 0; i < 30000 && access(path, F_OK) != 0; i++)
        usleep(1000);
    return 0;
}

int main(int argc, char **argv)
{
    pthread_t t[2];
    for (long k = 0; k < 2; k++)
        if (pthread_create(&t[k], NULL, thread, (void *)k) != 0)
            return 1;
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    printf("%ld %ld\n", acc[0][0] + acc[1][0], acc[0][1] + acc[1][1]);
    fflush(stdout);
    if (argc > 1 && handshake(argv[1]) != 0)
        return 1;
    return 0;
}
//! expect work paths(A) = 2 * 10000
//! expect work paths(B) = 2 * 20000
