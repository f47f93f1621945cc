/* vpp_rank.c - ranking by net variation and cross-profile capture
 * (vpp_rank.h). */
#include "vpp_rank.h"

#include <stdlib.h>
#include <string.h>

static const struct vpp_data *sort_data;

static int by_net(const void *x, const void *y)
{
    const struct vpp_path *a = &sort_data->paths[*(const size_t *)x];
    const struct vpp_path *b = &sort_data->paths[*(const size_t *)y];
    if (a->net != b->net)
        return a->net > b->net ? -1 : 1;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
}

static int by_time(const void *x, const void *y)
{
    const struct vpp_path *a = &sort_data->paths[*(const size_t *)x];
    const struct vpp_path *b = &sort_data->paths[*(const size_t *)y];
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
}

bool vpp_rank(const struct vpp_data *v, struct vpp_ranking *r)
{
    memset(r, 0, sizeof *r);
    size_t n = v->npaths ? v->npaths : 1;
    r->ranked = calloc(n, sizeof *r->ranked);
    r->single = calloc(n, sizeof *r->single);
    if (r->ranked == NULL || r->single == NULL) {
        vpp_ranking_free(r);
        return false;
    }
    for (size_t i = 0; i < v->npaths; i++) {
        const struct vpp_path *p = &v->paths[i];
        r->time_total += (double)p->total;
        if (p->samples >= 2) {
            r->ranked[r->nranked++] = i;
            r->net_total += p->net;
        } else {
            r->single[r->nsingle++] = i;
        }
    }
    sort_data = v;
    qsort(r->ranked, r->nranked, sizeof *r->ranked, by_net);
    qsort(r->single, r->nsingle, sizeof *r->single, by_time);
    sort_data = NULL;
    return true;
}

void vpp_ranking_free(struct vpp_ranking *r)
{
    free(r->ranked);
    free(r->single);
    memset(r, 0, sizeof *r);
}

const struct pp_func_meta *vpp_func(const struct pp_profile *p, const struct vpp_path *r)
{
    return &p->tus[r->tu].funcs[r->func];
}

static bool same_path(const struct pp_func_meta *fa, uint64_t ida, const struct pp_func_meta *fb,
                      uint64_t idb)
{
    if (ida != idb || fa->checksum != fb->checksum || strcmp(fa->name, fb->name) != 0)
        return false;
    if ((fa->file == NULL) != (fb->file == NULL))
        return false;
    return fa->file == NULL || strcmp(fa->file, fb->file) == 0;
}

size_t vpp_capture(const struct pp_profile *pa, const struct vpp_data *va,
                   const struct vpp_ranking *ra, const struct pp_profile *pb,
                   const struct vpp_data *vb, const struct vpp_ranking *rb, size_t top,
                   double *cross, double *self)
{
    double own = 0, other = 0;
    size_t found = 0;
    for (size_t k = 0; k < top && k < ra->nranked; k++)
        own += va->paths[ra->ranked[k]].net;
    for (size_t k = 0; k < top && k < rb->nranked; k++) {
        const struct vpp_path *b = &vb->paths[rb->ranked[k]];
        const struct pp_func_meta *fb = vpp_func(pb, b);
        for (size_t i = 0; i < ra->nranked; i++) {
            const struct vpp_path *a = &va->paths[ra->ranked[i]];
            if (same_path(vpp_func(pa, a), a->path_id, fb, b->path_id)) {
                other += a->net;
                found++;
                break;
            }
        }
    }
    *cross = ra->net_total > 0 ? other / ra->net_total : 0;
    *self = ra->net_total > 0 ? own / ra->net_total : 0;
    return found;
}
