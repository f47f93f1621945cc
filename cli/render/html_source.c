/* html_source.c - one source file's page: its lines coloured by how often
 * they ran, beside them each function's hottest paths (choose one: its
 * lines light up and the way it took at each branch is shown), below them
 * each function's other views (html_views.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "graph/path.h"
#include "html_site.h"
#include "path_text.h"
#include "out/html_out.h"

static const char *const state_class[] = { "", "miss", "hit", "partial" };

static const struct site *sorting;

static int by_total(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    uint64_t ta = sorting->funcs[a].total, tb = sorting->funcs[b].total;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return (a > b) - (a < b);
}

static int by_count(const void *pa, const void *pb)
{
    const struct pp_path_count *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static int by_line(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* A growing list of line numbers. */
struct line_list {
    uint32_t *v, n, cap;
};

static bool line_list_add(struct line_list *l, uint32_t line)
{
    if (l->n == l->cap) {
        uint32_t ncap = l->cap ? l->cap * 2 : 64;
        uint32_t *bigger = realloc(l->v, ncap * sizeof *bigger);
        if (!bigger)
            return false;
        l->v = bigger;
        l->cap = ncap;
    }
    l->v[l->n++] = line;
    return true;
}

/* The lines of FILE one block of the path runs, into L. With the line
 * table exactly its lines (as the text report prints them); without, its
 * range's first and last line and the code lines between that the path
 * runs (path_runs_line). */
static bool block_lines_in(struct line_list *l, const struct pp_func_meta *m, uint32_t node,
                           const uint8_t *on_path, const char *file, struct source_cache *src)
{
    const struct pp_node *n = &m->nodes[node];
    struct line_range r;
    uint32_t k, line;

    if (meta_has_lines(m)) {
        for (k = 0; k < n->nspans; k++) {
            if (strcmp(n->spans[k].file, file) != 0)
                continue;
            for (line = n->spans[k].first; line <= n->spans[k].last; line++) {
                if (!line_list_add(l, line))
                    return false;
                if (line == UINT32_MAX)
                    break;
            }
        }
        return true;
    }
    if (!node_lines(n, &r) || strcmp(r.file, file) != 0)
        return true;
    for (line = r.first; line <= r.last && line - r.first < 100000; line++) {
        if (line != r.first && line != r.last &&
            (!source_is_code(src, file, line) || !path_runs_line(m, on_path, file, line)))
            continue;
        if (!line_list_add(l, line))
            return false;
        if (line == UINT32_MAX)
            break;
    }
    return true;
}

/* The lines of FILE the path runs (block_lines_in), sorted, once each, as
 * "3 4 5 8". */
static bool out_path_lines_attr(FILE *out, const struct pp_func_meta *m, const struct path *p,
                                const char *file, struct source_cache *src,
                                struct pp_error *err)
{
    struct line_list lines = { NULL, 0, 0 };
    uint8_t *on_path = malloc(m->nnodes);
    uint32_t i;
    bool ok = on_path != NULL;

    if (ok)
        path_mark_nodes(m, p, on_path);
    for (i = 0; ok && i < path_nblocks(p); i++)
        ok = block_lines_in(&lines, m, path_block(m, p, i), on_path, file, src);
    if (!ok) {
        free(lines.v);
        free(on_path);
        return pp_fail(err, "out of memory");
    }
    if (lines.n)
        qsort(lines.v, lines.n, sizeof *lines.v, by_line);
    for (i = 0; i < lines.n; i++)
        if (i == 0 || lines.v[i] != lines.v[i - 1])
            fprintf(out, i ? " %" PRIu32 : "%" PRIu32, lines.v[i]);
    free(lines.v);
    free(on_path);
    return true;
}

/* The path in words (the text report's), for the steps panel. */
static bool out_steps(FILE *out, const struct pp_func_meta *m, const struct path *p,
                      struct source_cache *src, struct pp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);

    if (!mem)
        return pp_fail(err, "out of memory");
    out_path_ends(mem, m, p);
    fputc('\n', mem);
    out_path_lines(mem, src, m, p, "");
    if (fclose(mem) != 0) {
        free(text);
        return pp_fail(err, "out of memory");
    }
    html_text_n(out, text, len);
    free(text);
    return true;
}

