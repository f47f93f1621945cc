/* html_index.c - index.html: each profile's header (the report's own),
 * then the functions and the source files ranked by path flow. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html_site.h"
#include "report_header.h"
#include "out/html_out.h"

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void out_bar(FILE *out, uint64_t part, uint64_t whole)
{
    fprintf(out, "<span class=\"bar\" style=\"width:%.1fpx\"></span>",
            1.0 + 1.2 * percent(part, whole));
}

/* The report's header of profile P, as text in a <pre>. */
static bool out_profile(FILE *out, const struct site *s, size_t p, struct pp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);

    if (!mem)
        return pp_fail(err, "out of memory");
    report_header(mem, &s->profs[p]);
    if (fclose(mem) != 0) {
        free(text);
        return pp_fail(err, "out of memory");
    }
    fputs("<h2>Profile ", out);
    html_text(out, s->names[p]);
    fputs("</h2>\n<pre class=\"header\">", out);
    html_text_n(out, text, len);
    fputs("</pre>\n", out);
    free(text);
    return true;
}

static const struct site *sorting;

static int by_total(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    uint64_t ta = sorting->funcs[a].total, tb = sorting->funcs[b].total;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return (a > b) - (a < b);
}

static bool out_functions(FILE *out, const struct site *s, struct pp_error *err)
{
    size_t *order = malloc((s->nfuncs + 1) * sizeof *order), n = 0, i;

    if (!order)
        return pp_fail(err, "out of memory");
    for (i = 0; i < s->nfuncs; i++)
        if (s->funcs[i].total)
            order[n++] = i;
    sorting = s;
    qsort(order, n, sizeof *order, by_total);
    fprintf(out, "<h2>Functions by path flow</h2>\n<p>%zu of %zu instrumented functions ran; "
                 "%" PRIu64 " paths executed in all.</p>\n"
                 "<table id=\"functions\"><tr><th class=\"n\">#</th><th>function</th><th>file"
                 "</th><th class=\"n\">paths executed</th><th class=\"n\">%%</th><th></th>"
                 "<th class=\"n\">paths run/numbered</th></tr>\n", n, s->nfuncs, s->total);
    for (i = 0; i < n; i++) {
        const struct site_func *f = &s->funcs[order[i]];
        size_t fi = html_func_file(s, order[i]);
        char page[32];
        fprintf(out, "<tr class=\"func\"><td class=\"n\">%zu</td><td class=\"name\">", i + 1);
        if (fi != SIZE_MAX) {
            html_file_page_name(page, sizeof page, fi);
            fprintf(out, "<a href=\"%s#fn%zu\">", page, order[i]);
        }
        html_func_name(out, f->meta);
        fputs(fi != SIZE_MAX ? "</a></td><td>" : "</td><td>", out);
        html_text(out, f->meta->file ? f->meta->file : "(no file)");
        fprintf(out, ":%" PRIu32 "</td><td class=\"n count\">%" PRIu64 "</td><td class=\"n\">"
                     "%.1f%%</td><td>", f->meta->line, f->total, percent(f->total, s->total));
        out_bar(out, f->total, s->total);
        fprintf(out, "</td><td class=\"n\">%" PRIu64 "/%" PRIu64 "</td></tr>\n", f->nrecords,
                f->meta->npaths);
    }
    fputs("</table>\n", out);
    free(order);
    return true;
}

static void out_files(FILE *out, const struct site *s, struct source_cache *src)
{
    size_t i;
    uint32_t l;

    fputs("<h2>Source files by path flow</h2>\n<table id=\"files\"><tr><th>file</th>"
          "<th class=\"n\">paths executed</th><th class=\"n\">%</th><th></th>"
          "<th class=\"n\">lines run</th><th class=\"n\">never run</th>"
          "<th class=\"n\">partial</th><th></th></tr>\n", out);
    for (i = 0; i < s->nfiles; i++) {
        const struct site_file *sf = &s->files[i];
        uint32_t hit = 0, miss = 0, partial = 0;
        char page[32];
        for (l = 1; l <= sf->nlines; l++) {
            if (!source_is_code(src, sf->name, l))
                continue;
            hit += sf->state[l] == SITE_HIT;
            miss += sf->state[l] == SITE_MISS;
            partial += sf->state[l] == SITE_PARTIAL;
        }
        html_file_page_name(page, sizeof page, i);
        fprintf(out, "<tr><td><a href=\"%s\">", page);
        html_text(out, sf->name);
        fprintf(out, "</a></td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%.1f%%</td><td>",
                sf->flow, percent(sf->flow, s->total));
        out_bar(out, sf->flow, s->total);
        fprintf(out, "</td><td class=\"n\">%" PRIu32 "</td><td class=\"n\">%" PRIu32
                     "</td><td class=\"n\">%" PRIu32 "</td><td>%s</td></tr>\n",
                hit + partial, miss, partial,
                source_readable(src, sf->name) ? "" : "<span class=\"note\">source not found"
                                                      "</span>");
    }
    fputs("</table>\n", out);
}

bool html_index(FILE *out, const struct site *s, struct source_cache *src,
                const struct html_options *o, struct pp_error *err)
{
    size_t p;

    (void)o;
    html_page_begin(out, "path profile");
    fputs("<nav>pathprof</nav>\n<main>\n<h1>Path profile</h1>\n", out);
    if (s->nprofs > 1)
        fprintf(out, "<p>%zu profiles; the counts of a function are summed over the profiles "
                     "of the same build of it.</p>\n", s->nprofs);
    if (!out_functions(out, s, err))
        return false;
    out_files(out, s, src);
    for (p = 0; p < s->nprofs; p++)
        if (!out_profile(out, s, p, err))
            return false;
    fputs("</main>\n", out);
    html_page_end(out);
    return true;
}
