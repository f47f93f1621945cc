/* driver.c - one fuzzer input through every reader of the pathprof CLI.
 *
 * The CLI's own dispatch (cli/main.c, compiled with -Dmain=pathprof_main)
 * runs in this process once per command: report in text and JSON, report
 * --k (KIPF, and KPRUNE with --pruned and --phi), tree, show and dot on the
 * profile's first functions, dump in every form. One input is tried as a
 * profile and as a trace: each reader refuses the other's magic at once.
 *
 * Profiles and traces end with a checksum of every byte before it, so
 * almost every mutation would stop at the checksum and never reach the
 * parsers behind it. The driver therefore re-seals its input first (the
 * checksum test itself is tests/cli-damage.t's job). A crash the fuzzer
 * saves is the unsealed input: `driver --seal IN OUT` writes the file that
 * reproduces it with the plain `pathprof` (fuzz/run.sh does so for every
 * finding).
 *
 * The input also goes through the merge code (runtime/profile-merge*.c,
 * behind `pathprof merge` and PATHPROF_ACCUMULATE) added to itself: it may
 * refuse the input, but a sum it writes must read back.
 *
 * A command may succeed (0), find nothing (1) or refuse the file (2); any
 * other status is a bug and aborts, so the fuzzer records it as a crash. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "base/file_bytes.h"
#include "graph/meta.h"
#include "read/profile.h"
#include "le-bytes.h"
#include "pathprof-abi.h"
#include "profile-checksum.h"
#include "profile-merge.h"

int pathprof_main(int argc, char **argv);

/* Far above any seed; a bigger input only slows the fuzzer down. */
#define MAX_INPUT (4u << 20)
#define MAX_FUNCS 3

/* A profile's or trace's trailer is that of the version its header names
 * (FNV-1a-64 in version 1, pprt_hash64 after: profile-checksum.h). */
static void seal(unsigned char *b, size_t n)
{
    uint64_t h;
    size_t i;

    if (n < 8)
        return;
    if (n >= 20)
        h = pprt_profile_checksum(pprt_get_u32(b + 8), b, n - 8);
    else
        h = pprt_fnv1a64(PPRT_FNV64_BASIS, b, n - 8);
    for (i = 0; i < 8; i++)
        b[n - 8 + i] = (unsigned char)(h >> (8 * i));
}

