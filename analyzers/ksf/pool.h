/* pool.h - the worker threads of one ksf analyzer instance
 * (PATHPROF_KSF_WORKERS): they run the jobs its analyzer thread makes
 * (split.h), each into its own k-SF builder, and turn those into one
 * k-IPF at the end.
 *
 * Threads: create, submit, quiesce, after_fork_child and finish are called
 * by one thread at a time (the instance's analyzer thread, then the
 * runtime's control thread at exit); the workers run nothing else, never
 * the program's code (every signal is blocked in them).
 *
 * Fork: the runtime parks its analyzer threads before fork; each parked
 * analyzer quiesces its pools first (every submitted job done, the
 * workers asleep), so the child inherits complete builders and an unheld
 * lock.  In the child, after_fork_child starts new workers on those
 * builders, or, when it cannot, the submitting thread runs jobs itself. */
#ifndef PATHPROF_KSF_POOL_H
#define PATHPROF_KSF_POOL_H

#include "forest.h"
#include "split.h"
#include "stats.h"

#include <sys/types.h>

#pragma GCC visibility push(hidden)

struct ksf_pool;

/* NWORKERS workers for k-SFs of K; worker i pinned to CPUS[i] unless it is
 * -1 (or the pinning fails: then unpinned).  NULL when not one could be
 * started (out of memory, no threads). */
struct ksf_pool *ksf_pool_create(uint32_t k, uint32_t nworkers, const int *cpus, int links);

/* Hands job J over (the pool frees it); blocks while every worker has
 * enough queued work, which throttles the producer through the runtime's
 * channel as a slow analyzer would. */
void ksf_pool_submit(struct ksf_pool *p, struct ksf_job *j);

/* Returns when every submitted job has run. */
void ksf_pool_quiesce(struct ksf_pool *p);

/* In a forked child (the pool was quiesced before fork). */
void ksf_pool_after_fork_child(struct ksf_pool *p);

/* Kernel thread ids of the running workers, at most MAX; returns how many
 * (the runtime's "only runtime threads left" test must know them). */
uint32_t ksf_pool_tids(struct ksf_pool *p, pid_t *tids, uint32_t max);

/* Runs every job left, converts each worker's k-SF (Fig. 7, in the
 * workers, in parallel), unites them into IPF in worker order, adds the
 * builders' counters and k-SF shapes to ST (not its thread count: workers
 * are not producer threads) and stops the workers.  The pool is then
 * finished: later calls do nothing. Returns -1 when anything ran out of
 * memory (IPF->failed is set). */
int ksf_pool_finish(struct ksf_pool *p, struct ksf_forest *ipf, struct ksf_stats *st);

/* Finishes (results dropped) if needed and frees. */
void ksf_pool_free(struct ksf_pool *p);

#pragma GCC visibility pop

#endif
