/* dot.c - `pathprof dot FILE FUNCTION`: the numbered path graph for
 * Graphviz, to see how IDs were assigned and where the flow goes: nodes
 * are blocks (bb index, source lines, runs), edges carry their Ball-Larus
 * value, probe increment and runs, dummy edges are dashed and say which
 * real edge they stand for, and the real back edges themselves are drawn
 * dotted and grey (not part of the graph that is numbered). The flow
 * colours the graph: the more of the function's runs an edge carries, the
 * redder and thicker it is; the hottest path is drawn in bold red and the
 * title names the hottest paths. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "read/section_status.h"
#include "graph/path.h"
#include "query/flow.h"
#include "pathprof-abi.h"
#include "out/text_out.h"

/* Inside a DOT "string": escape quote and backslash, drop control bytes. */
static void dot_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fputc('\\', out);
        fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, out);
    }
}

/* What the flow looks like: the share of the function's runs. */
struct heat {
    uint64_t total;            /* the function's runs */
    const uint64_t *edge, *node;
    const uint8_t *hottest;    /* per edge: on the hottest path */
};

static const char *heat_colour(uint64_t flow, uint64_t total)
{
    double share = total ? (double)flow / (double)total : 0.0;
    return flow == 0 ? "gray60" : share >= 0.5 ? "red3" : share >= 0.1 ? "darkorange2"
                                                                          : "black";
}

static const char *heat_fill(uint64_t flow, uint64_t total)
{
    double share = total ? (double)flow / (double)total : 0.0;
    return flow == 0 ? "white" : share >= 0.5 ? "#ffc8c0" : share >= 0.1 ? "#ffe4c0"
                                                                          : "#eeeeee";
}

static void dot_node(FILE *out, const struct pp_func_meta *m, uint32_t node,
                     const struct heat *h)
{
    struct line_range r;
    fprintf(out, "  n%" PRIu32 " [label=\"", node);
    if (node < 2) {
        fprintf(out, "%s\\nruns %" PRIu64 "\", shape=oval];\n", node == 0 ? "ENTRY" : "EXIT",
                h->total);
        return;
    }
    fprintf(out, "bb %" PRIu32, m->nodes[node].bb);
    if (node_lines(&m->nodes[node], &r)) {
        fputs("\\n", out);
        dot_text(out, r.file);
        if (r.first == r.last)
            fprintf(out, ":%" PRIu32, r.first);
        else
            fprintf(out, ":%" PRIu32 "-%" PRIu32, r.first, r.last);
    }
    fprintf(out, "\\nruns %" PRIu64 "\", style=filled, fillcolor=\"%s\"];\n", h->node[node],
            heat_fill(h->node[node], h->total));
}

static void dot_edge(FILE *out, const struct pp_func_meta *m, uint32_t index,
                     const struct heat *h)
{
    const struct pp_edge *e = &m->edges[index];
    uint64_t flow = h->edge[index];
    char src[24], dst[24];

    fprintf(out, "  n%" PRIu32 " -> n%" PRIu32 " [color=\"%s\", penwidth=%.1f",
            e->src, e->dst, h->hottest[index] ? "red" : heat_colour(flow, h->total),
            h->hottest[index] ? 4.0
                              : 1.0 + 3.0 * (h->total ? (double)flow / (double)h->total : 0.0));
    fprintf(out, ", label=\"val %" PRIu64 "\\ninc %" PRId64 "\\nruns %" PRIu64, e->val, e->inc,
            flow);
    switch (e->kind) {
    case PATHPROF_EDGE_ENTRY_DUMMY:
        fputs("\\nentry dummy", out);
        fprintf(out, "\\n(path starts: %s)",
                path_start_name((enum path_start)m->node_start[e->dst]));
        fputs("\", style=dashed];\n", out);
        break;
    case PATHPROF_EDGE_EXIT_DUMMY:
        node_name(src, sizeof src, m, e->src);
        node_name(dst, sizeof dst, m, e->real_dst);
        fprintf(out, "\\nfor %s -> %s\\n(%s)\", style=dashed];\n", src, dst,
                m->edge_closes_loop[index] ? "back edge" : "edge into cut point");
        /* The real edge, for the eye only: it does not constrain the layout. */
        fprintf(out, "  n%" PRIu32 " -> n%" PRIu32
                     " [style=dotted, color=gray, constraint=false];\n",
                e->src, e->real_dst);
        break;
    case PATHPROF_EDGE_TERMINAL:
        fputs("\\nterminal (noreturn)\", style=dashed];\n", out);
        break;
    default:
        fputs("\"];\n", out);
        break;
    }
}