/* run(ARG, ..., NULL): `pathprof ARG...`; a status outside 0-2 aborts. */
static void run(const char *arg0, ...)
{
    char *argv[16];
    int argc = 0, status;
    va_list ap;
    const char *a;

    argv[argc++] = (char *)"pathprof";
    va_start(ap, arg0);
    for (a = arg0; a && argc < 15; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    status = pathprof_main(argc, argv);
    fflush(stdout);
    if (status < 0 || status > EXIT_TROUBLE) {
        fprintf(stderr, "fuzz driver: `pathprof %s %s` exited %d\n", argv[1], argv[2], status);
        abort();
    }
}

/* show, dot and tree need a function and a path: the profile's own. */
static void run_per_function(const char *path)
{
    struct pp_profile p;
    struct pp_error err;
    char id[24], last[24];
    size_t i;

    memset(&p, 0, sizeof p);
    if (!profile_read(path, &p, &err))
        return;
    for (i = 0; i < p.nfuncs && i < MAX_FUNCS; i++) {
        const struct pp_func *f = &p.funcs[i];
        const char *name = f->meta->name;

        snprintf(id, sizeof id, "%" PRIu64, f->nrecords ? f->records[0].id : 0);
        snprintf(last, sizeof last, "%" PRIu64, f->meta->npaths ? f->meta->npaths - 1 : 0);
        run("show", path, name, id, NULL);
        run("show", path, name, last, NULL);
        run("dot", path, name, NULL);
        run("tree", path, name, id, "--prune", "0", NULL);
    }
    profile_free(&p);
}

static void run_all(const char *path)
{
    run("report", path, NULL);
    run("report", path, "--json", NULL);
    run("report", "--k", path, "--min-length", "1", NULL);
    run("report", "--k", path, "--json", NULL);
    run("report", "--k", path, "--pruned", NULL);
    run("report", "--k", path, "--phi", "0.5", "--json", NULL);
    run_per_function(path);
    run("dump", path, NULL);
    run("dump", path, "--raw", NULL);
    run("dump", path, "--thread", "1", NULL);
    run("wpp", path, "--no-xz", NULL);
    run("wpp", path, "--expand", NULL);
    run("wpp", path, "--hot", "--min-cost", "1", NULL);
    run("wpp", path, "--all", "--max-length", "3", "--json", NULL);
    run("vpp", path, "--all", NULL);
    run("vpp", path, "--json", "--against", path, NULL);
}

static unsigned char *read_input(const char *path, size_t *n)
{
    unsigned char *b;

    if (!file_bytes(path, MAX_INPUT, &b, n)) {
        fprintf(stderr, "fuzz driver: %s: %s\n", path, strerror(errno));
        exit(EXIT_TROUBLE);
    }
    return b;
}

static int write_all(int fd, const unsigned char *b, size_t n)
{
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The input added to itself; the sum, when the merge code writes one, is
 * a profile the strict reader accepts (its envelope: a section the merge
 * copied without checking as deeply may still be reported damaged). */
static void merge_twice(const unsigned char *b, size_t n)
{
    struct pprt_merge *m = pprt_merge_new();
    struct pprt_merge_error merr;
    struct pprt_buf sum = {0};

    if (m && pprt_merge_add(m, b, n, "a", &merr) == 0 && pprt_merge_add(m, b, n, "b", &merr) == 0 &&
        pprt_merge_encode(m, &sum, &merr) == 0) {
        char path[64];
        struct pp_profile p;
        struct pp_error err;
        int fd = memfd_create("fuzz-merged", 0);

        if (fd < 0 || write_all(fd, sum.data, sum.len) != 0) {
            perror("fuzz driver: memfd");
            exit(EXIT_TROUBLE);
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        memset(&p, 0, sizeof p);
        if (!profile_read(path, &p, &err)) {
            fprintf(stderr, "fuzz driver: the merge of the input with itself does not read back: %s\n",
                    err.msg);
            abort();
        }
        profile_free(&p);
        run("report", path, NULL);
        close(fd);
    }
    pprt_buf_free(&sum);
    pprt_merge_free(m);
}

int main(int argc, char **argv)
{
    unsigned char *b;
    size_t n;
    char path[64];
    int fd;

    if (argc == 4 && strcmp(argv[1], "--seal") == 0) {
        FILE *out;

        b = read_input(argv[2], &n);
        seal(b, n);
        out = fopen(argv[3], "wb");
        if (!out || fwrite(b, 1, n, out) != n || fclose(out) != 0) {
            fprintf(stderr, "fuzz driver: %s: %s\n", argv[3], strerror(errno));
            return EXIT_TROUBLE;
        }
        free(b);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: %s INPUT | --seal INPUT OUTPUT\n", argv[0]);
        return EXIT_TROUBLE;
    }
    b = read_input(argv[1], &n);
    seal(b, n);
    /* In memory, so that no run leaves a file behind; the readers see an
     * ordinary path (errors name it, the trace reader maps it). */
    fd = memfd_create("fuzz-input", 0);
    if (fd < 0 || write_all(fd, b, n) != 0) {
        perror("fuzz driver: memfd");
        return EXIT_TROUBLE;
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* The reports are not what is tested; their writing is. */
    if (!freopen("/dev/null", "w", stdout)) {
        perror("fuzz driver: /dev/null");
        return EXIT_TROUBLE;
    }
    run_all(path);
    merge_twice(b, n);
    free(b);
    close(fd);
    return 0;
}
