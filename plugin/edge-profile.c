/* edge-profile.c - a pathprof profile as TPP's edge profile (see
 * edge-profile.h).  A CFG edge appears in a function's numbered graph as a
 * REAL edge, or as the EXIT_DUMMY edge that stands for it when it ends
 * paths (back edges, edges into start nodes, EH edges); its count is the
 * flow of that DAG edge.  A block ran as often as paths left it: every
 * visit of a block other than ENTRY leaves it by exactly one DAG edge
 * (REAL, EXIT_DUMMY or TERMINAL); ENTRY ran once per call, the flow of
 * its REAL edge (entry dummies start paths inside the function).  A path
 * that never ends (longjmp out of the function, exit () in it) is in no
 * count, as in the profile itself. */
#include "edge-profile.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathprof-abi.h"
#include "query/flow.h"
#include "read/profile.h"

static struct pp_profile prof;
static struct pp_ep_func *funcs;
static size_t nfuncs;
static char message[640];

static const char *fail(const char *fmt, const char *a, const char *b)
{
    snprintf(message, sizeof message, fmt, a, b);
    return message;
}

static int edge_order(const void *pa, const void *pb)
{
    const struct pp_ep_edge *a = pa, *b = pb;
    if (a->src_bb != b->src_bb)
        return a->src_bb < b->src_bb ? -1 : 1;
    return a->dst_bb < b->dst_bb ? -1 : a->dst_bb > b->dst_bb;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Why F's path counts are not every path's, or NULL.  */
static const char *inexact(const struct pp_func *f)
{
    uint32_t flags = f->meta->flags;
    if (flags & (PATHPROF_FN_TPP | PATHPROF_FN_TPP_NOPROFILE))
        return "it was built with tpp (paths through cold edges and obvious "
               "paths are not counted one by one)";
    if (flags & PATHPROF_FN_PPP)
        return "it was built with ppp (only the interesting paths are "
               "counted one by one)";
    if (flags & PATHPROF_FN_SAMPLED)
        return "it was built with sampling=yes (its counts are samples)";
    return NULL;
}

/* Fills OUT from F: its CFG edges and blocks with their counts.  */
static const char *derive(const struct pp_func *f, struct pp_ep_func *out)
{
    const struct pp_func_meta *m = f->meta;
    struct pp_error err;
    uint64_t *edge_flow = calloc(m->nedges ? m->nedges : 1, sizeof *edge_flow);
    uint64_t *node_flow = calloc(m->nnodes, sizeof *node_flow);
    uint64_t *left = calloc(m->nnodes, sizeof *left);
    uint32_t i;
    size_t n = 0;

    out->name = m->name;
    out->file = m->file ? m->file : "";
    out->checksum = m->checksum;
    out->inexact = inexact(f);
    out->edges = malloc((m->nedges ? m->nedges : 1) * sizeof *out->edges);
    out->blocks = malloc(m->nnodes * sizeof *out->blocks);
    if (!edge_flow || !node_flow || !left || !out->edges || !out->blocks) {
        free(edge_flow), free(node_flow), free(left);
        return "out of memory";
    }
    if (!path_flows(m, f->records, f->nrecords, edge_flow, node_flow, &err)) {
        free(edge_flow), free(node_flow), free(left);
        snprintf(message, sizeof message, "%s", err.msg);
        return message;
    }
    for (i = 0; i < m->nedges; i++) {
        const struct pp_edge *e = &m->edges[i];
        uint32_t dst = e->kind == PATHPROF_EDGE_EXIT_DUMMY ? e->real_dst : e->dst;
        if (e->src != 0 || e->kind == PATHPROF_EDGE_REAL)
            left[e->src] = sat_add(left[e->src], edge_flow[i]);
        if (e->kind != PATHPROF_EDGE_REAL && e->kind != PATHPROF_EDGE_EXIT_DUMMY)
            continue;
        out->edges[n].src_bb = (int32_t) m->nodes[e->src].bb;
        out->edges[n].dst_bb = (int32_t) m->nodes[dst].bb;
        out->edges[n].count = edge_flow[i];
        n++;
    }
    /* One CFG edge has one DAG edge; should a graph ever hold two, their
       flows add up.  */
    qsort(out->edges, n, sizeof *out->edges, edge_order);
    out->nedges = 0;
    for (i = 0; i < n; i++) {
        struct pp_ep_edge *last = out->nedges ? &out->edges[out->nedges - 1] : NULL;
        if (last && last->src_bb == out->edges[i].src_bb && last->dst_bb == out->edges[i].dst_bb)
            last->count = sat_add(last->count, out->edges[i].count);
        else
            out->edges[out->nedges++] = out->edges[i];
    }
    /* Node numbers follow ascending bb (ENTRY 0, EXIT 1, then FOR_EACH_BB
       order, which is bb->index order at our pass).  Sort to be sure.  */
    for (i = 0; i < m->nnodes; i++) {
        out->blocks[i].bb = (int32_t) m->nodes[i].bb;
        out->blocks[i].count = left[i];
    }
    out->nblocks = m->nnodes;
    for (i = 1; i < m->nnodes; i++) {
        struct pp_ep_block b = out->blocks[i];
        uint32_t j = i;
        while (j > 0 && out->blocks[j - 1].bb > b.bb) {
            out->blocks[j] = out->blocks[j - 1];
            j--;
        }
        out->blocks[j] = b;
    }
    free(edge_flow), free(node_flow), free(left);
    return NULL;
}

const char *pp_ep_load(const char *path)
{
    struct pp_error err;
    size_t i;
    int part;

    if (!profile_read(path, &prof, &err))
        return fail("%s%s", err.msg, "");
    for (part = PP_PART_TU_META; part <= PP_PART_TU_COUNTS; part++)
        if (prof.broken[part] != PP_NO_SECTION) {
            const struct pp_section *s = &prof.sections[prof.broken[part]];
            return fail("its path counts are damaged: TU section: %s%s",
                        s->why ? s->why : "unreadable", "");
        }
    if (prof.has_stream) {
        const struct pp_stream_info *s = &prof.stream;
        if (!s->analyzers || !strstr(s->analyzers, "blpp"))
            return fail("a stream-mode profile without the blpp analyzer "
                        "(analyzers: %s) has no path counts%s",
                        s->analyzers ? s->analyzers : "none", "");
        if (s->dropped || s->late || s->resync || s->unknown)
            return fail("a stream-mode profile that is not exact (events "
                        "dropped, late, resynchronized or unknown)%s%s", "", "");
    }
    funcs = calloc(prof.nfuncs ? prof.nfuncs : 1, sizeof *funcs);
    if (!funcs)
        return "out of memory";
    for (i = 0; i < prof.nfuncs; i++) {
        const char *why = derive(&prof.funcs[i], &funcs[i]);
        if (why)
            return why;
        nfuncs++;
    }
    return NULL;
}

const struct pp_ep_func *pp_ep_find(const char *name, const char *file, uint64_t checksum)
{
    const struct pp_ep_func *by_file = NULL, *by_sum = NULL;
    size_t i, n_by_sum = 0;

    /* A header's static (or inline) function compiled into several TUs is
       one entry per distinct copy (the reader merges copies with the same
       name, file and checksum), so name and file alone can match a copy
       other than this TU's: the one with this checksum is ours.  When none
       has it, the first of that name and file is returned, and the caller
       says the function changed.  */
    for (i = 0; i < nfuncs; i++) {
        if (strcmp(funcs[i].name, name) != 0)
            continue;
        if (!strcmp(funcs[i].file, file)) {
            if (funcs[i].checksum == checksum)
                return &funcs[i];
            if (!by_file)
                by_file = &funcs[i];
        } else if (funcs[i].checksum == checksum) {
            by_sum = &funcs[i];
            n_by_sum++;
        }
    }
    if (by_file)
        return by_file;
    return n_by_sum == 1 ? by_sum : NULL;
}

size_t pp_ep_nfuncs(void)
{
    return nfuncs;
}
