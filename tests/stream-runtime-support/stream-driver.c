/* stream-driver.c - a program made of one synthetic stream TU, emitting
 * events the way plugin-instrumented code does, in the scenarios the
 * tests/stream-runtime-*.t scripts check.  Every scenario appends what it
 * emitted to the file named by $EXPECT (stream-tu.h, st_expect_write)
 * before the process ends, however it ends.
 *
 *   run T N R        R rounds of T threads created and joined (plus main),
 *                    N events each; T=0: main only
 *   exit-thread N    main emits, a thread emits and calls exit(5) while
 *                    main waits in pthread_join
 *   pthread-exit N   main emits and calls pthread_exit; a thread emits
 *                    later and the process ends with it (status 0)
 *   late N K         a thread emits N, then K more from a destructor of
 *                    its own thread key, after the runtime's: late events
 *   fork N           main and a blocked thread emit, then fork; the child
 *                    emits and exits, the parent emits after waiting
 *   exec N PROG      emits N, then execs PROG (no return on success)
 *   dlopen LIB C N   C cycles: dlopen LIB (a stream TU), emit N events in
 *                    it from main and from a thread that outlives the
 *                    dlclose with those events still buffered, dlclose
 *   refused N        a second TU whose blob lacks the STREAM flag emits N
 *                    events: refused, its events counted unknown
 *   count-exec PROG  a counting-mode TU counts, then execs PROG
 *   huge N           a second TU with a function of 2^40 paths (blpp counts
 *                    it in a hash table): N sparse IDs, 3 times each */
#include "stream-tu.h"
#include "synthetic-tu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t bases[2] = {PATHPROF_STREAM_UNREGISTERED_BASE,
                            PATHPROF_STREAM_UNREGISTERED_BASE};
static struct st_tu tu = {
    .file = "stream-driver.c",
    .nfuncs = 4,
    .name = {"tiny", "small", "medium", "never"},
    .npaths = {3, 100, 5000, 7},
    .bases = bases,
};

/* The expected counts of the whole process, merged under LOCK. */
static struct st_expect total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t n_events;

static void merge(const struct st_expect *e)
{
    pthread_mutex_lock(&lock);
    st_expect_add(&total, e);
    pthread_mutex_unlock(&lock);
}

/* N events from SEED, counted into the process total. */
static void emit_counted(uint64_t seed, uint64_t n)
{
    struct st_expect e;
    st_expect_init(&e, &tu);
    st_emit_paths(&tu, &e, seed, n);
    merge(&e);
    st_expect_free(&e);
}

static void write_expect(void)
{
    const char *path = getenv("EXPECT");
    pthread_mutex_lock(&lock);
    if (path)
        st_expect_write(&total, path);
    pthread_mutex_unlock(&lock);
}

/* What the plugin's TU destructor does. */
__attribute__((destructor)) static void tu_unregister(void)
{
    st_unregister(&tu);
}

static void *worker(void *arg)
{
    emit_counted((uint64_t)(uintptr_t)arg, n_events);
    return NULL;
}

static int run(int argc, char **argv)
{
    int threads = argc > 2 ? atoi(argv[2]) : 0;
    int rounds = argc > 4 ? atoi(argv[4]) : 1;
    emit_counted(1, n_events);
    for (int r = 0; r < rounds; r++) {
        pthread_t t[threads > 0 ? threads : 1];
        for (int i = 0; i < threads; i++)
            if (pthread_create(&t[i], NULL, worker,
                               (void *)(uintptr_t)(1000 * r + i + 2)) != 0)
                return 71;
        for (int i = 0; i < threads; i++)
            pthread_join(t[i], NULL);
    }
    write_expect();
    return 0;
}

static void *exiter(void *arg)
{
    (void)arg;
    emit_counted(7, n_events);
    write_expect();
    exit(5);
}

static int exit_thread(void)
{
    emit_counted(3, n_events);
    pthread_t t;
    pthread_create(&t, NULL, exiter, NULL);
    pthread_join(t, NULL); /* never returns */
    return 0;
}

static void *outliver(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    emit_counted(9, n_events);
    write_expect();
    return NULL;
}

static int pthread_exit_main(void)
{
    emit_counted(4, n_events);
    pthread_t t;
    pthread_create(&t, NULL, outliver, NULL);
    pthread_exit(NULL);
}

static pthread_key_t user_key;
static uint64_t late_k;

static void late_destructor(void *arg)
{
    (void)arg;
    /* Runs after the runtime's destructor (its key is older): these events
     * are late, not counted in the paths. */
    struct st_expect e;
    st_expect_init(&e, &tu);
    st_emit_paths(&tu, &e, 99, late_k);
    st_expect_free(&e);
}

