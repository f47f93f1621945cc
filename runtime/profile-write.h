/* profile-write.h - writing the profile once, at exit. */
#ifndef PATHPROF_RT_PROFILE_WRITE_H
#define PATHPROF_RT_PROFILE_WRITE_H

#pragma GCC visibility push(hidden)

/* The atexit handler.  Only the first call writes (the registry says so).
 * A later call, from another thread's exit() racing with the first, waits
 * until the first has finished: returning at once would let that thread end
 * the process in the middle of the write. */
void pprt_write_profile(void);

/* Held for the whole write; for pthread_atfork (a child must not inherit it
 * locked).  Taken before the registry lock. */
void pprt_write_lock(void);
void pprt_write_unlock(void);

#pragma GCC visibility pop

#endif
