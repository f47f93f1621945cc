/* path_text.c - describing a path in words (see path_text.h). */
#include "path_text.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* The node an edge really leads to (a back edge's header, not EXIT). */
static uint32_t edge_target(const struct pp_edge *e)
{
    return e->kind == PATHPROF_EDGE_EXIT_DUMMY ? e->real_dst : e->dst;
}

/* A block GCC left without statements (the join after an if, the
 * landing of a switch case, the return block whose `return v` was merged
 * away) is, for a reader, where its one way out leads: the first block
 * along single ways out that has a place, or EXIT when that way is a
 * plain return. The walk stops at a block with several ways out and
 * after a few steps (cycles of empty blocks exist only in infinite loops,
 * but the bound costs nothing). */
static uint32_t skip_empty(const struct pp_func_meta *f, uint32_t node)
{
    for (int step = 0; step < 8 && node >= 2; step++) {
        const struct pp_edge *out;
        struct line_range r;
        uint32_t nout;
        if (node_lines(&f->nodes[node], &r) || f->nodes[node].nspans)
            return node;
        out = meta_out_edges(f, node, &nout);
        if (nout != 1 || out[0].kind == PATHPROF_EDGE_TERMINAL)
            return node;
        node = edge_target(&out[0]);
    }
    return node;
}

/* Where NODE is in the source: its range, or, when only -g statement
 * markers locate it (its code folded away), its first span; an empty
 * block is where it leads (skip_empty). */
static bool node_place(const struct pp_func_meta *f, uint32_t node, struct line_range *r)
{
    const struct pp_node *n;
    node = skip_empty(f, node);
    if (node < 2)
        return false;
    n = &f->nodes[node];
    if (node_lines(n, r))
        return true;
    if (!n->nspans)
        return false;
    r->file = n->spans[0].file;
    r->first = n->spans[0].first;
    r->last = n->spans[0].last;
    return true;
}

/* NODE's first (or LAST) line, without the file when it is HOME (the file of the
 * decision, nearly always): "line 12", "u.h:40" or "bb N". */
static void out_short_place(FILE *out, const struct pp_func_meta *f, uint32_t node,
                            const char *home, bool last)
{
    struct line_range r;
    uint32_t line;
    if (!node_place(f, node, &r)) {
        if (node >= 2 && skip_empty(f, node) == 1)
            fputs("return", out);
        else
            out_node(out, f, node);
        return;
    }
    line = last ? r.last : r.first;
    if (home && strcmp(home, r.file) == 0)
        fprintf(out, "line %" PRIu32, line);
    else
        out_lines(out, r.file, line, line);
}

/* Where edge E of F leads, for a reader: the place of its target, "return",
 * "loop back to PLACE", "cut to PLACE", "noreturn call". */
static void out_edge_target(FILE *out, const struct pp_func_meta *f, const struct pp_edge *e,
                            const char *home)
{
    switch (e->kind) {
    case PATHPROF_EDGE_EXIT_DUMMY:
        fputs(f->edge_closes_loop[e - f->edges] ? "loop back to " : "cut to ", out);
        out_short_place(out, f, e->real_dst, home, false);
        break;
    case PATHPROF_EDGE_TERMINAL:
        fputs("noreturn call", out);
        break;
    default:
        if (e->dst == 1)
            fputs("return", out);
        else
            out_short_place(out, f, e->dst, home, false);
    }
}

/* Two targets a reader could confuse: same kind of move, same place. */
static bool same_words(const struct pp_func_meta *f, const struct pp_edge *a,
                       const struct pp_edge *b)
{
    struct line_range ra, rb;
    uint32_t ta = edge_target(a), tb = edge_target(b);
    bool la, lb;

    if (a->kind != b->kind)
        return false;
    if (a->kind == PATHPROF_EDGE_EXIT_DUMMY &&
        f->edge_closes_loop[a - f->edges] != f->edge_closes_loop[b - f->edges])
        return false;
    if (ta == tb)
        return true;
    if (ta < 2 || tb < 2)
        return false;
    la = node_place(f, ta, &ra);
    lb = node_place(f, tb, &rb);
    if (la != lb)
        return false;
    return !la || (strcmp(ra.file, rb.file) == 0 && ra.first == rb.first);
}

/* One way out of a decision, told apart from its siblings: the bb index
 * when another way reads the same, and the edge's rank among parallel
 * edges to the same block (a switch whose cases share a body). */
