/* loops.h - why a path starts or ends where it does.
 *
 * The numbered graph replaces both back edges and edges into cut nodes by
 * a pair of dummy edges, and the metadata does not say which is which.
 * loops_classify() recovers it: it walks the real CFG (real edges plus the
 * real edge each EXIT_DUMMY edge stands for) depth first from ENTRY; an
 * EXIT_DUMMY edge whose real target is on the DFS stack closes a cycle,
 * i.e. it is a back edge; any other one leads into a cut node. */
#ifndef PATHPROF_CLI_LOOPS_H
#define PATHPROF_CLI_LOOPS_H

#include "meta.h"

enum path_start {
    PATH_START_ENTRY,   /* function entry */
    PATH_START_LOOP,    /* loop header, after a back edge */
    PATH_START_CUT,     /* a node where the graph was cut to bound the number of paths */
    PATH_START_OTHER,   /* any other ENTRY_DUMMY target: setjmp receiver, EH landing pad... */
};

enum path_end {
    PATH_END_RETURN,    /* real edge into EXIT */
    PATH_END_BACKEDGE,  /* takes a back edge */
    PATH_END_CUT,       /* takes an edge into a cut node */
    PATH_END_TERMINAL,  /* block with no normal successor (noreturn call, trap...) */
};

/* Fills f->edge_closes_loop and f->node_start. */
bool loops_classify(struct pp_func_meta *f, struct pp_error *err);

/* loops_classify for every function of TU, just parsed by meta_parse (the
 * readers call both: the parser knows nothing of loops).  On failure the
 * error names the function, and TU is freed as a failed meta_parse frees
 * it. */
bool loops_classify_tu(struct pp_tu_meta *tu, struct pp_error *err);

#endif