static void *late_worker(void *arg)
{
    (void)arg;
    emit_counted(11, n_events);
    pthread_setspecific(user_key, &user_key);
    return NULL;
}

static int late(int argc, char **argv)
{
    late_k = argc > 3 ? strtoull(argv[3], NULL, 10) : 10;
    emit_counted(5, 1); /* the runtime's key exists before ours */
    pthread_key_create(&user_key, late_destructor);
    pthread_t t;
    pthread_create(&t, NULL, late_worker, NULL);
    pthread_join(t, NULL);
    write_expect();
    return 0;
}

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open, worker_ready;

/* Emits, then waits (alive, its chunk partly filled) until the gate opens. */
static void *blocked_worker(void *arg)
{
    emit_counted((uint64_t)(uintptr_t)arg, n_events);
    pthread_mutex_lock(&gate_lock);
    worker_ready = 1;
    pthread_cond_broadcast(&gate_cond);
    while (!gate_open)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
    emit_counted((uint64_t)(uintptr_t)arg + 1, n_events);
    return NULL;
}

static void start_blocked_worker(pthread_t *t, uint64_t seed)
{
    worker_ready = gate_open = 0;
    pthread_create(t, NULL, blocked_worker, (void *)(uintptr_t)seed);
    pthread_mutex_lock(&gate_lock);
    while (!worker_ready)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
}

static void open_gate(pthread_t t)
{
    pthread_mutex_lock(&gate_lock);
    gate_open = 1;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
    pthread_join(t, NULL);
}

static int fork_scenario(void)
{
    emit_counted(21, n_events);
    pthread_t t;
    start_blocked_worker(&t, 22);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        /* The worker does not exist here; what it emitted before fork is
         * in its chunk, which the child's analyzers take over. */
        emit_counted(24, n_events);
        printf("child %ld\n", (long)getpid());
        write_expect();
        return 0;
    }
    int status;
    waitpid(pid, &status, 0);
    open_gate(t);
    emit_counted(25, n_events);
    printf("parent %ld\n", (long)getpid());
    write_expect();
    return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

static int exec_scenario(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    emit_counted(31, n_events);
    write_expect();
    execl(argv[3], argv[3], (char *)NULL);
    perror(argv[3]);
    emit_counted(32, n_events); /* the exec failed: the run goes on */
    const char *path = getenv("EXPECT");
    if (path)
        unlink(path);
    write_expect();
    return 0;
}

/* dlopen: the library's TU, seen from here as an st_tu the library
 * describes (dso-stream.c). */
typedef struct st_tu *(*dso_tu_fn)(void);
typedef void (*dso_emit_fn)(struct st_expect *e, uint64_t seed, uint64_t n);
static dso_emit_fn dso_emit;
static struct st_expect dso_total, dso_thread_part;

static void *dso_worker(void *arg)
{
    /* Library events first, then wait past the dlclose with them still in
     * this thread's chunk, then this TU's events. */
    dso_emit(&dso_thread_part, (uint64_t)(uintptr_t)arg, n_events);
    pthread_mutex_lock(&gate_lock);
    worker_ready = 1;
    pthread_cond_broadcast(&gate_cond);
    while (!gate_open)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
    emit_counted((uint64_t)(uintptr_t)arg + 1, n_events);
    return NULL;
}

static int dlopen_cycles(int argc, char **argv)
{
    if (argc < 5)
        return 2;
    int cycles = atoi(argv[3]);
    emit_counted(41, n_events);
    for (int c = 0; c < cycles; c++) {
        void *h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (h == NULL) {
            fprintf(stderr, "stream-driver: %s\n", dlerror());
            return 2;
        }
        dso_tu_fn tu_of = (dso_tu_fn)dlsym(h, "dso_tu");
        dso_emit = (dso_emit_fn)dlsym(h, "dso_emit");
        if (tu_of == NULL || dso_emit == NULL)
            return 2;
        if (c == 0) {
            /* The library's st_tu lives in the library: copy its shape. */
            static struct st_tu shape;
            shape = *tu_of();
            /* Its strings go away with it too. */
            shape.file = strdup(shape.file);
            for (uint32_t i = 0; i < shape.nfuncs; i++)
                shape.name[i] = strdup(shape.name[i]);
            st_expect_init(&dso_total, &shape);
            st_expect_init(&dso_thread_part, &shape);
        }
        dso_emit(&dso_total, 500 + (uint64_t)c, n_events);
        worker_ready = gate_open = 0;
        pthread_t t;
        pthread_create(&t, NULL, dso_worker, (void *)(uintptr_t)(600 + c));
        pthread_mutex_lock(&gate_lock);
        while (!worker_ready)
            pthread_cond_wait(&gate_cond, &gate_lock);
        pthread_mutex_unlock(&gate_lock);
        dlclose(h);
        open_gate(t);
    }
    write_expect();
    if (cycles > 0) {
        st_expect_add(&dso_total, &dso_thread_part);
        const char *path = getenv("EXPECT");
        if (path)
            st_expect_write(&dso_total, path);
    }
    return 0;
}

