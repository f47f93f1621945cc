/* flow.c - edge and block flows from path counts (see flow.h). */
#include "flow.h"

#include <string.h>

#include "graph/path.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

bool path_flows(const struct pp_func_meta *m, const struct pp_path_count *records,
                uint64_t nrecords, uint64_t *edge_flow, uint64_t *node_flow,
                struct pp_error *err)
{
    struct path path;
    uint64_t i;
    uint32_t e;

    memset(edge_flow, 0, m->nedges * sizeof *edge_flow);
    memset(node_flow, 0, m->nnodes * sizeof *node_flow);
    if (!path_alloc(m, &path, err))
        return false;
    for (i = 0; i < nrecords; i++) {
        if (!path_decode(m, records[i].id, &path, err)) {
            path_release(&path);
            return pp_context(err, "function %s", m->name);
        }
        for (e = 0; e < path.nedges; e++) {
            uint32_t k = path.edges[e];
            edge_flow[k] = sat_add(edge_flow[k], records[i].count);
            node_flow[m->edges[k].dst] = sat_add(node_flow[m->edges[k].dst], records[i].count);
        }
    }
    path_release(&path);
    return true;
}
