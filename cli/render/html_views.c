/* html_views.c - what a function's section of a source page shows below
 * its lines, one view per kind of analysis the profiles hold. Each view
 * writes nothing when no profile has its section for the function.
 *
 * The analyses of later issues (sampled counts with confidence
 * intervals, VPP value histograms, WPP hot subpaths) get a view each in
 * views[] below when their sections land; the page around them needs no
 * change. */
#include <inttypes.h>
#include <stdlib.h>

#include "html_site.h"
#include "path_text.h"
#include "read/kipf.h"
#include "read/kprune.h"
#include "out/html_out.h"

/* Nodes of a k-IPF below this share of their root's count are left out. */
#define TREE_MIN_PERMILLE 10
#define TREE_MAX_NODES 400

struct view_ctx {
    FILE *out;
    const struct site *s;
    size_t func;
    const struct html_options *o;
    bool titled;
};

static void view_title(struct view_ctx *c, const char *title, size_t prof)
{
    fprintf(c->out, "<h3>%s", title);
    if (c->s->nprofs > 1) {
        fputs(" (", c->out);
        html_text(c->out, c->s->names[prof]);
        fputc(')', c->out);
    }
    fputs("</h3>\n", c->out);
}

static void tree_node(struct view_ctx *c, const struct pp_kipf *k, size_t i, uint64_t root_count,
                      size_t *shown)
{
    const struct kipf_node *n = &k->nodes[i];
    size_t ch, left = 0;
    uint64_t left_count = 0;

    fprintf(c->out, "<li>path %" PRIu64 " <b>%" PRIu64 "</b>", n->id, n->count);
    if (n->parent != KIPF_NONE)
        fprintf(c->out, " %.1f%%", 100.0 * (double)n->count / (double)k->nodes[n->parent].count);
    (*shown)++;
    if (kipf_first_child(k, i) != KIPF_NONE)
        fputs("<ul class=\"tree\">", c->out);
    for (ch = kipf_first_child(k, i); ch != KIPF_NONE; ch = kipf_next_sibling(k, ch)) {
        if ((double)k->nodes[ch].count * 1000 < (double)root_count * TREE_MIN_PERMILLE ||
            *shown >= TREE_MAX_NODES) {
            left++;
            left_count += k->nodes[ch].count;
            continue;
        }
        tree_node(c, k, ch, root_count, shown);
    }
    if (left)
        fprintf(c->out, "<li>(%zu more, count %" PRIu64 " in all)</li>", left, left_count);
    if (kipf_first_child(k, i) != KIPF_NONE)
        fputs("</ul>", c->out);
    fputs("</li>\n", c->out);
}

/* The k-IPF of the function: one tree per BL path it starts with. */
static bool view_kipf(struct view_ctx *c, struct pp_error *err)
{
    const struct site_func *f = &c->s->funcs[c->func];
    size_t m, i;

    (void)err;
    for (m = 0; m < f->nmembers; m++) {
        const struct pp_kipf *k = c->s->profs[f->members[m].prof].kipf;
        size_t shown = 0, roots = 0;
        if (!k)
            continue;
        for (i = 0; i < k->nnodes; i = k->nodes[i].end)
            roots += k->nodes[i].func == f->members[m].func;
        if (!roots)
            continue;
        view_title(c, "k-iteration path trees", f->members[m].prof);
        fprintf(c->out, "<p>k = %" PRIu32 ": what followed each path, for up to %" PRIu32
                        " more iterations; each node: path, count, share of its parent "
                        "(below %d.%d%% of the root's count left out)</p>\n"
                        "<ul class=\"tree kipf\">\n", k->k, k->k - 1,
                TREE_MIN_PERMILLE / 10, TREE_MIN_PERMILLE % 10);
        for (i = 0; i < k->nnodes; i = k->nodes[i].end)
            if (k->nodes[i].func == f->members[m].func)
                tree_node(c, k, i, k->nodes[i].count, &shown);
        fputs("</ul>\n", c->out);
    }
    return true;
}

static int by_upper(const void *pa, const void *pb)
{
    const struct kprune_seq *a = *(const struct kprune_seq *const *)pa;
    const struct kprune_seq *b = *(const struct kprune_seq *const *)pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->n > b->n) - (a->n < b->n);
}

/* The pruned sequences of the function, each with its bounds. */
static bool view_kprune(struct view_ctx *c, struct pp_error *err)
{
    const struct site_func *f = &c->s->funcs[c->func];
    size_t m, i, n;
    uint32_t len;

    for (m = 0; m < f->nmembers; m++) {
        const struct pp_kprune *k = c->s->profs[f->members[m].prof].kprune;
        const struct kprune_seq **v;
        size_t cap = 0;
        if (!k)
            continue;
        for (len = 2; len <= k->k; len++)
            cap += k->len[len - 1].nseqs;
        v = malloc((cap + 1) * sizeof *v);
        if (!v)
            return pp_fail(err, "out of memory");
        for (n = 0, len = 2; len <= k->k; len++)
            for (i = 0; i < k->len[len - 1].nseqs; i++)
                if (k->len[len - 1].seqs[i].func == f->members[m].func)
                    v[n++] = &k->len[len - 1].seqs[i];
        if (n) {
            qsort(v, n, sizeof *v, by_upper);
            view_title(c, "pruned k-iteration paths, with bounds", f->members[m].prof);
            fprintf(c->out, "<p>budget %" PRIu64 " bytes per analyzer thread: each count is an "
                            "upper bound, the true count lies between the bounds shown</p>\n"
                            "<table class=\"kprune\"><tr><th>paths</th><th class=\"n\">count"
                            "</th><th class=\"n\">at least</th><th class=\"n\">at most</th>"
                            "</tr>\n", k->budget);
            for (i = 0; i < n && (!c->o->top || i < c->o->top); i++) {
                fputs("<tr><td>", c->out);
                out_id_runs(c->out, v[i]->ids, v[i]->n);
                fprintf(c->out, "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64
                                "</td><td class=\"n\">%" PRIu64 "</td></tr>\n", v[i]->count,
                        v[i]->count - v[i]->err, v[i]->count);
            }
            fputs("</table>\n", c->out);
        }
        free(v);
    }
    return true;
}

static const struct {
    bool (*render)(struct view_ctx *c, struct pp_error *err);
} views[] = {
    { view_kipf },
    { view_kprune },
    /* sampled counts with confidence intervals, VPP histograms, WPP hot
     * subpaths: one entry each when their sections land. */
};

bool html_func_views(FILE *out, const struct site *s, size_t func, struct source_cache *src,
                     const struct html_options *o, struct pp_error *err)
{
    struct view_ctx c = { out, s, func, o, false };
    char *text = NULL;
    size_t len = 0, i;
    FILE *mem = open_memstream(&text, &len);
    bool ok = true;

    (void)src;
    if (!mem)
        return pp_fail(err, "out of memory");
    c.out = mem;
    for (i = 0; i < sizeof views / sizeof views[0] && ok; i++)
        ok = views[i].render(&c, err);
    if (fclose(mem) != 0 && ok)
        ok = pp_fail(err, "out of memory");
    /* A section only for a function that has something to show. */
    if (ok && len) {
        fprintf(out, "<section class=\"views\" id=\"views%zu\"><h2>", func);
        html_func_name(out, s->funcs[func].meta);
        fputs("</h2>\n", out);
        fwrite(text, 1, len, out);
        fputs("</section>\n", out);
    }
    free(text);
    return ok;
}
