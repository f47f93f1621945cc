/* path_diff.c - comparing two profiles path by path (see path_diff.h). */
#include "path_diff.h"

#include "func_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double share(uint64_t part, uint64_t whole)
{
    return whole ? (double)part / (double)whole : 0.0;
}

/* B's first function not yet taken with M's name and file, and with
 * SAME_BUILD its checksum and number of paths too; or DIFF_NONE. */
static size_t match(const struct func_index *b, const struct pp_func_meta *m, const bool *taken,
                    bool same_build)
{
    size_t k, end;
    for (func_index_range(b, m, &k, &end); k < end; k++) {
        size_t i = b->order[k];
        const struct pp_func_meta *o = b->p->funcs[i].meta;
        if (!taken[i] && (!same_build || (o->checksum == m->checksum && o->npaths == m->npaths)))
            return i;
    }
    return DIFF_NONE;
}

/* PAIR[i]: A's function i's partner in B. A profile may hold several
 * builds of one function (one source compiled two ways, docs/runtime.md):
 * each pairs first with its own build in B, and only a function left
 * without one with another build of it (CODE CHANGED). */
static void pair_funcs(const struct pp_profile *a, const struct func_index *b, bool *taken,
                       size_t *pair)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < a->nfuncs; i++) {
            if (pass == 1 && pair[i] != DIFF_NONE)
                continue;
            pair[i] = match(b, a->funcs[i].meta, taken, pass == 0);
            if (pair[i] != DIFF_NONE)
                taken[pair[i]] = true;
        }
}

static bool add_path(struct path_diff *d, size_t *cap, size_t func, uint64_t id, uint64_t ca,
                     uint64_t cb, struct pp_error *err)
{
    const struct diff_func *f = &d->funcs[func];
    struct diff_path *p;

    if (d->npaths == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        struct diff_path *bigger = realloc(d->paths, ncap * sizeof *bigger);
        if (!bigger)
            return pp_fail(err, "out of memory");
        d->paths = bigger;
        *cap = ncap;
    }
    p = &d->paths[d->npaths++];
    p->func = func;
    p->id = id;
    p->ca = ca;
    p->cb = cb;
    p->sa = share(ca, d->total_a);
    p->sb = share(cb, d->total_b);
    p->fsa = share(ca, f->ta);
    p->fsb = share(cb, f->tb);
    p->status = ca && cb ? DIFF_BOTH : ca ? DIFF_GONE : DIFF_NEW;
    d->funcs[func].npaths++;
    return true;
}

/* The paths of one matched function: a merge of two lists sorted by ID. */
static bool add_paths(struct path_diff *d, size_t *cap, size_t func, struct pp_error *err)
{
    const struct diff_func *f = &d->funcs[func];
    const struct pp_func *fa = f->fa != DIFF_NONE ? &d->a->funcs[f->fa] : NULL;
    const struct pp_func *fb = f->fb != DIFF_NONE ? &d->b->funcs[f->fb] : NULL;
    uint64_t na = fa ? fa->nrecords : 0, nb = fb ? fb->nrecords : 0, i = 0, j = 0;

    if (f->status == DIFF_CHANGED)
        return true;
    while (i < na || j < nb) {
        const struct pp_path_count *ra = i < na ? &fa->records[i] : NULL;
        const struct pp_path_count *rb = j < nb ? &fb->records[j] : NULL;
        bool ok;
        if (ra && (!rb || ra->id < rb->id)) {
            ok = add_path(d, cap, func, ra->id, ra->count, 0, err);
            i++;
        } else if (rb && (!ra || rb->id < ra->id)) {
            ok = add_path(d, cap, func, rb->id, 0, rb->count, err);
            j++;
        } else {
            ok = add_path(d, cap, func, ra->id, ra->count, rb->count, err);
            i++;
            j++;
        }
        if (!ok)
            return false;
    }
    return true;
}

static void set_func(struct path_diff *d, struct diff_func *f)
{
    const struct pp_func *fa = f->fa != DIFF_NONE ? &d->a->funcs[f->fa] : NULL;
    const struct pp_func *fb = f->fb != DIFF_NONE ? &d->b->funcs[f->fb] : NULL;

    f->ta = fa ? fa->total : 0;
    f->tb = fb ? fb->total : 0;
    f->sa = share(f->ta, d->total_a);
    f->sb = share(f->tb, d->total_b);
    f->npaths = 0;
    if (fa && fb && (fa->meta->checksum != fb->meta->checksum ||
                     fa->meta->npaths != fb->meta->npaths))
        f->status = DIFF_CHANGED;
    else
        f->status = f->ta && f->tb ? DIFF_BOTH : f->ta ? DIFF_GONE : DIFF_NEW;
}

