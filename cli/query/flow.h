/* flow.h - how often each edge and block of a function's numbered graph
 * ran: every recorded path's count added along the edges it takes. */
#ifndef PATHPROF_CLI_FLOW_H
#define PATHPROF_CLI_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/meta.h"
#include "read/profile.h"

/* EDGE_FLOW (m->nedges) and NODE_FLOW (m->nnodes) are zeroed, then
 * filled; sums saturate at UINT64_MAX. A record that does not decode fails
 * with err naming the function. */
bool path_flows(const struct pp_func_meta *m, const struct pp_path_count *records,
                uint64_t nrecords, uint64_t *edge_flow, uint64_t *node_flow,
                struct pp_error *err);

#endif
