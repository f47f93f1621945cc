/* stream-throughput.c - how fast events go through stream mode: producer
 * threads emitting with the probe's exact fast path (docs/streaming.md,
 * section 3) into one synthetic stream TU, analyzer threads counting them
 * with blpp.  Prints the producer's events per second per thread, the time
 * it spent blocked (PATHPROF_POLICY=block), and the analyzers' events per
 * second per busy core (from the profile's STREAM section).
 *
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -pthread -Iruntime perfctl/micro/stream-throughput.c \
 *       -Lbuild/lib -Wl,-rpath,$PWD/build/lib -lpathprof -o build/bench/stream-throughput
 *   build/bench/stream-throughput [EVENTS_PER_THREAD [THREADS]]
 *
 * The work runs in a child process, so that the parent can read the
 * profile the child writes at exit; PATHPROF_* variables (PATHPROF_CHUNK,
 * PATHPROF_ANALYZERS, PATHPROF_POLICY, ...) apply to it. */
#include "pathprof-abi.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NPATHS 64

static uint64_t bases[2] = {PATHPROF_STREAM_UNREGISTERED_BASE,
                            PATHPROF_STREAM_UNREGISTERED_BASE};
static uint64_t events_per_thread;

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* One function "hot" with NPATHS paths (docs/format.md, section 2): header,
 * one directory entry, two strings, a minimal detail record. */
static size_t build_blob(unsigned char *b)
{
    memset(b, 0, 256);
    memcpy(b, PATHPROF_META_MAGIC, 4);
    put32(b + 4, PATHPROF_META_VERSION_OLDEST); /* the 32-byte header below */
    put32(b + 8, 1);      /* nfuncs */
    put32(b + 12, 2);     /* nstrings */
    put64(b + 16, 96);    /* strtab_offset */
    put64(b + 24, NPATHS); /* path indices of the TU */
    unsigned char *d = b + 32;
    put32(d + 0, 0);
    put32(d + 4, 1);
    put64(d + 8, 0x5eed);
    put32(d + 16, PATHPROF_FN_STREAM);
    put32(d + 20, 1);
    put64(d + 24, NPATHS);
    put64(d + 32, 0);
    put64(d + 56, 120);   /* detail_offset */
    put32(b + 96, 3);
    memcpy(b + 100, "hot", 3);
    put32(b + 103, 8);
    memcpy(b + 107, "bench.c", 7);
    unsigned char *r = b + 120; /* nnodes 0, nedges 0, nverify 0 */
    put32(r, 0);
    put32(r + 4, 0);
    put32(r + 8, 0);
    return 132;
}

static inline void emit(uint64_t ev)
{
    uint64_t *p = __pathprof_cur;
    if (__builtin_expect(((uintptr_t)p & __pathprof_mask) == 0, 0)) {
        __pathprof_emit_slow(ev);
    } else {
        *p = ev;
        __pathprof_cur = p + 1;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *producer(void *arg)
{
    double *wall = arg;
    uint64_t base = bases[0];
    double t0 = now();
    for (uint64_t i = 0; i < events_per_thread; i++)
        emit(base + (i & (NPATHS - 1)));
    *wall = now() - t0;
    return NULL;
}

/* The child: register, produce, report the producers' wall times on FD,
 * exit (the runtime drains and writes the profile). */
static void child(int fd, int threads)
{
    static unsigned char blob[256];
    size_t len = build_blob(blob);
    __pathprof_register_stream_tu(PATHPROF_ABI_VERSION, blob, len, bases);
    emit(bases[0]); /* starts the analyzers before the clock does */
    pthread_t t[threads];
    double wall[threads];
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, producer, &wall[i]);
    double worst = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        if (wall[i] > worst)
            worst = wall[i];
    }
    if (write(fd, &worst, sizeof worst) != sizeof worst)
        _exit(1);
    exit(0);
}

/* The STREAM section of PATH (docs/format.md, section 3). */
static int read_stream(const char *path, uint64_t c[7], uint32_t head[4],
                       double *busy_s)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (size_t p = 64; p + 16 <= n;) {
        uint32_t tag = buf[p] | buf[p + 1] << 8;
        uint64_t slen = get64(buf + p + 8);
        const unsigned char *s = buf + p + 16;
        if (tag == PATHPROF_SECTION_STREAM) {
            for (int i = 0; i < 4; i++)
                head[i] = (uint32_t)(s[4 * i] | s[4 * i + 1] << 8 | s[4 * i + 2] << 16);
            for (int i = 0; i < 7; i++)
                c[i] = get64(s + 16 + 8 * i);
            const unsigned char *q = s + 72;
            uint32_t nan = q[0] | q[1] << 8;
            q += 4;
            for (uint32_t i = 0; i < nan; i++)
                q += 4 + (q[0] | q[1] << 8);
            *busy_s = 0;
            for (uint32_t i = 0; i < head[3]; i++)
                *busy_s += (double)get64(q + 16 * i + 8) * 1e-9;
            return 0;
        }
        p += 16 + slen;
    }
    return -1;
}

int main(int argc, char **argv)
{
    events_per_thread = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000;
    int threads = argc > 2 ? atoi(argv[2]) : 1;
    if (threads < 1 || events_per_thread == 0) {
        fprintf(stderr, "usage: %s [EVENTS_PER_THREAD [THREADS]]\n", argv[0]);
        return 2;
    }
    char path[] = "/tmp/stream-throughput.XXXXXX";
    int tmp = mkstemp(path);
    if (tmp < 0) {
        perror("mkstemp");
        return 1;
    }
    close(tmp);
    setenv("PATHPROF_OUT", path, 1);
    setenv("PATHPROF_QUIET", "1", 1);
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], threads);
    }
    close(fds[1]);
    double wall = 0;
    if (read(fds[0], &wall, sizeof wall) != sizeof wall)
        wall = 0;
    int status;
    waitpid(pid, &status, 0);
    uint64_t c[7];
    uint32_t head[4];
    double busy;
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && wall > 0 &&
             read_stream(path, c, head, &busy) == 0;
    unlink(path);
    if (!ok) {
        fprintf(stderr, "stream-throughput: the run failed (status %d)\n", status);
        return 1;
    }
    /* c: producers, events, dropped, late, resync, unknown, blocked_ns */
    double total = (double)events_per_thread * threads;
    printf("stream-throughput: %d producer thread(s) x %llu events, chunk %u x %u, "
           "policy %s, %u analyzer thread(s)\n",
           threads, (unsigned long long)events_per_thread, head[1], head[2],
           head[0] == PATHPROF_POLICY_DROP ? "drop" : "block", head[3]);
    printf("producer: %.1f M events/s per thread (%.1f M events/s in all, %.3f s), "
           "blocked %.3f s\n",
           total / threads / wall / 1e6, total / wall / 1e6, wall, (double)c[6] * 1e-9);
    printf("analyzer: %.1f M events/s per busy core (%llu events in %.3f s busy)\n",
           busy > 0 ? (double)c[1] / busy / 1e6 : 0.0, (unsigned long long)c[1], busy);
    printf("lost: dropped %llu, late %llu, unknown %llu\n", (unsigned long long)c[2],
           (unsigned long long)c[3], (unsigned long long)c[5]);
    return 0;
}
