/* tree.c - `pathprof tree FILE FUNCTION ID [--prune PERCENT]`: the k-IPF
 * subtree rooted at one BL path, like the paper's Figure 4: what tends to
 * follow that path, for up to k - 1 more iterations. Nodes whose count is
 * below PERCENT of the root's are pruned (with their subtrees: counts only
 * fall going down); each node shows its share of its parent's count and a
 * short summary of its source lines. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "read/section_status.h"
#include "read/kipf.h"
#include "graph/path.h"
#include "out/text_out.h"

#define DEFAULT_PRUNE 5.0

/* "fig3.c:4-5 fig3.c:8": the path's merged line ranges on one line. */
static void out_line_summary(FILE *out, const struct pp_func_meta *m, const struct path *path,
                             struct line_range *ranges)
{
    uint32_t n = path_line_ranges(m, path, ranges), i;
    for (i = 0; i < n; i++) {
        fputs(i ? " " : "  ", out);
        out_lines(out, ranges[i].file, ranges[i].first, ranges[i].last);
    }
    if (n == 0)
        fputs("  (no source lines)", out);
}

struct tree_out {
    const struct pp_kipf *k;
    const struct pp_func_meta *m;
    double floor;               /* counts below it are pruned */
    struct path path;
    struct line_range *ranges;
};

static bool out_tree_node(FILE *out, struct tree_out *t, size_t i, uint32_t indent,
                     struct pp_error *err)
{
    const struct kipf_node *n = &t->k->nodes[i];
    size_t c, pruned = 0;
    uint64_t pruned_count = 0;

    if (!path_decode(t->m, n->id, &t->path, err))
        return pp_context(err, "function %s", t->m->name);
    fprintf(out, "%*spath %" PRIu64 "  count %" PRIu64, (int)indent, "", n->id, n->count);
    if (n->parent != KIPF_NONE)
        fprintf(out, "  %.1f%%", 100.0 * (double)n->count / (double)t->k->nodes[n->parent].count);
    out_line_summary(out, t->m, &t->path, t->ranges);
    fputc('\n', out);
    for (c = kipf_first_child(t->k, i); c != KIPF_NONE; c = kipf_next_sibling(t->k, c)) {
        if ((double)t->k->nodes[c].count < t->floor) {
            pruned++;
            pruned_count += t->k->nodes[c].count;
        } else if (!out_tree_node(out, t, c, indent + 2, err)) {
            return false;
        }
    }
    if (pruned)
        fprintf(out, "%*s(%zu more below the threshold, count %" PRIu64 " in all)\n",
                (int)indent + 2, "", pruned, pruned_count);
    return true;
}

static bool out_tree(FILE *out, const struct pp_profile *p, size_t root, double percent,
                     struct pp_error *err)
{
    struct tree_out t = { p->kipf, p->funcs[p->kipf->nodes[root].func].meta, 0, { 0 }, NULL };
    bool ok;

    t.floor = percent / 100.0 * (double)p->kipf->nodes[root].count;
    if (!path_alloc(t.m, &t.path, err))
        return false;
    t.ranges = malloc((size_t)t.m->nnodes * sizeof *t.ranges);
    if (!t.ranges) {
        path_release(&t.path);
        return pp_fail(err, "out of memory");
    }
    fputs("function   ", out);
    out_func(out, t.m);
    fprintf(out, "\ntree       the %" PRIu32 "-IPF below path %" PRIu64 ", nodes under %g%% "
                 "of its count pruned; each node: path, count, %% of its parent\n\n",
            p->kipf->k, p->kipf->nodes[root].id, percent);
    ok = out_tree_node(out, &t, root, 0, err);
    free(t.ranges);
    path_release(&t.path);
    return ok;
}

static void tree_usage(FILE *out)
{
    fputs("Usage: pathprof tree FILE FUNCTION ID [--prune PERCENT]\n"
          "The k-iteration path tree of profile FILE (PATHPROF_ANALYZER=ksf) rooted at\n"
          "path ID of FUNCTION (NAME or FILE:NAME): the paths that followed it, for up\n"
          "to k - 1 more iterations, each with its count and share of its parent.\n"
          "  --prune PERCENT  leave out nodes below PERCENT of the root's count\n"
          "                   (default 5; 0 shows every node)\n",
          out);
}

static bool parse_percent(const char *s, double *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    *v = strtod(s, &end);
    return *end == '\0' && *v <= 100.0;
}

int cmd_tree(int argc, char **argv)
{
    const char *args[3];
    int nargs = 0, status = 0, a;
    bool options_done = false;
    double percent = DEFAULT_PRUNE;
    uint64_t id;
    size_t index, root;
    struct pp_profile prof;
    struct pp_error err;

    for (a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            tree_usage(stdout);
            return finish_output(0);
        } else if (!options_done && (strcmp(arg, "--prune") == 0 ||
                                     strncmp(arg, "--prune=", 8) == 0)) {
            const char *v = arg[7] == '=' ? arg + 8 : a + 1 < argc ? argv[++a] : "";
            if (!parse_percent(v, &percent))
                return usage_error("tree: --prune needs a percentage from 0 to 100");
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("tree: unknown option '%s'", arg);
        } else if (nargs == 3) {
            return usage_error("tree: too many arguments (pathprof tree FILE FUNCTION ID)");
        } else {
            args[nargs++] = arg;
        }
    }
    if (nargs != 3)
        return usage_error("tree: needs FILE FUNCTION ID");
    if (!parse_u64(args[2], &id))
        return usage_error("tree: path ID '%s' is not a number", args[2]);
    if (!load_profile(args[0], &prof))
        return EXIT_TROUBLE;
    if (!prof.has_kipf) {
        error_in_file(args[0], "no KIPF section: k-iteration paths are recorded in stream "
                               "mode with PATHPROF_ANALYZER=ksf");
        status = EXIT_NOT_FOUND;
    } else if (!sections_usable(args[0], &prof, PP_NEED_KIPF)) {
        status = EXIT_TROUBLE;
    } else if (find_one_function(&prof, args[0], args[1], &index, &status)) {
        root = kipf_find_root(prof.kipf, index, id);
        if (root == KIPF_NONE) {
            fputs("pathprof: ", stderr);
            out_safe(stderr, args[0]);
            fprintf(stderr, ": path %" PRIu64 " of ", id);
            out_safe(stderr, prof.funcs[index].meta->name);
            fputs(" is not in the k-IPF (it never ran)\n", stderr);
            status = EXIT_NOT_FOUND;
        } else if (!out_tree(stdout, &prof, root, percent, &err)) {
            fflush(stdout);
            error_in_file(args[0], err.msg);
            status = EXIT_TROUBLE;
        }
    }
    profile_free(&prof);
    return finish_output(status);
}
