/* dot.c - `pathprof dot FILE FUNCTION`: the numbered path graph for
 * Graphviz, to see how IDs were assigned: nodes are blocks (bb index and
 * source lines), edges carry their Ball-Larus value and probe increment,
 * dummy edges are dashed and say which real edge they stand for, and the
 * real back edges themselves are drawn dotted and grey (not part of the
 * graph that is numbered). */
#include <inttypes.h>
#include <string.h>

#include "commands.h"
#include "read/section_status.h"
#include "graph/path.h"
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

static void dot_node(FILE *out, const struct pp_func_meta *m, uint32_t node)
{
    struct line_range r;
    fprintf(out, "  n%" PRIu32 " [label=\"", node);
    if (node < 2) {
        fputs(node == 0 ? "ENTRY\", shape=oval];\n" : "EXIT\", shape=oval];\n", out);
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
    fputs("\"];\n", out);
}

static void dot_edge(FILE *out, const struct pp_func_meta *m, uint32_t index)
{
    const struct pp_edge *e = &m->edges[index];
    char src[24], dst[24];

    fprintf(out, "  n%" PRIu32 " -> n%" PRIu32 " [label=\"val %" PRIu64 "\\ninc %" PRId64,
            e->src, e->dst, e->val, e->inc);
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

static void dot_graph(FILE *out, const struct pp_func_meta *m)
{
    uint32_t i;

    fputs("digraph \"", out);
    dot_text(out, m->name);
    fputs("\" {\n  graph [label=\"", out);
    dot_text(out, m->name);
    if (m->file) {
        fputs(" (", out);
        dot_text(out, m->file);
        fprintf(out, ":%" PRIu32 ")", m->line);
    }
    fprintf(out, "\\n%" PRIu64 " paths, checksum 0x%016" PRIx64
                 "\", labelloc=t, fontname=\"monospace\"];\n"
                 "  node [shape=box, fontname=\"monospace\"];\n"
                 "  edge [fontname=\"monospace\", fontsize=10];\n",
            m->npaths, m->checksum);
    for (i = 0; i < m->nnodes; i++)
        dot_node(out, m, i);
    for (i = 0; i < m->nedges; i++)
        dot_edge(out, m, i);
    fputs("}\n", out);
}

static void dot_usage(FILE *out)
{
    fputs("Usage: pathprof dot FILE FUNCTION\n"
          "Writes the numbered path graph of FUNCTION (NAME or FILE:NAME) in profile\n"
          "FILE in Graphviz format, e.g. pathprof dot prof main | dot -Tsvg > main.svg\n",
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
    else if (find_one_function(&prof, args[0], args[1], &index, &status))
        dot_graph(stdout, prof.funcs[index].meta);
    profile_free(&prof);
    return finish_output(status);
}
