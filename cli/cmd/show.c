/* show.c - `pathprof show FILE FUNCTION ID`: one path taken apart.
 *
 * For the programmer who wants to know exactly what a path ID means: the
 * graph edges it takes with their kind and value (the values add up to the
 * ID), the blocks, the source lines, and how often it ran. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "read/section_status.h"
#include "graph/path.h"
#include "render/path_text.h"
#include "pathprof-abi.h"
#include "render/source_lines.h"
#include "out/text_out.h"
#include "query/func_match.h"

static const char *edge_kind_name(uint32_t kind)
{
    switch (kind) {
    case PATHPROF_EDGE_REAL: return "real";
    case PATHPROF_EDGE_ENTRY_DUMMY: return "entry-dummy";
    case PATHPROF_EDGE_EXIT_DUMMY: return "exit-dummy";
    default: return "terminal";
    }
}

/* "bb 3 -> bb 4" padded, for the edge table. */
static void out_edge_ends(FILE *out, const struct pp_func_meta *m, uint32_t src, uint32_t dst)
{
    char a[24], b[24], both[56];
    node_name(a, sizeof a, m, src);
    node_name(b, sizeof b, m, dst);
    snprintf(both, sizeof both, "%s -> %s", a, b);
    fprintf(out, "%-22s", both);
}

static void out_show(FILE *out, const struct pp_func *f, const struct path *p,
                     struct source_cache *src)
{
    const struct pp_func_meta *m = f->meta;
    uint32_t i;

    fputs("function  ", out);
    out_func(out, m);
    fprintf(out, "\nchecksum  0x%016" PRIx64 "\nflags     ", m->checksum);
    out_flags(out, m->flags);
    fprintf(out, "\npath      %" PRIu64 " of %" PRIu64 " (IDs 0-%" PRIu64 ")\n", p->id,
            m->npaths, m->npaths - 1);
    fprintf(out, "count     %" PRIu64 "\nlength    %" PRIu32 " blocks\n", func_path_count(f, p->id),
            path_nblocks(p));
    fputs("runs      ", out);
    out_path_ends(out, m, p);
    fputs("\n\nedges (values add up to the path ID)\n", out);
    for (i = 0; i < p->nedges; i++) {
        const struct pp_edge *e = &m->edges[p->edges[i]];
        fputs("  ", out);
        out_edge_ends(out, m, e->src, e->dst);
        fprintf(out, " %-11s  val %-6" PRIu64 " inc %" PRId64, edge_kind_name(e->kind), e->val,
                e->inc);
        if (e->kind == PATHPROF_EDGE_EXIT_DUMMY) {
            fputs("  stands for ", out);
            out_node(out, m, e->src);
            fputs(" -> ", out);
            out_node(out, m, e->real_dst);
            fputs(m->edge_closes_loop[p->edges[i]] ? " (back edge)" : " (edge into a cut point)",
                  out);
        }
        fputc('\n', out);
    }
    fputs("\nblocks   ", out);
    for (i = 0; i < path_nblocks(p); i++)
        fprintf(out, " %" PRIu32, m->nodes[path_block(m, p, i)].bb);
    fputs("\n\nlines\n", out);
    out_path_lines(out, src, m, p, "  ");
}

static void show_usage(FILE *out)
{
    fputs("Usage: pathprof show FILE FUNCTION ID\n"
          "Decodes path ID of FUNCTION (NAME or FILE:NAME) in profile FILE: the\n"
          "edges it takes, its blocks, its source lines and its count.\n",
          out);
}

int cmd_show(int argc, char **argv)
{
    const char *args[3];
    int nargs = 0, status = 0, a;
    bool options_done = false;
    uint64_t id;
    size_t index;
    struct pp_profile prof;
    struct pp_error err;
    struct path path;

    for (a = 1; a < argc; a++) {
        if (!options_done && strcmp(argv[a], "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0)) {
            show_usage(stdout);
            return finish_output(0);
        } else if (!options_done && argv[a][0] == '-' && argv[a][1] != '\0') {
            return usage_error("show: unknown option '%s'", argv[a]);
        } else if (nargs == 3) {
            return usage_error("show: too many arguments (pathprof show FILE FUNCTION ID)");
        } else {
            args[nargs++] = argv[a];
        }
    }
    if (nargs != 3)
        return usage_error("show: needs FILE FUNCTION ID");
    if (!parse_u64(args[2], &id))
        return usage_error("show: path ID '%s' is not a number", args[2]);
    if (!load_profile(args[0], &prof))
        return EXIT_TROUBLE;
    if (!sections_usable(args[0], &prof, PP_NEED_BL))
        status = EXIT_TROUBLE;
    else if (find_one_function(&prof, args[0], args[1], &index, &status)) {
        const struct pp_func *f = &prof.funcs[index];
        if (id >= f->meta->npaths) {
            fputs("pathprof: ", stderr);
            out_safe(stderr, args[0]);
            fprintf(stderr, ": no path %" PRIu64 " in ", id);
            out_safe(stderr, f->meta->name);
            fprintf(stderr, " (its IDs are 0-%" PRIu64 ")\n", f->meta->npaths - 1);
            status = EXIT_NOT_FOUND;
        } else if (!path_alloc(f->meta, &path, &err)) {
            error_in_file(args[0], err.msg);
            status = EXIT_TROUBLE;
        } else {
            if (path_decode(f->meta, id, &path, &err)) {
                struct source_cache *src = source_cache_new();
                out_show(stdout, f, &path, src);
                source_out_missing(stdout, src, "\nsources   not found: ");
                source_cache_free(src);
            } else {
                /* IDs that were never recorded are checked only now. */
                pp_context(&err, "function %s", f->meta->name);
                error_in_file(args[0], err.msg);
                status = EXIT_TROUBLE;
            }
            path_release(&path);
        }
    }
    profile_free(&prof);
    return finish_output(status);
}
