/* mt-logstat.c - the multithreaded program of perfctl/micro/stream.sh: a pthread
 * worker pool that parses a generated web-server log and aggregates it.
 *
 * The main thread generates N log lines deterministically (xorshift), cuts
 * them into jobs of JOB lines and puts them, PASSES times over, on a queue
 * (a mutex-protected index); W workers take jobs, parse each line (IP, method, path,
 * status, bytes, latency, user agent), hash the path and the client with
 * FNV-1a into their own open-addressing tables, keep per-status and
 * per-method counters and a latency histogram, and the main thread merges
 * the workers' tables at the end and prints a summary that does not depend
 * on how jobs were scheduled.
 *
 *   mt-logstat [LINES [PASSES [WORKERS [JOB]]]]   defaults 200000 10 4 2000 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *methods[] = {"GET", "GET", "GET", "GET", "POST", "PUT", "DELETE", "HEAD"};
static const char *dirs[] = {"api", "static", "img", "user", "search", "cart", "blog", "admin"};
static const char *agents[] = {"Mozilla/5.0 (X11; Linux x86_64)", "curl/7.88.1",
                               "Mozilla/5.0 (Windows NT 10.0; Win64; x64)", "Googlebot/2.1",
                               "python-requests/2.28"};
static const int statuses[] = {200, 200, 200, 200, 200, 200, 304, 301, 404, 500, 403, 201};

/* Zipf-like: small numbers much more often. */
static unsigned skewed(unsigned n)
{
    unsigned r = (unsigned)(next() % n);
    return (unsigned)((uint64_t)r * r / n);
}

static char *generate(long lines, size_t *len)
{
    size_t cap = (size_t)lines * 160 + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) { perror("malloc"); exit(1); }
    for (long i = 0; i < lines; i++) {
        unsigned a = skewed(4000);
        n += (size_t)snprintf(buf + n, cap - n,
                              "10.%u.%u.%u - - [%02ld:%02ld:%02ld] \"%s /%s/%u/item%u.html HTTP/1.1\" %d %u %u.%03u \"%s\"\n",
                              a >> 8, a & 255, (unsigned)(next() % 4), i / 3600 % 24, i / 60 % 60, i % 60,
                              methods[next() % 8], dirs[skewed(8)], skewed(200), skewed(1000),
                              statuses[next() % 12], (unsigned)(next() % 100000),
                              (unsigned)(next() % 3), (unsigned)(next() % 1000), agents[skewed(5)]);
    }
    *len = n;
    return buf;
}

struct entry { uint64_t hash; uint32_t count; uint32_t len; uint64_t bytes; char key[72]; };
struct table { struct entry *e; size_t cap, used; };

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void table_add(struct table *t, const char *key, size_t len, uint64_t h, uint32_t count, uint64_t bytes);

static void grow(struct table *t)
{
    struct table n = {calloc(t->cap * 2, sizeof *n.e), t->cap * 2, 0};
    if (!n.e) { perror("calloc"); exit(1); }
    for (size_t i = 0; i < t->cap; i++)
        if (t->e[i].count)
            table_add(&n, t->e[i].key, t->e[i].len, t->e[i].hash, t->e[i].count, t->e[i].bytes);
    free(t->e);
    *t = n;
}

static void table_add(struct table *t, const char *key, size_t len, uint64_t h, uint32_t count, uint64_t bytes)
{
    if (len > sizeof t->e[0].key) len = sizeof t->e[0].key;
    if (2 * (t->used + 1) > t->cap) grow(t);
    for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        struct entry *e = &t->e[i];
        if (!e->count) {
            e->hash = h; e->len = (uint32_t)len; memcpy(e->key, key, len);
            e->count = count; e->bytes = bytes; t->used++;
            return;
        }
        if (e->hash == h && e->len == len && !memcmp(e->key, key, len)) {
            e->count += count; e->bytes += bytes;
            return;
        }
    }
}

struct stats {
    struct table paths, clients;
    uint64_t status[600], method[8], latency_hist[32], bytes, lines, bad;
};

static void stats_init(struct stats *s)
{
    memset(s, 0, sizeof *s);
    s->paths = (struct table){calloc(1024, sizeof(struct entry)), 1024, 0};
    s->clients = (struct table){calloc(1024, sizeof(struct entry)), 1024, 0};
}

static const char *field(const char *p, const char *end, char c)
{
    while (p < end && *p != c) p++;
    return p;
}

static unsigned long number(const char **pp, const char *end)
{
    const char *p = *pp;
    unsigned long v = 0;
    while (p < end && *p >= '0' && *p <= '9') v = v * 10 + (unsigned long)(*p++ - '0');
    *pp = p;
    return v;
}

