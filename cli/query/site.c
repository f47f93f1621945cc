/* site.c - the functions and files `pathprof html` shows (see site.h). */
#include "site.h"

#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "graph/path.h"

/* Lines beyond this are not shown (a damaged profile may name any). */
#define SITE_MAX_LINE 10000000u

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static bool same_str(const char *x, const char *y)
{
    return x == y || (x && y && strcmp(x, y) == 0);
}

static bool same_function(const struct pp_func_meta *a, const struct pp_func_meta *b)
{
    return strcmp(a->name, b->name) == 0 && same_str(a->file, b->file) &&
           a->checksum == b->checksum && a->npaths == b->npaths;
}

static int by_id(const void *pa, const void *pb)
{
    const struct pp_path_count *a = pa, *b = pb;
    return (a->id > b->id) - (a->id < b->id);
}

/* Sums the members' records into one list sorted by ID. */
static bool sum_records(struct site *s, struct site_func *f, struct pp_error *err)
{
    uint64_t n = 0, i, k;
    size_t m;

    for (m = 0; m < f->nmembers; m++)
        n += s->profs[f->members[m].prof].funcs[f->members[m].func].nrecords;
    f->records = malloc((n ? n : 1) * sizeof *f->records);
    if (!f->records)
        return pp_fail(err, "out of memory");
    for (n = 0, m = 0; m < f->nmembers; m++) {
        const struct pp_func *pf = &s->profs[f->members[m].prof].funcs[f->members[m].func];
        memcpy(f->records + n, pf->records, pf->nrecords * sizeof *pf->records);
        n += pf->nrecords;
    }
    qsort(f->records, n, sizeof *f->records, by_id);
    for (i = 0, k = 0; i < n; i++) {
        if (k && f->records[k - 1].id == f->records[i].id)
            f->records[k - 1].count = sat_add(f->records[k - 1].count, f->records[i].count);
        else
            f->records[k++] = f->records[i];
    }
    f->nrecords = k;
    f->total = 0;
    for (i = 0; i < k; i++)
        f->total = sat_add(f->total, f->records[i].count);
    return true;
}

/* Edge and node flows: each recorded path's count added along it. */
static bool compute_flow(struct site_func *f, struct pp_error *err)
{
    const struct pp_func_meta *m = f->meta;

    f->edge_flow = calloc(m->nedges + 1, sizeof *f->edge_flow);
    f->node_flow = calloc(m->nnodes + 1, sizeof *f->node_flow);
    if (!f->edge_flow || !f->node_flow)
        return pp_fail(err, "out of memory");
    return path_flows(m, f->records, f->nrecords, f->edge_flow, f->node_flow, err);
}

static struct site_file *file_entry(struct site *s, const char *name, size_t *cap)
{
    size_t i;
    for (i = 0; i < s->nfiles; i++)
        if (strcmp(s->files[i].name, name) == 0)
            return &s->files[i];
    if (s->nfiles == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        struct site_file *bigger = realloc(s->files, ncap * sizeof *bigger);
        if (!bigger)
            return NULL;
        s->files = bigger;
        *cap = ncap;
    }
    memset(&s->files[s->nfiles], 0, sizeof s->files[0]);
    s->files[s->nfiles].name = name;
    return &s->files[s->nfiles++];
}

/* Per file, the highest line named, and each function's flow to its file. */
static bool collect_files(struct site *s, struct pp_error *err)
{
    size_t cap = 0, i;
    uint32_t n;

    for (i = 0; i < s->nfuncs; i++) {
        const struct pp_func_meta *m = s->funcs[i].meta;
        struct site_file *sf;
        if (m->file) {
            if (!(sf = file_entry(s, m->file, &cap)))
                return pp_fail(err, "out of memory");
            sf->flow = sat_add(sf->flow, s->funcs[i].total);
        }
        for (n = 2; n < m->nnodes; n++) {
            struct line_range r;
            if (!node_lines(&m->nodes[n], &r) || r.last > SITE_MAX_LINE)
                continue;
            if (!(sf = file_entry(s, r.file, &cap)))
                return pp_fail(err, "out of memory");
            if (r.last > sf->nlines)
                sf->nlines = r.last;
        }
    }
    return true;
}

/* Line counts. A block's range may hold lines of other blocks (its first
 * and last statements bound it), so a line is counted from the blocks
 * whose range starts or ends on it when there are any ("anchored"), else
 * from every block whose range holds it: the most runs of any of them. */