/* One function's hottest paths, each a selectable row. */
static bool out_func_paths(FILE *out, const struct site *s, size_t fn, const char *file,
                           struct source_cache *src, const struct html_options *o,
                           FILE *steps, struct pp_error *err)
{
    const struct site_func *f = &s->funcs[fn];
    struct pp_path_count *v = malloc((f->nrecords + 1) * sizeof *v);
    struct path path;
    uint64_t i;

    if (!v)
        return pp_fail(err, "out of memory");
    if (!path_alloc(f->meta, &path, err)) {
        free(v);
        return false;
    }
    memcpy(v, f->records, f->nrecords * sizeof *v);
    qsort(v, f->nrecords, sizeof *v, by_count);
    fprintf(out, "<h3 id=\"fn%zu\">", fn);
    html_func_name(out, f->meta);
    fprintf(out, "</h3>\n<div>%" PRIu64 " paths executed (%.1f%% of all), %" PRIu64 " of %"
                 PRIu64 " paths ran</div>\n<table class=\"paths\"><tr><th class=\"n\">#</th>"
                 "<th>path</th><th class=\"n\">count</th><th class=\"n\">%%</th>"
                 "<th class=\"n\">blocks</th></tr>\n", f->total,
            s->total ? 100.0 * (double)f->total / (double)s->total : 0.0, f->nrecords,
            f->meta->npaths);
    for (i = 0; i < f->nrecords && (!o->top || i < o->top); i++) {
        if (!path_decode(f->meta, v[i].id, &path, err)) {
            pp_context(err, "function %s", f->meta->name);
            break;
        }
        fprintf(out, "<tr class=\"path\" id=\"p-%zu-%" PRIu64 "\" data-title=\"", fn, v[i].id);
        html_text(out, f->meta->name);
        fprintf(out, " path %" PRIu64 "\" data-lines=\"", v[i].id);
        if (!out_path_lines_attr(out, f->meta, &path, file, src, err))
            break;
        fprintf(out, "\"><td class=\"n\">%" PRIu64 "</td><td>path %" PRIu64 "</td>"
                     "<td class=\"n count\">%" PRIu64 "</td><td class=\"n\">%.1f%%</td>"
                     "<td class=\"n\">%" PRIu32 "</td></tr>\n", i + 1, v[i].id, v[i].count,
                f->total ? 100.0 * (double)v[i].count / (double)f->total : 0.0,
                path_nblocks(&path));
        fprintf(steps, "<pre hidden id=\"s-p-%zu-%" PRIu64 "\">", fn, v[i].id);
        if (!out_steps(steps, f->meta, &path, src, err))
            break;
        fputs("</pre>\n", steps);
    }
    path_release(&path);
    free(v);
    fputs("</table>\n", out);
    return i >= f->nrecords || (o->top && i >= o->top);
}

static void out_lines(FILE *out, const struct site_file *sf, struct source_cache *src)
{
    bool readable = source_readable(src, sf->name);
    uint32_t n = readable ? source_nlines(src, sf->name) : 0, l;

    if (sf->nlines > n)
        n = sf->nlines;
    fputs("<table class=\"src\">\n", out);
    for (l = 1; l <= n; l++) {
        size_t len = 0;
        const unsigned char *text = source_line(src, sf->name, l, &len);
        uint8_t state = l <= sf->nlines ? sf->state[l] : SITE_NONE;
        if (!source_is_code(src, sf->name, l))
            state = SITE_NONE;
        if (!readable && state == SITE_NONE)
            continue;
        fprintf(out, "<tr id=\"L%" PRIu32 "\" class=\"%s\"><td class=\"ln\">%" PRIu32
                     "</td><td class=\"cnt\">", l, state_class[state], l);
        if (state != SITE_NONE)
            fprintf(out, "%" PRIu64, sf->count[l]);
        fputs("</td><td class=\"code\">", out);
        if (text)
            html_text_n(out, (const char *)text, len);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

bool html_source(FILE *out, const struct site *s, size_t fi, struct source_cache *src,
                 const struct html_options *o, struct pp_error *err)
{
    const struct site_file *sf = &s->files[fi];
    size_t *funcs = malloc((s->nfuncs + 1) * sizeof *funcs), n = 0, i;
    char *steps_text = NULL;
    size_t steps_len = 0;
    FILE *steps;
    bool ok = true;

    if (!funcs)
        return pp_fail(err, "out of memory");
    steps = open_memstream(&steps_text, &steps_len);
    if (!steps) {
        free(funcs);
        return pp_fail(err, "out of memory");
    }
    for (i = 0; i < s->nfuncs; i++)
        if (s->funcs[i].total && s->funcs[i].meta->file &&
            strcmp(s->funcs[i].meta->file, sf->name) == 0)
            funcs[n++] = i;
    sorting = s;
    qsort(funcs, n, sizeof *funcs, by_total);

    html_page_begin(out, sf->name);
    fputs("<nav><a href=\"index.html\">index</a> &rsaquo; ", out);
    html_text(out, sf->name);
    fputs("</nav>\n<main>\n<h1>", out);
    html_text(out, sf->name);
    fprintf(out, "</h1>\n<p>%" PRIu64 " paths executed in the functions of this file. "
                 "<span class=\"legend\"><span style=\"background:#d7f5d7\">ran</span>"
                 "<span style=\"background:#fbd7d7\">never ran</span>"
                 "<span style=\"background:#fbf3c4\">a way out never taken</span></span> "
                 "Choose a path to light up its lines.</p>\n", sf->flow);
    if (!source_readable(src, sf->name)) {
        fputs("<p class=\"note\">Source not found: ", out);
        html_text(out, sf->name);
        fputs(" (relative names are looked up from the directory pathprof html ran in); "
              "the lines the profile names are listed without their text.</p>\n", out);
    }
    fputs("<div class=\"layout\">\n<aside>\n<div id=\"selected\">no path chosen</div>"
          "<div id=\"steps\"></div>\n", out);
    for (i = 0; i < n && ok; i++)
        ok = out_func_paths(out, s, funcs[i], sf->name, src, o, steps, err);
    fputs("</aside>\n", out);
    out_lines(out, sf, src);
    fputs("</div>\n", out);
    for (i = 0; i < n && ok; i++)
        ok = html_func_views(out, s, funcs[i], src, o, err);
    if (fclose(steps) != 0 && ok)
        ok = pp_fail(err, "out of memory");
    if (steps_text)
        fwrite(steps_text, 1, steps_len, out);
    fputs("</main>\n", out);
    html_page_end(out);
    free(steps_text);
    free(funcs);
    return ok;
}
