/* config.h - the run-time configuration read from PATHPROF_* variables.
 *
 * Read once, at the first TU registration or the first stream event (so
 * before main in the usual case), and never changed afterwards: later
 * setenv() calls by the program have no effect.  The table of variables is
 * in config.c and documented in docs/runtime.md; keep the two in step. */
#ifndef PATHPROF_RT_CONFIG_H
#define PATHPROF_RT_CONFIG_H

#include <stdint.h>

#pragma GCC visibility push(hidden)

#define PPRT_MAX_ANALYZERS 8          /* PATHPROF_ANALYZER: distinct names */
#define PPRT_MAX_ANALYZER_THREADS 64  /* PATHPROF_ANALYZERS */

struct pprt_config {
    /* Output path pattern (%p = pid, %h = host name, %t = unix time at
     * the write, %% = %).  A relative pattern was made
     * absolute against the working directory at load time, so a program
     * that chdir()s still writes where it was started. */
    char *out_pattern;
    int quiet;      /* PATHPROF_QUIET, 1 by default: no informational line */
    int verbose;    /* PATHPROF_VERBOSE=1 (or PATHPROF_QUIET=0): say where it went */
    int accumulate; /* PATHPROF_ACCUMULATE=1: add to the profile already there */
    int sync;       /* PATHPROF_SYNC=1: fsync every profile written (atomic-file.h) */

    /* Stream mode (docs/streaming.md). */
    uint32_t chunk_events;      /* PATHPROF_CHUNK: events per chunk */
    uint32_t chunks_per_thread; /* PATHPROF_CHUNKS */
    uint32_t analyzer_threads;  /* PATHPROF_ANALYZERS */
    uint32_t policy;            /* PATHPROF_POLICY: PATHPROF_POLICY_* */
    /* PATHPROF_ANALYZER: indices into pp_analyzers[], in the given order. */
    uint32_t nanalyzers;
    uint32_t analyzers[PPRT_MAX_ANALYZERS];
    /* PATHPROF_CPUS: a list, or NCPUS == 0: "auto" (pprt_default_cpu),
     * or "none" when CPUS_NONE. */
    uint32_t ncpus;
    int *cpus;
    int cpus_none;
    char *trace_pattern;        /* PATHPROF_TRACE, made absolute like OUT */
    uint64_t test_delay_ns;     /* PATHPROF_TEST_ANALYZER_DELAY_NS */
    uint64_t test_pause_ns;     /* PATHPROF_TEST_ANALYZER_PAUSE_NS */
    uint64_t test_accumulate_delay_ms; /* PATHPROF_TEST_ACCUMULATE_DELAY_MS */
    uint32_t k;                 /* PATHPROF_K: the ksf analyzer's k */
    uint32_t ksf_workers;       /* PATHPROF_KSF_WORKERS: per ksf instance, 0 = none */
    int ksf_links;              /* PATHPROF_KSF_BUILD: 1 links (the default), 0 slabs */
    uint64_t prune_bytes;       /* PATHPROF_PRUNE: ksf-pruned's budget, 0 = off */
    uint64_t wpp_max_bytes;     /* PATHPROF_WPP_MAX: wpp's grammar memory per thread */
    /* Sampling (docs/sampling.md), read by code built with sampling=yes. */
    uint64_t sample_n;          /* PATHPROF_SAMPLE=1/N: N, 0 = never */
    uint64_t burst;             /* PATHPROF_BURST: checks per burst */
    /* PATHPROF_VPP_OUTLIER: the vpp analyzer sets aside timings above it
     * (a preemption, docs/vpp.md); 0 keeps them all. */
    uint64_t vpp_outlier;
    /* PATHPROF_VPP_COUNTER: 0 none, 1 cache-misses (PPRT_VPP_EVENTS_*):
     * a second counter read around each timed path (docs/vpp.md). */
    uint32_t vpp_counter;
};

extern struct pprt_config pprt_config;

/* Apply defaults, then every PATHPROF_* variable of the environment; warn
 * about unknown names and bad values (the default stays in force). */
void pprt_config_load(void);

#pragma GCC visibility pop

#endif
