/* func_match.c - the same function in two profiles (see func_match.h). */
#include "func_match.h"

#include "func_index.h"

bool func_match(const struct pp_profile *a, const struct pp_profile *b, struct func_match *out)
{
    struct func_index ix;

    if (!func_index_build(&ix, b))
        return false;
    for (size_t i = 0; i < a->nfuncs; i++) {
        const struct pp_func_meta *m = a->funcs[i].meta;
        size_t k, end;
        out[i].kind = FUNC_MATCH_ABSENT;
        out[i].other = FUNC_MATCH_NONE;
        /* The first copy of the same build, else the last of another. */
        for (func_index_range(&ix, m, &k, &end); k < end; k++) {
            const struct pp_func_meta *o = b->funcs[ix.order[k]].meta;
            out[i].other = ix.order[k];
            if (m->checksum == o->checksum && m->npaths == o->npaths) {
                out[i].kind = FUNC_MATCH_SAME;
                break;
            }
            out[i].kind = FUNC_MATCH_CHANGED;
        }
    }
    func_index_free(&ix);
    return true;
}

uint64_t func_path_count(const struct pp_func *f, uint64_t id)
{
    uint64_t lo = 0, hi = f->nrecords;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (f->records[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->nrecords && f->records[lo].id == id ? f->records[lo].count : 0;
}
