/* func_merge.c - one entry per function even when several TUs carry it.
 *
 * A static inline function of a header, or an inline function emitted in
 * several TUs, is instrumented once per TU, each copy with its own
 * counters. When the copies are the same function (name, file, checksum
 * and numbered graph all equal) their counts are summed, so the report
 * shows the function once; copies that differ stay separate entries (a
 * static function of the same name in another file, or another build). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "section_status.h"

static int str_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

static const struct pp_profile *sort_profile; /* qsort has no context argument */

static int key_cmp(const void *pa, const void *pb)
{
    const struct pp_func_meta *a = sort_profile->funcs[*(const size_t *)pa].meta;
    const struct pp_func_meta *b = sort_profile->funcs[*(const size_t *)pb].meta;
    int c = strcmp(a->name, b->name);
    if (c == 0)
        c = str_cmp(a->file, b->file);
    if (c == 0)
        c = (a->checksum > b->checksum) - (a->checksum < b->checksum);
    if (c == 0) /* keep file order within a group: the first copy absorbs the rest */
        c = (*(const size_t *)pa > *(const size_t *)pb) - (*(const size_t *)pa < *(const size_t *)pb);
    return c;
}

static bool same_key(const struct pp_func_meta *a, const struct pp_func_meta *b)
{
    return strcmp(a->name, b->name) == 0 && str_cmp(a->file, b->file) == 0 &&
           a->checksum == b->checksum;
}

static bool same_graph(const struct pp_func_meta *a, const struct pp_func_meta *b)
{
    uint32_t i, j;
    if (a->flags != b->flags || a->tpp != b->tpp || a->npaths != b->npaths || a->nnodes != b->nnodes ||
        a->nedges != b->nedges || a->nverify != b->nverify)
        return false;
    for (i = 0; i < a->nnodes; i++) {
        const struct pp_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->bb != y->bb || str_cmp(x->file, y->file) != 0 ||
            x->line_first != y->line_first || x->line_last != y->line_last ||
            x->nspans != y->nspans)
            return false;
        for (j = 0; j < x->nspans; j++)
            if (strcmp(x->spans[j].file, y->spans[j].file) != 0 ||
                x->spans[j].first != y->spans[j].first || x->spans[j].last != y->spans[j].last)
                return false;
    }
    for (i = 0; i < a->nedges; i++) {
        const struct pp_edge *x = &a->edges[i], *y = &b->edges[i];
        if (x->src != y->src || x->dst != y->dst || x->kind != y->kind ||
            x->real_dst != y->real_dst || x->val != y->val || x->inc != y->inc)
            return false;
    }
    for (i = 0; i < a->nverify; i++)
        if (a->verify[i].src != b->verify[i].src || a->verify[i].dst != b->verify[i].dst)
            return false;
    return true;
}

/* a += b, false (a saturated) when the sum does not fit in 64 bits. */
static bool add_count(uint64_t *a, uint64_t b)
{
    if (!__builtin_add_overflow(*a, b, a))
        return true;
    *a = UINT64_MAX;
    return false;
}

/* Adds FROM's counts to INTO (both have the same graph). Path counts
 * cannot overflow here (the reader checked that all of them together fit
 * in 64 bits), direct edge counts can; *FITS becomes false when one does. */
static bool absorb(struct pp_func *into, struct pp_func *from, bool *fits,
                   struct pp_error *err)
{
    uint64_t n = into->nrecords + from->nrecords, i = 0, j = 0, k = 0;
    struct pp_path_count *merged = malloc(n ? (size_t)n * sizeof *merged : 1);

    if (!merged)
        return pp_fail(err, "out of memory");
    *fits = true;
    while (i < into->nrecords || j < from->nrecords) {
        if (j == from->nrecords ||
            (i < into->nrecords && into->records[i].id < from->records[j].id)) {
            merged[k++] = into->records[i++];
        } else if (i == into->nrecords || from->records[j].id < into->records[i].id) {
            merged[k++] = from->records[j++];
        } else {
            merged[k] = into->records[i++];
            *fits &= add_count(&merged[k++].count, from->records[j++].count);
        }
    }
    free(into->records);
    into->records = merged;
    into->nrecords = k;
    *fits &= add_count(&into->total, from->total);
    *fits &= add_count(&into->cold, from->cold);
    if (into->verify_counts && from->verify_counts)
        for (i = 0; i < into->meta->nverify; i++)
            *fits &= add_count(&into->verify_counts[i], from->verify_counts[i]);
    into->ncopies += from->ncopies;
    free(from->records);
    free(from->verify_counts);
    memset(from, 0, sizeof *from); /* meta == NULL marks an absorbed entry */
    return true;
}

/* The copy that did not fit damages its TU section's counts. */
static bool overflowed(struct pp_profile *p, const struct pp_func *into, size_t section,
                       struct pp_error *err)
{
    char why[400];
    snprintf(why, sizeof why, "the counts of %s, summed with its copy in section %" PRIu32
                              ", exceed 2^64 - 1", into->meta->name,
             p->sections[into->section].index);
    return section_mark(p, section, PP_PART_TU_COUNTS, PP_SECTION_DAMAGED, why) ||
           pp_fail(err, "out of memory");
}

bool func_merge_copies(struct pp_profile *p, struct pp_error *err)
{
    size_t *order, i, j, kept;
    bool ok = true;

    if (p->nfuncs < 2)
        return true;
    order = malloc(p->nfuncs * sizeof *order);
    if (!order)
        return pp_fail(err, "out of memory");
    for (i = 0; i < p->nfuncs; i++)
        order[i] = i;
    sort_profile = p;
    qsort(order, p->nfuncs, sizeof *order, key_cmp);

    /* Groups of equal key are small (usually one); compare within them. */
    for (i = 0; i < p->nfuncs && ok; i = j) {
        for (j = i + 1; j < p->nfuncs && same_key(p->funcs[order[i]].meta,
                                                  p->funcs[order[j]].meta); j++)
            ;
        for (size_t a = i; a < j && ok; a++) {
            struct pp_func *fa = &p->funcs[order[a]];
            if (!fa->meta)
                continue;
            for (size_t b = a + 1; b < j && ok; b++) {
                struct pp_func *fb = &p->funcs[order[b]];
                size_t section = fb->section;
                bool fits = true;
                if (fb->meta && same_graph(fa->meta, fb->meta))
                    ok = absorb(fa, fb, &fits, err) &&
                         (fits || overflowed(p, fa, section, err));
            }
        }
    }
    free(order);
    if (!ok)
        return false;
    for (i = kept = 0; i < p->nfuncs; i++)
        if (p->funcs[i].meta)
            p->funcs[kept++] = p->funcs[i];
    p->nfuncs = kept;
    return true;
}