static int by_count(const void *pa, const void *pb)
{
    const struct pp_path_count *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

#define DOT_HOT_PATHS 3

static bool dot_graph(FILE *out, const struct pp_func *f, struct pp_error *err)
{
    const struct pp_func_meta *m = f->meta;
    uint64_t *edge = calloc(m->nedges + 1, sizeof *edge);
    uint64_t *node = calloc(m->nnodes + 1, sizeof *node);
    uint8_t *hottest = calloc(m->nedges + 1, 1);
    struct pp_path_count hot[DOT_HOT_PATHS];
    struct heat h = { f->total, edge, node, hottest };
    uint64_t nhot = 0, k;
    struct path path;
    uint32_t i;

    if (!edge || !node || !hottest || !path_flows(m, f->records, f->nrecords, edge, node, err) ||
        !path_alloc(m, &path, err)) {
        free(edge);
        free(node);
        free(hottest);
        return err->msg[0] ? false : pp_fail(err, "out of memory");
    }
    /* The hottest few paths (a partial selection: the records may be many). */
    for (k = 0; k < f->nrecords; k++) {
        if (nhot < DOT_HOT_PATHS)
            hot[nhot++] = f->records[k];
        else if (by_count(&f->records[k], &hot[nhot - 1]) < 0)
            hot[nhot - 1] = f->records[k];
        else
            continue;
        qsort(hot, nhot, sizeof *hot, by_count);
    }
    if (nhot && path_decode(m, hot[0].id, &path, err))
        for (i = 0; i < path.nedges; i++)
            hottest[path.edges[i]] = 1;
    path_release(&path);

    fputs("digraph \"", out);
    dot_text(out, m->name);
    fputs("\" {\n  graph [label=\"", out);
    dot_text(out, m->name);
    if (m->file) {
        fputs(" (", out);
        dot_text(out, m->file);
        fprintf(out, ":%" PRIu32 ")", m->line);
    }
    fprintf(out, "\\n%" PRIu64 " paths, checksum 0x%016" PRIx64 "\\nruns %" PRIu64, m->npaths,
            m->checksum, f->total);
    for (k = 0; k < nhot; k++)
        fprintf(out, "%s%" PRIu64 " (%" PRIu64 " runs)", k ? ", " : "\\nhottest paths: ",
                hot[k].id, hot[k].count);
    fputs(nhot ? " (the first in bold red)" : "", out);
    fprintf(out, "\", labelloc=t, fontname=\"monospace\"];\n"
                 "  node [shape=box, fontname=\"monospace\"];\n"
                 "  edge [fontname=\"monospace\", fontsize=10];\n");
    for (i = 0; i < m->nnodes; i++)
        dot_node(out, m, i, &h);
    for (i = 0; i < m->nedges; i++)
        dot_edge(out, m, i, &h);
    fputs("}\n", out);
    free(edge);
    free(node);
    free(hottest);
    return true;
}

static void dot_usage(FILE *out)
{
    fputs("Usage: pathprof dot FILE FUNCTION\n"
          "Writes the numbered path graph of FUNCTION (NAME or FILE:NAME) in profile\n"
          "FILE in Graphviz format, e.g. pathprof dot prof main | dot -Tsvg > main.svg\n"
          "Blocks and edges carry their runs; the hotter an edge, the redder and thicker;\n"
          "the hottest path is drawn in bold red.\n",
          out);
}

int cmd_dot(int argc, char **argv)
{
    const char *args[2];
    int nargs = 0, status = 0, a;
    bool options_done = false;
    size_t index;
    struct pp_profile prof;

    for (a = 1; a < argc; a++) {
        if (!options_done && strcmp(argv[a], "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0)) {
            dot_usage(stdout);
            return finish_output(0);
        } else if (!options_done && argv[a][0] == '-' && argv[a][1] != '\0') {
            return usage_error("dot: unknown option '%s'", argv[a]);
        } else if (nargs == 2) {
            return usage_error("dot: too many arguments (pathprof dot FILE FUNCTION)");
        } else {
            args[nargs++] = argv[a];
        }
    }
    if (nargs != 2)
        return usage_error("dot: needs FILE FUNCTION");
    if (!load_profile(args[0], &prof))
        return EXIT_TROUBLE;
    /* The whole TU section: a graph whose recorded paths do not decode is
     * not one to draw. */
    if (!sections_usable(args[0], &prof, PP_NEED_BL))
        status = EXIT_TROUBLE;
    else if (find_one_function(&prof, args[0], args[1], &index, &status)) {
        struct pp_error err = { { 0 } };
        if (!dot_graph(stdout, &prof.funcs[index], &err)) {
            fflush(stdout);
            error_in_file(args[0], err.msg);
            status = EXIT_TROUBLE;
        }
    }
    profile_free(&prof);
    return finish_output(status);
}