static void out_way(FILE *out, const struct pp_func_meta *f, uint32_t node, uint32_t k,
                    const char *home)
{
    uint32_t n, j, twins = 0, rank = 0;
    const struct pp_edge *ways = meta_out_edges(f, node, &n), *e = &ways[k];
    bool confusable = false;
    struct line_range r;

    out_edge_target(out, f, e, home);
    for (j = 0; j < n; j++) {
        if (j == k || !same_words(f, e, &ways[j]))
            continue;
        confusable = true;
        if (edge_target(&ways[j]) == edge_target(e) && ways[j].kind == e->kind) {
            twins++;
            if (j < k)
                rank++;
        }
    }
    if (!confusable)
        return;
    /* A target without lines already reads "bb N". */
    if (edge_target(e) >= 2 && node_place(f, edge_target(e), &r))
        fprintf(out, " (bb %" PRIu32 ")", f->nodes[edge_target(e)].bb);
    if (twins)
        fprintf(out, " (edge %" PRIu32 " of %" PRIu32 " to it)", rank + 1, twins + 1);
}

void out_branch(FILE *out, const struct pp_func_meta *f, const struct path *p, uint32_t i,
                const char *indent)
{
    const struct pp_edge *taken = &f->edges[p->edges[i]];
    uint32_t n, j, node = taken->src;
    const struct pp_edge *ways = meta_out_edges(f, node, &n);
    const char *sep = "; not taken: ";
    struct line_range here;
    const char *home = node_lines(&f->nodes[node], &here) ? here.file : NULL;

    fprintf(out, "%s  branch at ", indent);
    /* A block decides at its end: its last line. */
    out_short_place(out, f, node, home, true);
    fputs(" -> ", out);
    out_way(out, f, node, (uint32_t)(taken - ways), home);
    for (j = 0; j < n; j++) {
        if (&ways[j] == taken)
            continue;
        fputs(sep, out);
        sep = ", ";
        out_way(out, f, node, j, home);
    }
    fputc('\n', out);
}

/* Whether the path takes a decision when it leaves its I-th edge's target:
 * a block with several ways out (ENTRY's choice is where the path starts,
 * told by out_path_ends). */
static bool decides(const struct pp_func_meta *f, const struct path *p, uint32_t i)
{
    return i + 1 < p->nedges && f->out_count[f->edges[p->edges[i + 1]].src] > 1;
}

/* Which lines of a range the path runs (path_runs_line). */
struct kept_lines {
    const struct pp_func_meta *f;
    const uint8_t *on_path;
    const char *file;
};

static bool keep_line(void *ctx, uint32_t line)
{
    const struct kept_lines *k = ctx;
    return path_runs_line(k->f, k->on_path, k->file, line);
}

static void print_run(FILE *out, struct source_cache *c, const struct line_range *run,
                      const struct pp_func_meta *f, const uint8_t *on_path, const char *indent)
{
    struct kept_lines k = { f, on_path, run->file };
    if (on_path)
        source_print_range_kept(out, c, run, indent, keep_line, &k);
    else
        source_print_range(out, c, run, indent);
}

/* For sorting a run's spans: the rank of the span's file among the run's
 * files (by first appearance), then its first line. */
struct ranked_span {
    struct pp_line_span span;
    uint32_t file_rank;
};

static int by_file_then_line(const void *pa, const void *pb)
{
    const struct ranked_span *a = pa, *b = pb;
    if (a->file_rank != b->file_rank)
        return a->file_rank < b->file_rank ? -1 : 1;
    return (a->span.first > b->span.first) - (a->span.first < b->span.first);
}

/* The exact lines of blocks FROM .. TO-1 of P (straight-line code: no
 * decision between them), one group per file in the order the path first
 * comes to it, each line once. Returns whether any line was printed; false
 * too when out of memory (then "(lines not shown: out of memory)"). */