static void parse_line(struct stats *s, const char *p, const char *end)
{
    const char *ip = p, *ipend = field(p, end, ' ');
    p = field(ipend, end, '"');
    if (p >= end) { s->bad++; return; }
    const char *m = ++p, *mend = field(p, end, ' ');
    int mi = 0;
    for (int i = 0; i < 8; i++)
        if ((size_t)(mend - m) == strlen(methods[i]) && !memcmp(m, methods[i], (size_t)(mend - m))) { mi = i; break; }
    const char *path = mend + 1, *pathend = field(path, end, ' ');
    p = field(pathend, end, '"') + 2;
    unsigned long status = number(&p, end);
    p++;
    unsigned long bytes = number(&p, end);
    p++;
    unsigned long sec = number(&p, end);
    p++;
    unsigned long ms = number(&p, end) + sec * 1000;
    int bucket = 0;
    while ((1ul << bucket) < ms + 1 && bucket < 31) bucket++;
    const char *ua = field(p, end, '"') + 1, *uaend = field(ua, end, '"');
    s->status[status < 600 ? status : 0]++;
    s->method[mi]++;
    s->latency_hist[bucket]++;
    s->bytes += bytes;
    s->lines++;
    table_add(&s->paths, path, (size_t)(pathend - path), fnv(path, (size_t)(pathend - path)), 1, bytes);
    char client[96];
    size_t n = (size_t)(ipend - ip), u = (size_t)(uaend - ua);
    if (n > 40) n = 40;
    if (u > 40) u = 40;
    memcpy(client, ip, n);
    client[n] = '|';
    memcpy(client + n + 1, ua, u);
    table_add(&s->clients, client, n + 1 + u, fnv(client, n + 1 + u), 1, bytes);
}

struct job { const char *begin, *end; };
static struct job *jobs;
static size_t njobs, taken;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    struct stats *s = arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        size_t j = taken < njobs ? taken++ : njobs;
        pthread_mutex_unlock(&lock);
        if (j == njobs) return NULL;
        for (const char *p = jobs[j].begin; p < jobs[j].end;) {
            const char *eol = field(p, jobs[j].end, '\n');
            parse_line(s, p, eol);
            p = eol + 1;
        }
    }
}

static int by_count(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return memcmp(x->key, y->key, x->len);
}

static void top(const char *what, struct table *t, int n)
{
    size_t k = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->e[i].count) t->e[k++] = t->e[i];
    qsort(t->e, k, sizeof *t->e, by_count);
    printf("%s: %zu distinct\n", what, k);
    for (int i = 0; i < n && (size_t)i < k; i++)
        printf("  %8u %12llu %.*s\n", t->e[i].count, (unsigned long long)t->e[i].bytes, (int)t->e[i].len, t->e[i].key);
}

int main(int argc, char **argv)
{
    long lines = argc > 1 ? atol(argv[1]) : 200000;
    long passes = argc > 2 ? atol(argv[2]) : 10;
    int nw = argc > 3 ? atoi(argv[3]) : 4;
    long per = argc > 4 ? atol(argv[4]) : 2000;
    if (lines < 1 || passes < 1 || nw < 1 || nw > 256 || per < 1) {
        fprintf(stderr, "usage: mt-logstat [LINES [PASSES [WORKERS [JOB]]]]\n");
        return 2;
    }
    size_t len;
    char *log = generate(lines, &len);
    jobs = malloc(((size_t)lines / (size_t)per + 2) * (size_t)passes * sizeof *jobs);
    for (long pass = 0; pass < passes; pass++)
        for (const char *p = log, *end = log + len; p < end;) {
            const char *q = p;
            for (long i = 0; i < per && q < end; i++) q = field(q, end, '\n') + 1;
            jobs[njobs++] = (struct job){p, q};
            p = q;
        }
    struct stats *st = malloc((size_t)nw * sizeof *st);
    pthread_t *tid = malloc((size_t)nw * sizeof *tid);
    for (int i = 0; i < nw; i++) {
        stats_init(&st[i]);
        if (pthread_create(&tid[i], NULL, worker, &st[i])) { perror("pthread_create"); return 1; }
    }
    struct stats all;
    stats_init(&all);
    for (int i = 0; i < nw; i++) {
        pthread_join(tid[i], NULL);
        for (int j = 0; j < 600; j++) all.status[j] += st[i].status[j];
        for (int j = 0; j < 8; j++) all.method[j] += st[i].method[j];
        for (int j = 0; j < 32; j++) all.latency_hist[j] += st[i].latency_hist[j];
        all.bytes += st[i].bytes; all.lines += st[i].lines; all.bad += st[i].bad;
        for (size_t j = 0; j < st[i].paths.cap; j++)
            if (st[i].paths.e[j].count)
                table_add(&all.paths, st[i].paths.e[j].key, st[i].paths.e[j].len, st[i].paths.e[j].hash,
                          st[i].paths.e[j].count, st[i].paths.e[j].bytes);
        for (size_t j = 0; j < st[i].clients.cap; j++)
            if (st[i].clients.e[j].count)
                table_add(&all.clients, st[i].clients.e[j].key, st[i].clients.e[j].len, st[i].clients.e[j].hash,
                          st[i].clients.e[j].count, st[i].clients.e[j].bytes);
    }
    printf("lines %llu bad %llu bytes %llu (%zu jobs, %d workers)\n", (unsigned long long)all.lines,
           (unsigned long long)all.bad, (unsigned long long)all.bytes, njobs, nw);
    for (int j = 0; j < 600; j++)
        if (all.status[j]) printf("status %d: %llu\n", j, (unsigned long long)all.status[j]);
    for (int j = 0; j < 8; j++)
        if (all.method[j]) printf("method %d: %llu\n", j, (unsigned long long)all.method[j]);
    for (int j = 0; j < 32; j++)
        if (all.latency_hist[j]) printf("latency < %lu ms: %llu\n", 1ul << j, (unsigned long long)all.latency_hist[j]);
    top("paths", &all.paths, 10);
    top("clients", &all.clients, 5);
    return 0;
}
