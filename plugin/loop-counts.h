/* loop-counts.h - the iterations of a loop whose body is one path,
 * counted in a register and added to the counters at its exits, or in
 * stream mode emitted there as one RUN marker (docs/algorithms.md, "Loops
 * counted at their exits").
 *
 * A loop whose body, from its header to its back edge, is one Ball-Larus
 * path ends a path at the back edge on every iteration, and the counter it
 * bumps is counters[r + inc]: the first iteration's path came from outside
 * the loop (r is whatever reached the header), every later one is the
 * same constant path.  That store at an address that changes after the
 * first iteration is what keeps GCC from vectorizing the loop or keeping
 * the counter in a register.  Here such a loop instead counts its back
 * edges in an SSA variable k (0 on entry, k + 1 on the back edge); each
 * exit adds, when k > 0, 1 to the first iteration's path and k - 1 to the
 * constant path, and gives the code after the loop the register it would
 * have had: (k > 0 ? reset : r on entry) + the increments from the header
 * to the exit.  Nothing in the loop reads the path register any more, so
 * its PHI and increments are dead code; k is an induction variable that
 * GCC replaces by the trip count.  */
#ifndef PATHPROF_LOOP_COUNTS_H
#define PATHPROF_LOOP_COUNTS_H

#include <stdint.h>
#include <utility>
#include <vector>

struct pp_dag;

/* The natural loop of header H: H and every block that reaches one of
   LATCHES without passing H, indexed by block index.  */
std::vector<bool> pp_natural_loop_body (basic_block h,
                                        const std::vector<basic_block> &latches);

/* A loop that qualifies (pp_single_path_loops).  */
struct pp_path_loop {
  basic_block header;
  edge back;                     /* latch -> header, the only back edge */
  uint64_t to_latch;             /* r at the latch = r at the header + this */
  /* Each exit edge, and r at its source = r at the header + the second.  */
  std::vector<std::pair<edge, uint64_t> > exits;
};

/* The loops of cfun whose iterations can be counted at their exits: a
   natural loop with one back edge and no inner loop; the body from the
   header to the latch one path of DAG (every block but the latch has one
   successor in the loop), none of its blocks a start node; every edge out
   of the body a normal edge (no EH, no abnormal edge); no call but to
   internal functions and to const or pure built-ins that cannot throw,
   no asm, no volatile access (so that nothing in the loop can end the
   program, longjmp out of it or wait on another thread while iterations
   are pending in k); and at least one exit.  */
std::vector<pp_path_loop> pp_single_path_loops (const pp_dag *dag);

/* What the rewrite of one loop (pp_count_at_exits) leaves to the caller,
   which builds the path register's SSA chain: the PHIs of K and R_PRE at
   the header (K is 0 from outside and K_NEXT from BACK_BLOCK; R_PRE is r
   from outside, itself from BACK_BLOCK), and for each exit the block
   where r is given (R_AT) and the edge out of it that takes over the
   exit edge's probes (NEW_EXIT).  */
struct pp_loop_rewrite {
  basic_block header, back_block;
  tree k, k_next, r_pre;
  struct exit_site {
    edge old_exit, new_exit;
    basic_block block;
    tree r_at;
  };
  std::vector<exit_site> exits;
};

/* What an exit that saw k > 0 back edges does with them, appended to
   SEQ: FIRST is the index (counter index in counting mode, path index in
   the TU in stream mode) of the first iteration's path, which ran once;
   LATER = k - 1 is how many times the steady path ran after it.  CTX is
   the caller's.  Counting mode adds to two counters; stream mode emits
   the first path's event and a RUN marker (docs/streaming.md).  */
typedef void (*pp_exit_count_fn) (gimple_seq *seq, tree first, tree later, void *ctx);

/* Rewrites LOOP: its back edge no longer counts (the caller drops its
   probe); each exit counts the iterations with COUNT (CTX passed on).
   FIRST_INC: the index of the first iteration's path is r at the header
   + FIRST_INC; RESET: r at the header after the back edge.  */
pp_loop_rewrite pp_count_at_exits (const pp_path_loop &loop, uint64_t first_inc,
                                   uint64_t reset, pp_exit_count_fn count, void *ctx);

#endif
