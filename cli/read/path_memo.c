/* path_memo.c - see path_memo.h. */
#include "path_memo.h"

#include <stdlib.h>

enum { MEMO_BITS = 16, MEMO_SLOTS = 1u << MEMO_BITS };

struct memo_slot {
    const struct pp_func_meta *f;   /* NULL: empty */
    uint64_t id;
    uint32_t nblocks;
};

struct path_memo {
    struct path path;               /* scratch, wide enough for every function */
    struct memo_slot slot[MEMO_SLOTS];
};

struct path_memo *path_memo_new(const struct pp_profile *p)
{
    const struct pp_func_meta *widest = NULL;
    struct path_memo *m = calloc(1, sizeof *m);
    struct pp_error err;

    if (!m)
        return NULL;
    for (size_t t = 0; t < p->ntus; t++)
        for (uint32_t f = 0; f < p->tus[t].nfuncs; f++)
            if (!widest || p->tus[t].funcs[f].nnodes > widest->nnodes)
                widest = &p->tus[t].funcs[f];
    if (widest && !path_alloc(widest, &m->path, &err)) {
        free(m);
        return NULL;
    }
    return m;
}

void path_memo_free(struct path_memo *m)
{
    if (!m)
        return;
    path_release(&m->path);
    free(m);
}

bool path_memo_nblocks(struct path_memo *m, const struct pp_func_meta *f, uint64_t id,
                       uint32_t *nblocks, struct pp_error *err)
{
    uint64_t h = (id ^ (uint64_t)(uintptr_t)f * 0x100000001b3ull) * 0x9e3779b97f4a7c15ull;
    struct memo_slot *s = &m->slot[h >> (64 - MEMO_BITS)];

    if (s->f != f || s->id != id) {
        if (!path_decode(f, id, &m->path, err))
            return false;
        *s = (struct memo_slot){ f, id, path_nblocks(&m->path) };
    }
    *nblocks = s->nblocks;
    return true;
}