bool path_diff_build(const struct pp_profile *a, const struct pp_profile *b,
                     const bool *selected_a, const bool *selected_b, struct path_diff *d,
                     struct pp_error *err)
{
    bool *taken = calloc(b->nfuncs ? b->nfuncs : 1, sizeof *taken);
    size_t *pair = malloc((a->nfuncs ? a->nfuncs : 1) * sizeof *pair);
    struct func_index ix = { b, NULL };
    size_t i, cap = 0;

    memset(d, 0, sizeof *d);
    d->a = a;
    d->b = b;
    d->total_a = profile_total(a);
    d->total_b = profile_total(b);
    d->funcs = malloc((a->nfuncs + b->nfuncs + 1) * sizeof *d->funcs);
    if (!taken || !pair || !d->funcs || !func_index_build(&ix, b)) {
        free(taken);
        free(pair);
        path_diff_free(d);
        return pp_fail(err, "out of memory");
    }
    pair_funcs(a, &ix, taken, pair);
    func_index_free(&ix);
    for (i = 0; i < a->nfuncs; i++) {
        struct diff_func *f = &d->funcs[d->nfuncs];
        size_t j = pair[i];
        if (selected_a && !selected_a[i] && (j == DIFF_NONE || !selected_b || !selected_b[j]))
            continue;
        f->fa = i;
        f->fb = j;
        set_func(d, f);
        if (f->ta || f->tb)
            d->nfuncs++;
    }
    for (i = 0; i < b->nfuncs; i++) {
        struct diff_func *f = &d->funcs[d->nfuncs];
        if (taken[i] || (selected_b && !selected_b[i]))
            continue;
        f->fa = DIFF_NONE;
        f->fb = i;
        set_func(d, f);
        if (f->tb)
            d->nfuncs++;
    }
    free(taken);
    free(pair);
    for (i = 0; i < d->nfuncs; i++)
        if (!add_paths(d, &cap, i, err)) {
            path_diff_free(d);
            return false;
        }
    return true;
}

void path_diff_free(struct path_diff *d)
{
    free(d->funcs);
    free(d->paths);
    memset(d, 0, sizeof *d);
}

const struct pp_func_meta *diff_func_meta(const struct path_diff *d, size_t func)
{
    const struct diff_func *f = &d->funcs[func];
    const struct pp_func_meta *ma = f->fa != DIFF_NONE ? d->a->funcs[f->fa].meta : NULL;
    const struct pp_func_meta *mb = f->fb != DIFF_NONE ? d->b->funcs[f->fb].meta : NULL;
    /* The one with a variant label when only B holds other builds of it,
     * so that the row tells which of B's builds it is. */
    return ma && (ma->variant || !mb || !mb->variant) ? ma : mb;
}

static const struct path_diff *sorting;
static bool sorting_within;

static int by_path_change(const void *pa, const void *pb)
{
    const struct diff_path *x = &sorting->paths[*(const size_t *)pa];
    const struct diff_path *y = &sorting->paths[*(const size_t *)pb];
    double cx = sorting_within ? fabs(x->fsb - x->fsa) : fabs(x->sb - x->sa);
    double cy = sorting_within ? fabs(y->fsb - y->fsa) : fabs(y->sb - y->sa);
    if (cx != cy)
        return cx > cy ? -1 : 1;
    if (x->func != y->func)
        return x->func < y->func ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int by_func_change(const void *pa, const void *pb)
{
    size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
    const struct diff_func *x = &sorting->funcs[i], *y = &sorting->funcs[j];
    double cx = fabs(x->sb - x->sa), cy = fabs(y->sb - y->sa);
    if (cx != cy)
        return cx > cy ? -1 : 1;
    return (i > j) - (i < j);
}

void diff_rank_paths(const struct path_diff *d, size_t *rows, size_t n, bool within)
{
    sorting = d;
    sorting_within = within;
    qsort(rows, n, sizeof *rows, by_path_change);
}

void diff_rank_funcs(const struct path_diff *d, size_t *rows, size_t n)
{
    sorting = d;
    qsort(rows, n, sizeof *rows, by_func_change);
}

const char *diff_status_name(enum diff_status s)
{
    switch (s) {
    case DIFF_BOTH: return "both";
    case DIFF_NEW: return "new";
    case DIFF_GONE: return "gone";
    default: return "changed";
    }
}
