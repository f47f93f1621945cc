/* driver.c - a program made of one synthetic TU, exercising libpathprof the
 * way plugin-instrumented code does.  argv[1] picks the scenario; the test
 * scripts (tests/runtime-*.t) know what each one must leave in the profile.
 *
 *   basic [K]          counts before and after registration, 4 threads
 *                      hashing K distinct IDs 3 times each; prints one line
 *                      on stdout and returns 3
 *   exit-thread        a second thread calls exit(4) while main waits
 *   pthread-exit       main calls pthread_exit; the last thread ends the process
 *   unregister-first   the TU unregisters before the exit-time write
 *   fork               parent and child both count and exit
 *   twice              the TU registers twice
 *   bad                malformed registrations, then a good one
 *   dlopen LIB N KEEP  N cycles of dlopen/dso_bump/dlclose (KEEP=1: the last
 *                      stays open until exit)
 *
 * With DRIVER_META=FILE set, the blob is also written to FILE for a
 * byte-for-byte comparison with the profile's copy. */
#include "synthetic-tu.h"
#include "pathprof-abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define THREADS 4
#define REPS 3

static unsigned char blob[4096];
static size_t blob_len;
static uint64_t counters[SYN_NCOUNTERS];

static void tu_register(void)
{
    blob_len = syn_standard_blob(blob, sizeof blob, "driver.c");
    const char *dump = getenv("DRIVER_META");
    if (dump) {
        FILE *f = fopen(dump, "wb");
        if (f) {
            fwrite(blob, 1, blob_len, f);
            fclose(f);
        }
    }
    __pathprof_register_tu(PATHPROF_ABI_VERSION, blob, blob_len, counters,
                           SYN_NCOUNTERS);
}

/* What the plugin's TU destructor does. */
__attribute__((destructor)) static void tu_unregister(void)
{
    __pathprof_unregister_tu(counters);
}

static void standard_bumps(void)
{
    counters[SYN_ALPHA + 0] += 1;
    counters[SYN_ALPHA + 5] += 10;
    counters[SYN_GAMMA + 1] += 2;
    counters[SYN_GAMMA_V + 0] += 2;
    counters[SYN_GAMMA_V + 3] += 1;
    for (int i = 0; i < 4; i++)
        __pathprof_hash_count(&counters[SYN_DELTA], 0);
    __pathprof_hash_count(&counters[SYN_DELTA], UINT64_MAX - 1);
    __pathprof_hash_count(&counters[SYN_DELTA], UINT64_MAX - 1);
    __pathprof_hash_count(&counters[SYN_DELTA], 42);
    counters[SYN_DELTA_V + 1] += 7;
}

static uint64_t k_ids = 20000;

static void *hasher(void *arg)
{
    (void)arg;
    for (int r = 0; r < REPS; r++)
        for (uint64_t i = 0; i < k_ids; i++)
            __pathprof_hash_count(&counters[SYN_BETA], i * 0x10001ull);
    /* GAMMA has the ATOMIC flag: the plugin would emit this. */
    for (uint64_t i = 0; i < k_ids; i++)
        __atomic_fetch_add(&counters[SYN_GAMMA + 0], 1, __ATOMIC_RELAXED);
    return NULL;
}

static int basic(int argc, char **argv)
{
    if (argc > 2)
        k_ids = strtoull(argv[2], NULL, 10);
    /* Probes that run before the TU's constructor: must be kept. */
    counters[SYN_ALPHA + 2] += 5;
    for (int i = 0; i < 3; i++)
        __pathprof_hash_count(&counters[SYN_BETA], 7);
    tu_register();
    standard_bumps();
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, hasher, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("driver: hello\n");
    return 3;
}

static void *exiter(void *arg)
{
    (void)arg;
    exit(4);
}

static int exit_thread(void)
{
    tu_register();
    standard_bumps();
    pthread_t t;
    pthread_create(&t, NULL, exiter, NULL);
    pthread_join(t, NULL); /* never returns: exit() ends the process */
    return 0;
}

static void *late_bumper(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    counters[SYN_ALPHA + 4] += 1;
    return NULL;
}

static int pthread_exit_main(void)
{
    tu_register();
    standard_bumps();
    pthread_t t;
    pthread_create(&t, NULL, late_bumper, NULL);
    pthread_exit(NULL);
}

