/* counter-add.h - appending a counter update to a GIMPLE sequence. */
#ifndef PATHPROF_COUNTER_ADD_H
#define PATHPROF_COUNTER_ADD_H

/* Appends to SEQ counters[INDEX] += AMOUNT: a plain load, add and store,
   or a relaxed __atomic_fetch_add when ATOMIC (counts need no ordering).
   COUNTERS is the TU's u64 counter array.  */
void pp_add_to_counter (gimple_seq *seq, tree counters, tree index,
                        tree amount, bool atomic);

#endif
