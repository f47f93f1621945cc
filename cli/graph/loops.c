/* loops.c - back edge or cut edge? (see loops.h) */
#include "loops.h"

#include <stdlib.h>

#include "pathprof-abi.h"

enum { WHITE, GREY, BLACK };

/* The real CFG successor an edge stands for, or PATHPROF_NONE. */
static uint32_t real_target(const struct pp_edge *e)
{
    if (e->kind == PATHPROF_EDGE_REAL && e->dst != 1)
        return e->dst;
    if (e->kind == PATHPROF_EDGE_EXIT_DUMMY)
        return e->real_dst;
    return PATHPROF_NONE;
}

/* Iterative, so a function with 100000 blocks cannot overflow the C stack. */
static void dfs(const struct pp_func_meta *f, uint32_t root, uint8_t *color,
                uint32_t *stack_node, uint32_t *stack_next)
{
    uint32_t depth = 0;

    color[root] = GREY;
    stack_node[0] = root;
    stack_next[0] = 0;
    depth = 1;
    while (depth > 0) {
        uint32_t u = stack_node[depth - 1], n;
        const struct pp_edge *out = meta_out_edges(f, u, &n);
        if (stack_next[depth - 1] == n) {
            color[u] = BLACK;
            depth--;
            continue;
        }
        uint32_t k = stack_next[depth - 1]++;
        uint32_t v = real_target(&out[k]);
        if (v == PATHPROF_NONE)
            continue;
        if (color[v] == GREY && out[k].kind == PATHPROF_EDGE_EXIT_DUMMY)
            f->edge_closes_loop[f->out_first[u] + k] = 1;
        if (color[v] == WHITE) {
            color[v] = GREY;
            stack_node[depth] = v;
            stack_next[depth] = 0;
            depth++;
        }
    }
}

bool loops_classify(struct pp_func_meta *f, struct pp_error *err)
{
    uint8_t *color = calloc(f->nnodes, 1);
    uint32_t *stack_node = malloc(f->nnodes * sizeof *stack_node);
    uint32_t *stack_next = malloc(f->nnodes * sizeof *stack_next);
    uint32_t i;
    bool ok = false;

    f->edge_closes_loop = calloc(f->nedges ? f->nedges : 1, 1);
    f->node_start = malloc(f->nnodes);
    if (!color || !stack_node || !stack_next || !f->edge_closes_loop || !f->node_start) {
        pp_fail(err, "out of memory");
        goto out;
    }
    dfs(f, 0, color, stack_node, stack_next);
    /* Blocks reached only through abnormal edges (setjmp, EH) start paths
     * through ENTRY_DUMMY edges; walk from them too. */
    for (i = 0; i < f->out_count[0]; i++) {
        const struct pp_edge *e = &f->edges[f->out_first[0] + i];
        if (e->kind == PATHPROF_EDGE_ENTRY_DUMMY && color[e->dst] == WHITE)
            dfs(f, e->dst, color, stack_node, stack_next);
    }
    for (i = 0; i < f->nnodes; i++)
        f->node_start[i] = PATH_START_OTHER;
    for (i = 0; i < f->nedges; i++) {
        const struct pp_edge *e = &f->edges[i];
        if (e->kind != PATHPROF_EDGE_EXIT_DUMMY)
            continue;
        if (f->edge_closes_loop[i])
            f->node_start[e->real_dst] = PATH_START_LOOP;
        else if (f->node_start[e->real_dst] != PATH_START_LOOP)
            f->node_start[e->real_dst] = PATH_START_CUT;
    }
    ok = true;
out:
    free(color);
    free(stack_node);
    free(stack_next);
    return ok;
}

bool loops_classify_tu(struct pp_tu_meta *tu, struct pp_error *err)
{
    for (uint32_t i = 0; i < tu->nfuncs; i++) {
        struct pp_func_meta *f = &tu->funcs[i];
        if (!loops_classify(f, err)) {
            meta_func_context(err, i, f);
            meta_free(tu);
            return false;
        }
    }
    return true;
}
