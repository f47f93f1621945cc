/* pieces.c - runtime/bytebuf.c's pieces against a plain array.
 *
 * A seeded random sequence of puts (own bytes, numbers, zeros, pieces by
 * reference) and patches of earlier own bytes goes into a pprt_buf and,
 * byte for byte, into a plain array written as the format would be read
 * (the oracle).  Prints one line per check; tests/bytebuf-pieces.t reads
 * them.  Then the contents go through pprt_write_buf into a pipe whose
 * reader (a child) takes a little at a time while an interval timer
 * interrupts the writer (SIGALRM without SA_RESTART), so writev returns
 * short counts and EINTR; the child's bytes must equal the oracle.
 *
 *   pieces SEED NOPS */
#include "atomic-file.h"
#include "bytebuf.h"
#include "le-bytes.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned char *ref;
static size_t ref_len, ref_cap;
static uint64_t rng;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static void ref_put(const void *p, size_t n)
{
    if (ref_len + n > ref_cap) {
        ref_cap = (ref_len + n) * 2;
        ref = realloc(ref, ref_cap);
        if (ref == NULL)
            exit(99);
    }
    memcpy(ref + ref_len, p, n);
    ref_len += n;
}

struct patchable { size_t own, logical; };

static int concat(const unsigned char *p, size_t n, void *arg)
{
    struct pprt_buf *out = arg;
    pprt_buf_put(out, p, n);
    return 0;
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig) { (void)sig; alarms++; }

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    rng = strtoull(argv[1], NULL, 10) * 2654435761u + 1;
    long nops = strtol(argv[2], NULL, 10);
    /* What pieces refer to: it must outlive the buffer. */
    size_t pool_len = 1 << 20;
    unsigned char *pool = malloc(pool_len);
    struct patchable *spots = malloc((size_t)nops * sizeof *spots);
    if (pool == NULL || spots == NULL)
        return 99;
    for (size_t i = 0; i < pool_len; i++)
        pool[i] = (unsigned char)next();
    struct pprt_buf b = {0};
    size_t nspots = 0, nrefs = 0;
    for (long op = 0; op < nops; op++) {
        size_t n = next() % 5000, from = next() % (pool_len - 5000);
        unsigned char w[8];
        switch (next() % 6) {
        case 0: /* a piece by reference, often long */
            pprt_buf_put_ref(&b, pool + from, n);
            ref_put(pool + from, n);
            nrefs += n > 0;
            break;
        case 1: /* own bytes, copied */
            pprt_buf_put(&b, pool + from, n % 100);
            ref_put(pool + from, n % 100);
            break;
        case 2: /* a number that a later patch may overwrite */
            spots[nspots++] = (struct patchable){b.len, pprt_buf_size(&b)};
            pprt_buf_u64(&b, op);
            pprt_set_u64(w, (uint64_t)op);
            ref_put(w, 8);
            break;
        case 3:
            pprt_buf_u32(&b, (uint32_t)op);
            pprt_set_u32(w, (uint32_t)op);
            ref_put(w, 4);
            break;
        case 4: {
            unsigned char z[64] = {0};
            pprt_buf_zeros(&b, n % 64);
            ref_put(z, n % 64);
            break;
        }
        case 5: /* patch an earlier number: own offset in B, logical in REF */
            if (nspots) {
                struct patchable s = spots[next() % nspots];
                uint64_t v = next();
                pprt_buf_patch_u64(&b, s.own, v);
                pprt_set_u64(ref + s.logical, v);
            }
            break;
        }
    }
    printf("refs %zu size %d failed %d\n", nrefs, pprt_buf_size(&b) == ref_len, b.failed);

    struct pprt_buf joined = {0};
    pprt_buf_pieces(&b, concat, &joined);
    printf("pieces %d\n", joined.len == ref_len && memcmp(joined.data, ref, ref_len) == 0);
    pprt_buf_free(&joined);

    int fds[2];
    if (pipe(fds) != 0)
        return 99;
    fflush(stdout); /* the child's _exit must not write our buffer too (TSan's _exit flushes) */
    pid_t child = fork();
    if (child == 0) { /* the slow reader: 1000 bytes at a time */
        close(fds[1]);
        unsigned char *got = malloc(ref_len + 1);
        size_t have = 0;
        ssize_t r;
        while (got && (r = read(fds[0], got + have, have + 1000 <= ref_len ? 1000 : ref_len + 1 - have)) > 0) {
            have += (size_t)r;
            if ((have / 1000) % 64 == 0)
                usleep(200);
        }
        _exit(got && have == ref_len && memcmp(got, ref, ref_len) == 0 ? 0 : 1);
    }
    close(fds[0]);
    struct sigaction sa = {.sa_handler = on_alarm}; /* no SA_RESTART */
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 300}, {0, 300}};
    setitimer(ITIMER_REAL, &it, NULL);
    int err = pprt_write_buf(fds[1], &b);
    setitimer(ITIMER_REAL, &(struct itimerval){{0, 0}, {0, 0}}, NULL);
    close(fds[1]);
    int status;
    waitpid(child, &status, 0);
    printf("write %d reader %d interrupted %d\n", err,
           WIFEXITED(status) ? WEXITSTATUS(status) : 100, alarms > 0);

    pprt_buf_flatten(&b);
    printf("flat %d refs %zu\n",
           !b.failed && b.len == ref_len && memcmp(b.data, ref, ref_len) == 0, b.nrefs);
    pprt_buf_free(&b);
    free(ref);
    free(pool);
    free(spots);
    return 0;
}
