/* ksf-throughput.c - path events per second of the ksf analyzer's k-SF
 * builder (analyzers/ksf/build.h, Fig. 6) and the k-SF -> k-IPF conversion
 * (Fig. 7), on synthetic streams, for k = 1, 2, 4, 8, 16:
 *   loop:    one activation repeating 3 paths (a loop body with a rare
 *            branch) 20 million times - the case the paper's
 *            implementation paid one tree walk per iteration for;
 *   random:  IDs drawn uniformly from 8, activations of 48 paths on
 *            average, a tenth as many events (its forests are huge);
 *   calls:   a caller loop whose every iteration calls a 2-path callee
 *            (per-activation state saved and restored as analyzers/ksf/ksf.c does).
 * Build and run (docs/kiterations.md):
 *   gcc -O2 -std=c11 -D_GNU_SOURCE -Ianalyzers perfctl/micro/ksf-throughput.c \
 *       analyzers/ksf/forest.c analyzers/ksf/build.c analyzers/ksf/ipf.c analyzers/ksf/suffix-links.c -o ksf-bench
 *   ./ksf-bench [million-events] */
#include "ksf/build.h"
#include "ksf/ipf.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

enum { LOOP, RANDOM, CALLS };
static const char *names[] = {"loop", "random", "calls"};

/* Stream pre-generated: labels, with 0 meaning "*" (a new activation) and
 * for CALLS bit 62 marking the callee's paths. */
static uint64_t *make(int kind, size_t n)
{
    uint64_t *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case LOOP:
            v[i] = i == 0 ? 0 : (i % 100 == 0 ? 103 : 101 + i % 2);
            break;
        case RANDOM:
            v[i] = next() % 48 == 0 ? 0 : 1 + next() % 8;
            break;
        default: /* caller path, callee path 1, callee path 2, ... */
            v[i] = i == 0 ? 0 : (i % 3 == 0 ? 201 : (1ull << 62) | (300 + i % 3));
        }
    }
    return v;
}

int main(int argc, char **argv)
{
    size_t nall = (argc > 1 ? strtoul(argv[1], 0, 10) : 20) * 1000000ul;
    static const uint32_t ks[] = {1, 2, 4, 8, 16};
    printf("%-7s %3s %14s %10s %10s %12s %12s\n", "stream", "k", "events/s", "ns/event",
           "k-SF nodes", "hash ops", "k-IPF ms");
    for (int kind = LOOP; kind <= CALLS; kind++) {
        size_t n = kind == RANDOM ? nall / 10 : nall;
        uint64_t *v = make(kind, n);
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
            struct ksf_builder b;
            struct ksf_state caller, callee, *s = &caller;
            ksf_builder_init(&b, ks[ki]);
            ksf_star(&caller);
            double t0 = now();
            for (size_t i = 0; i < n; i++) {
                uint64_t x = v[i];
                if (x == 0) {
                    ksf_star(&caller);
                    continue;
                }
                if (x >> 62) { /* a callee path: its own activation */
                    if (s == &caller) {
                        s = &callee;
                        ksf_star(s);
                    }
                    ksf_item(&b, s, x & ~(1ull << 62));
                    if ((x & 0xffff) % 3 == 2)
                        s = &caller; /* RET: the caller's state is back */
                    continue;
                }
                ksf_item(&b, s, x);
            }
            double t1 = now();
            struct ksf_forest ipf;
            ksf_forest_init(&ipf);
            ksf_make_k_ipf(&b.f, ks[ki], &ipf);
            double t2 = now();
            printf("%-7s %3u %14.0f %10.2f %10u %12llu %12.2f\n", names[kind], ks[ki],
                   n / (t1 - t0), (t1 - t0) * 1e9 / n, b.f.len - 1,
                   (unsigned long long)b.hash_ops, (t2 - t1) * 1e3);
            ksf_forest_free(&ipf);
            ksf_builder_free(&b);
        }
        free(v);
    }
    return 0;
}