static bool print_exact_run(FILE *out, struct source_cache *c, const struct pp_func_meta *f,
                            const struct path *p, uint32_t from, uint32_t to,
                            const char *indent)
{
    uint32_t i, k, n = 0, nfiles = 0, start;
    uint64_t total = 0;
    struct ranked_span *all;
    struct pp_line_span *plain;
    const char **files;

    for (i = from; i < to; i++)
        total += f->nodes[path_block(f, p, i)].nspans;
    if (total == 0)
        return false;
    all = total <= SIZE_MAX / sizeof *all ? malloc((size_t)total * sizeof *all) : NULL;
    files = total <= SIZE_MAX / sizeof *files ? malloc((size_t)total * sizeof *files) : NULL;
    if (!all || !files) {
        free(all);
        free(files);
        fprintf(out, "%s(lines not shown: out of memory)\n", indent);
        return true;
    }
    for (i = from; i < to; i++) {
        const struct pp_node *node = &f->nodes[path_block(f, p, i)];
        for (k = 0; k < node->nspans; k++) {
            uint32_t r = 0;
            while (r < nfiles && strcmp(files[r], node->spans[k].file) != 0)
                r++;
            if (r == nfiles)
                files[nfiles++] = node->spans[k].file;
            all[n].span = node->spans[k];
            all[n++].file_rank = r;
        }
    }
    qsort(all, n, sizeof *all, by_file_then_line);
    /* Merge what overlaps or touches, within one file. */
    k = 0;
    for (i = 0; i < n; i++) {
        if (k && all[k - 1].file_rank == all[i].file_rank &&
            all[i].span.first <= (uint64_t)all[k - 1].span.last + 1) {
            if (all[i].span.last > all[k - 1].span.last)
                all[k - 1].span.last = all[i].span.last;
        } else {
            all[k++] = all[i];
        }
    }
    n = k;
    /* Back to plain spans, file by file. */
    plain = malloc((size_t)n * sizeof *plain);
    for (start = 0; plain && start < n; start = i) {
        for (i = start; i < n && all[i].file_rank == all[start].file_rank; i++)
            plain[i - start] = all[i].span;
        source_print_lines(out, c, files[all[start].file_rank], plain, i - start, indent);
    }
    if (!plain)
        fprintf(out, "%s(lines not shown: out of memory)\n", indent);
    free(plain);
    free(all);
    free(files);
    return true;
}

/* With the line table: each stretch between two decisions prints the
 * exact lines its blocks run, then the decision which way the path went. */
static void out_path_lines_exact(FILE *out, struct source_cache *c,
                                 const struct pp_func_meta *f, const struct path *p,
                                 const char *indent)
{
    uint32_t i, start = 0;
    bool any = false;

    for (i = 0; i < path_nblocks(p); i++) {
        if (decides(f, p, i)) {
            any |= print_exact_run(out, c, f, p, start, i + 1, indent);
            out_branch(out, f, p, i + 1, indent);
            any = true;
            start = i + 1;
        }
    }
    any |= print_exact_run(out, c, f, p, start, path_nblocks(p), indent);
    if (!any)
        fprintf(out, "%s(no source lines recorded)\n", indent);
}

void out_path_lines(FILE *out, struct source_cache *c, const struct pp_func_meta *f,
                    const struct path *p, const char *indent)
{
    struct line_range run;
    bool open = false, any = false;
    uint8_t *on_path;
    uint32_t i;

    if (meta_has_lines(f)) {
        out_path_lines_exact(out, c, f, p, indent);
        return;
    }
    on_path = malloc(f->nnodes);
    /* Without memory for the map every line of a range is printed. */
    if (on_path)
        path_mark_nodes(f, p, on_path);
    for (i = 0; i < path_nblocks(p); i++) {
        struct line_range r;
        if (node_lines(&f->nodes[path_block(f, p, i)], &r)) {
            /* Straight-line code (no decision since the run began) whose
             * lines follow on reads as one range. */
            if (open && strcmp(run.file, r.file) == 0 && r.first >= run.first &&
                r.first <= (uint64_t)run.last + 1) {
                if (r.last > run.last)
                    run.last = r.last;
            } else {
                if (open)
                    print_run(out, c, &run, f, on_path, indent);
                run = r;
                open = any = true;
            }
        }
        if (decides(f, p, i)) {
            if (open)
                print_run(out, c, &run, f, on_path, indent);
            open = false;
            out_branch(out, f, p, i + 1, indent);
            any = true;
        }
    }
    if (open)
        print_run(out, c, &run, f, on_path, indent);
    if (!any)
        fprintf(out, "%s(no source lines recorded)\n", indent);
    free(on_path);
}

uint32_t ids_repeat(const uint64_t *ids, uint32_t len, uint32_t i)
{
    uint32_t j = i + 1;
    while (j < len && ids[j] == ids[i])
        j++;
    return j - i;
}

void out_id_runs(FILE *out, const uint64_t *ids, uint32_t len)
{
    uint32_t i, run;
    for (i = 0; i < len; i += run) {
        run = ids_repeat(ids, len, i);
        fprintf(out, " %" PRIu64, ids[i]);
        if (run > 1)
            fprintf(out, " x%" PRIu32, run);
    }
}

void out_iteration_marker(FILE *out, uint64_t id, uint32_t i, uint32_t run)
{
    if (run > 1)
        fprintf(out, "    --- iterations %" PRIu32 "-%" PRIu32 " (path %" PRIu64 " x%" PRIu32
                     ") ---\n", i + 1, i + run, id, run);
    else
        fprintf(out, "    --- iteration %" PRIu32 " (path %" PRIu64 ") ---\n", i + 1, id);
}