static int unregister_first(void)
{
    tu_register();
    standard_bumps();
    /* A destructor that runs before the exit-time write (dlclose, or a
     * destructor ordered before our atexit handler). */
    __pathprof_unregister_tu(counters);
    return 0;
}

static int fork_scenario(void)
{
    tu_register();
    counters[SYN_ALPHA + 1] += 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        counters[SYN_ALPHA + 2] += 1;
        printf("child %ld\n", (long)getpid());
        return 0;
    }
    int status;
    waitpid(pid, &status, 0);
    counters[SYN_ALPHA + 3] += 1;
    printf("parent %ld\n", (long)getpid());
    return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

static int twice(void)
{
    tu_register();
    tu_register();
    standard_bumps();
    return 0;
}

/* Each malformed TU must be refused with one line, never crash, and leave
 * the good TU registered afterwards intact. */
static int bad(void)
{
    static unsigned char b[4096];
    static uint64_t c[SYN_NCOUNTERS];
    size_t len = syn_standard_blob(b, sizeof b, "bad.c");

    __pathprof_register_tu(99, b, len, c, SYN_NCOUNTERS); /* no such ABI */
    __pathprof_register_tu(PATHPROF_ABI_VERSION, NULL, 0, c, SYN_NCOUNTERS);
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, 20, c, SYN_NCOUNTERS);
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS - 1);

    b[0] = 'X'; /* magic */
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS);
    b[0] = 'P';
    b[4] = 9; /* meta version: none this runtime reads */
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS);
    b[4] = 2; /* syn_build_blob's version */
    b[8] = 200; /* nfuncs: directory past the end */
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS);
    b[8] = 5;

    struct syn_fn over[] = {{"over", "bad.c", 0, 1, 30, 0, 0, 0}};
    len = syn_build_blob(b, sizeof b, over, 1, SYN_NCOUNTERS);
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS);

    struct syn_fn overlap[] = {{"arr", "bad.c", 0, 1, 4, 0, 0, 0},
                               {"hsh", "bad.c", PATHPROF_FN_HASH, 1, 9999, 3, 0, 0}};
    len = syn_build_blob(b, sizeof b, overlap, 2, SYN_NCOUNTERS);
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS);

    /* Overlapping array ranges, the second starting on a whole byte of
     * the claim bitmap (meta.c claims whole bytes in the middle). */
    struct syn_fn arrays[] = {{"arr1", "bad.c", 0, 1, 19, 0, 0, 0},
                              {"arr2", "bad.c", 0, 1, 12, 8, 0, 0}};
    len = syn_build_blob(b, sizeof b, arrays, 2, SYN_NCOUNTERS);
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS);

    struct syn_fn verify[] = {{"ver", "bad.c", PATHPROF_FN_VERIFY, 1, 4, 0, 19, 5}};
    len = syn_build_blob(b, sizeof b, verify, 1, SYN_NCOUNTERS);
    __pathprof_register_tu(PATHPROF_ABI_VERSION, b, len, c, SYN_NCOUNTERS);

    __pathprof_unregister_tu(c); /* never registered: ignored */
    tu_register();
    standard_bumps();
    return 0;
}

static int dlopen_cycles(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    int n = atoi(argv[3]), keep = atoi(argv[4]);
    tu_register();
    standard_bumps();
    for (int c = 0; c < n; c++) {
        void *h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            fprintf(stderr, "driver: %s\n", dlerror());
            return 2;
        }
        void (*bump)(int) = (void (*)(int))dlsym(h, "dso_bump");
        if (bump == NULL)
            return 2;
        bump(c);
        if (!(keep && c == n - 1))
            dlclose(h);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "";
    if (strcmp(s, "basic") == 0)
        return basic(argc, argv);
    if (strcmp(s, "exit-thread") == 0)
        return exit_thread();
    if (strcmp(s, "pthread-exit") == 0)
        return pthread_exit_main();
    if (strcmp(s, "unregister-first") == 0)
        return unregister_first();
    if (strcmp(s, "fork") == 0)
        return fork_scenario();
    if (strcmp(s, "twice") == 0)
        return twice();
    if (strcmp(s, "bad") == 0)
        return bad();
    if (strcmp(s, "dlopen") == 0)
        return dlopen_cycles(argc, argv);
    fprintf(stderr, "driver: unknown scenario '%s'\n", s);
    return 2;
}
