/* rcu.h - the runtime's use of liburcu (urcu-memb flavour), in one place.
 *
 * Readers are the analyzer threads only (registered with
 * pprt_rcu_register); application threads never read-lock, because user
 * code cannot be made to pass through quiescent states.  Writers (TU
 * registration and dlclose) hold the stream mutex and may wait for a grace
 * period; nobody waits for one while holding a lock a reader takes.
 *
 * Pointers shared with readers are published with a release store and read
 * with an acquire load rather than rcu_assign_pointer/rcu_dereference:
 * the same instructions on x86 and no stronger elsewhere than needed, and
 * visible to ThreadSanitizer, which does not understand liburcu's volatile
 * accesses.  For the same reason the end of a read-side section and the
 * end of a grace period carry a happens-before annotation (hb-annotate.h). */
#ifndef PATHPROF_RT_RCU_H
#define PATHPROF_RT_RCU_H

#include "hb-annotate.h"

#include <urcu/urcu-memb.h>

#pragma GCC visibility push(hidden)

/* The address the grace-period annotations synchronise on. */
extern char pprt_rcu_gp_token;

static inline void pprt_rcu_register(void) { urcu_memb_register_thread(); }
static inline void pprt_rcu_unregister(void) { urcu_memb_unregister_thread(); }
static inline void pprt_rcu_read_lock(void) { urcu_memb_read_lock(); }

static inline void pprt_rcu_read_unlock(void)
{
    /* Before the unlock: a grace period that ends after it must see every
     * access this section made. */
    PP_HB_RELEASE(&pprt_rcu_gp_token);
    urcu_memb_read_unlock();
}

static inline void pprt_rcu_synchronize(void)
{
    urcu_memb_synchronize_rcu();
    PP_HB_ACQUIRE(&pprt_rcu_gp_token);
}

#define PPRT_RCU_PUBLISH(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define PPRT_RCU_DEREF(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)

#pragma GCC visibility pop

#endif