static bool line_counts(struct site *s, struct pp_error *err)
{
    size_t i, fi;
    uint32_t n, line;

    for (fi = 0; fi < s->nfiles; fi++) {
        struct site_file *sf = &s->files[fi];
        uint8_t *anchored = calloc((size_t)sf->nlines + 1, 1);
        sf->count = calloc((size_t)sf->nlines + 1, sizeof *sf->count);
        sf->state = calloc((size_t)sf->nlines + 1, 1);
        if (!anchored || !sf->count || !sf->state) {
            free(anchored);
            return pp_fail(err, "out of memory");
        }
        for (int pass = 0; pass < 2; pass++)
            for (i = 0; i < s->nfuncs; i++) {
                const struct site_func *f = &s->funcs[i];
                const struct pp_func_meta *m = f->meta;
                for (n = 2; n < m->nnodes; n++) {
                    struct line_range r;
                    if (!node_lines(&m->nodes[n], &r) || r.last > SITE_MAX_LINE ||
                        strcmp(r.file, sf->name) != 0)
                        continue;
                    for (line = r.first; line <= r.last; line++) {
                        bool end = line == r.first || line == r.last;
                        /* Pass 0: the ends; pass 1: the inside of lines no end names. */
                        if (pass == 0 ? !end : (end || anchored[line]))
                            continue;
                        if (pass == 0)
                            anchored[line] = 1;
                        if (f->node_flow[n] > sf->count[line])
                            sf->count[line] = f->node_flow[n];
                        if (sf->state[line] == SITE_NONE)
                            sf->state[line] = SITE_MISS;
                        if (f->node_flow[n] && sf->state[line] == SITE_MISS)
                            sf->state[line] = SITE_HIT;
                        if (line == UINT32_MAX)
                            break;
                    }
                }
            }
        /* A decision that ran with a way out never taken: partial, on the
         * line it decides at (its block's last). */
        for (i = 0; i < s->nfuncs; i++) {
            const struct site_func *f = &s->funcs[i];
            const struct pp_func_meta *m = f->meta;
            for (n = 2; n < m->nnodes; n++) {
                struct line_range r;
                uint32_t k, cnt;
                bool untaken = false;
                if (m->out_count[n] < 2 || !f->node_flow[n] || !node_lines(&m->nodes[n], &r) ||
                    r.last > SITE_MAX_LINE || strcmp(r.file, sf->name) != 0)
                    continue;
                meta_out_edges(m, n, &cnt);
                for (k = 0; k < cnt; k++)
                    untaken |= f->edge_flow[m->out_first[n] + k] == 0;
                if (untaken)
                    sf->state[r.last] = SITE_PARTIAL;
            }
        }
        free(anchored);
    }
    return true;
}

static int by_flow(const void *pa, const void *pb)
{
    const struct site_file *a = pa, *b = pb;
    if (a->flow != b->flow)
        return a->flow > b->flow ? -1 : 1;
    return strcmp(a->name, b->name);
}

bool site_build(struct site *s, struct pp_profile *profs, const char *const *names,
                size_t nprofs, struct pp_error *err)
{
    size_t cap = 0, p, i, j;

    memset(s, 0, sizeof *s);
    s->profs = profs;
    s->names = names;
    s->nprofs = nprofs;
    for (p = 0; p < nprofs; p++)
        cap += profs[p].nfuncs;
    s->funcs = calloc(cap + 1, sizeof *s->funcs);
    if (!s->funcs)
        return pp_fail(err, "out of memory");
    for (p = 0; p < nprofs; p++)
        for (i = 0; i < profs[p].nfuncs; i++) {
            const struct pp_func_meta *m = profs[p].funcs[i].meta;
            struct site_func *f = NULL;
            struct site_member *more;
            /* One profile holds each build of a function once (copies
             * were merged by the reader): only later profiles search. */
            for (j = 0; p > 0 && j < s->nfuncs && !f; j++)
                if (same_function(s->funcs[j].meta, m))
                    f = &s->funcs[j];
            if (!f) {
                f = &s->funcs[s->nfuncs++];
                f->meta = m;
            }
            more = realloc(f->members, (f->nmembers + 1) * sizeof *more);
            if (!more)
                return pp_fail(err, "out of memory");
            f->members = more;
            f->members[f->nmembers++] = (struct site_member){ p, i };
        }
    for (i = 0; i < s->nfuncs; i++) {
        if (!sum_records(s, &s->funcs[i], err) || !compute_flow(&s->funcs[i], err))
            return false;
        s->total = sat_add(s->total, s->funcs[i].total);
    }
    if (!collect_files(s, err) || !line_counts(s, err))
        return false;
    qsort(s->files, s->nfiles, sizeof *s->files, by_flow);
    return true;
}

void site_free(struct site *s)
{
    size_t i;
    for (i = 0; i < s->nfuncs; i++) {
        free(s->funcs[i].records);
        free(s->funcs[i].members);
        free(s->funcs[i].edge_flow);
        free(s->funcs[i].node_flow);
    }
    for (i = 0; i < s->nfiles; i++) {
        free(s->files[i].count);
        free(s->files[i].state);
    }
    free(s->funcs);
    free(s->files);
    memset(s, 0, sizeof *s);
}

const struct site_file *site_find_file(const struct site *s, const char *name)
{
    size_t i;
    for (i = 0; i < s->nfiles; i++)
        if (strcmp(s->files[i].name, name) == 0)
            return &s->files[i];
    return NULL;
}
