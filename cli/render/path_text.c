/* path_text.c - describing a path in words (see path_text.h). */
#include "path_text.h"

#include <stdlib.h>

#include "pathprof-abi.h"
#include "out/text_out.h"

void out_node_place(FILE *out, const struct pp_func_meta *f, uint32_t node)
{
    struct line_range r;
    if (node_lines(&f->nodes[node], &r))
        out_lines(out, r.file, r.first, r.first);
    else
        out_node(out, f, node);
}

void out_path_ends(FILE *out, const struct pp_func_meta *f, const struct path *p)
{
    uint32_t first = f->edges[p->edges[0]].dst;

    switch (path_start_kind(f, p)) {
    case PATH_START_ENTRY:
        fputs("starts at function entry", out);
        break;
    case PATH_START_LOOP:
        fputs("starts at loop header ", out);
        out_node_place(out, f, first);
        fputs(" after back edge", out);
        break;
    case PATH_START_CUT:
        fputs("starts at cut point ", out);
        out_node_place(out, f, first);
        break;
    case PATH_START_OTHER:
        fputs("starts at ", out);
        out_node_place(out, f, first);
        fputs(" entered abnormally (setjmp, exception handler...)", out);
        break;
    }
    switch (path_end_kind(f, p)) {
    case PATH_END_RETURN:
        fputs("; ends at return", out);
        break;
    case PATH_END_BACKEDGE:
        fputs("; ends taking back edge to ", out);
        out_node_place(out, f, path_end_target(f, p));
        break;
    case PATH_END_CUT:
        fputs("; ends at edge to cut point ", out);
        out_node_place(out, f, path_end_target(f, p));
        break;
    case PATH_END_TERMINAL:
        fputs("; ends at noreturn call (exit, abort, trap...)", out);
        break;
    }
}

void out_path_lines(FILE *out, struct source_cache *c, const struct pp_func_meta *f,
                    const struct path *p, const char *indent)
{
    struct line_range *ranges = malloc(p->nedges * sizeof *ranges);
    uint32_t n, i;

    if (!ranges)
        return;
    n = path_line_ranges(f, p, ranges);
    for (i = 0; i < n; i++)
        source_print_range(out, c, &ranges[i], indent);
    if (n == 0)
        fprintf(out, "%s(no source lines recorded)\n", indent);
    free(ranges);
}