static int refused(void)
{
    static uint64_t bad_bases[2] = {PATHPROF_STREAM_UNREGISTERED_BASE,
                                    PATHPROF_STREAM_UNREGISTERED_BASE};
    static struct st_tu bad = {
        .file = "refused.c", .nfuncs = 1, .name = {"refused"}, .npaths = {10},
        .bases = bad_bases,
    };
    st_register(&bad, PATHPROF_FN_STREAM); /* clears the flag: refused */
    struct st_expect e;
    st_expect_init(&e, &bad);
    st_emit_paths(&bad, &e, 51, n_events);
    st_expect_free(&e);
    emit_counted(52, n_events);
    write_expect();
    return 0;
}

static int huge(void)
{
    static uint64_t hbases[2] = {PATHPROF_STREAM_UNREGISTERED_BASE,
                                 PATHPROF_STREAM_UNREGISTERED_BASE};
    static struct st_tu h = {
        .file = "huge.c", .nfuncs = 2, .name = {"huge", "after"},
        .npaths = {1ull << 40, 5}, .bases = hbases,
    };
    st_register(&h, 0);
    emit_counted(61, n_events); /* the small TU, in between */
    const char *path = getenv("EXPECT");
    FILE *f = path ? fopen(path, "a") : NULL;
    write_expect();
    if (f)
        fprintf(f, "tu huge.c\n");
    for (uint64_t k = 0; k < n_events; k++) {
        uint64_t id = (k * 0x9e3779b97f4a7c15ull) >> 24; /* spread over 2^40 */
        for (int r = 0; r < 3; r++)
            st_emit(hbases[0] + id);
        if (f)
            fprintf(f, "huge %llu 3\n", (unsigned long long)id);
    }
    st_emit(hbases[0] + h.offset[1] + 4);
    st_emit(hbases[0] + h.offset[1] + 4);
    if (f) {
        fprintf(f, "after 4 2\nevents %llu\nwords %llu\n",
                (unsigned long long)(3 * n_events + 2), (unsigned long long)(3 * n_events + 2));
        fclose(f);
    }
    return 0;
}

static int count_exec(int argc, char **argv)
{
    static unsigned char blob[4096];
    static uint64_t counters[SYN_NCOUNTERS];
    size_t len = syn_standard_blob(blob, sizeof blob, "count.c");
    __pathprof_register_tu(PATHPROF_ABI_VERSION, blob, len, counters, SYN_NCOUNTERS);
    counters[SYN_ALPHA + 5] += 10;
    if (argc > 2)
        execl(argv[2], argv[2], (char *)NULL);
    return 3;
}

static uint64_t arg_u64(int argc, char **argv, int i, uint64_t dflt)
{
    return i < argc ? strtoull(argv[i], NULL, 10) : dflt;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "";
    if (strcmp(s, "count-exec") == 0)
        return count_exec(argc, argv);
    st_register(&tu, 0);
    st_expect_init(&total, &tu);
    n_events = arg_u64(argc, argv, 2, 1000);
    if (strcmp(s, "run") == 0) {
        n_events = arg_u64(argc, argv, 3, 1000);
        return run(argc, argv);
    }
    if (strcmp(s, "exit-thread") == 0)
        return exit_thread();
    if (strcmp(s, "pthread-exit") == 0)
        return pthread_exit_main();
    if (strcmp(s, "late") == 0)
        return late(argc, argv);
    if (strcmp(s, "fork") == 0)
        return fork_scenario();
    if (strcmp(s, "exec") == 0)
        return exec_scenario(argc, argv);
    if (strcmp(s, "dlopen") == 0) {
        n_events = arg_u64(argc, argv, 4, 1000);
        return dlopen_cycles(argc, argv);
    }
    if (strcmp(s, "refused") == 0)
        return refused();
    if (strcmp(s, "huge") == 0)
        return huge();
    fprintf(stderr, "stream-driver: unknown scenario '%s'\n", s);
    return 2;
}
