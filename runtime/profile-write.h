/* profile-write.h - writing the profile once, at exit. */
#ifndef PATHPROF_RT_PROFILE_WRITE_H
#define PATHPROF_RT_PROFILE_WRITE_H

#pragma GCC visibility push(hidden)

/* The atexit handler.  Only the first call writes (the registry says so);
 * later calls, from another thread's exit() or a second handler, return. */
void pprt_write_profile(void);

#pragma GCC visibility pop

#endif
