/* stale-temporaries.h - removing the temporaries of profile writers that
 * died before their rename (PATHPROF_ACCUMULATE).
 *
 * A writer writes NAME.tmp.PID.N and renames it to NAME (atomic-file.c);
 * one killed in between leaves the temporary behind.  A test suite whose
 * tests time out or crash would pile them up beside its one accumulated
 * profile, so the process that holds NAME.lock removes them: under the
 * lock no other accumulating process writes one, and a temporary is only
 * taken for dead when its PID names no process here AND it has not been
 * written to for a minute (a writer of another host or PID namespace on a
 * shared directory, or one that is not accumulating, keeps its file). */
#ifndef PATHPROF_RT_STALE_TEMPORARIES_H
#define PATHPROF_RT_STALE_TEMPORARIES_H

#pragma GCC visibility push(hidden)

/* Seconds since its last write after which a dead writer's temporary goes. */
#define PPRT_STALE_TMP_AGE_S 60

/* Removes the stale temporaries NAME.tmp.PID.N of NAME (a path); returns
 * how many it removed.  Never fails: what it cannot read or remove stays. */
unsigned pprt_remove_stale_temporaries(const char *name);

#pragma GCC visibility pop

#endif
