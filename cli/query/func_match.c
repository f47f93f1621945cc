/* func_match.c - the same function in two profiles (see func_match.h). */
#include "func_match.h"

#include <string.h>

static bool same_string(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

void func_match(const struct pp_profile *a, const struct pp_profile *b, struct func_match *out)
{
    size_t i, j;

    for (i = 0; i < a->nfuncs; i++) {
        const struct pp_func_meta *m = a->funcs[i].meta;
        out[i].kind = FUNC_MATCH_ABSENT;
        out[i].other = FUNC_MATCH_NONE;
        for (j = 0; j < b->nfuncs; j++) {
            const struct pp_func_meta *o = b->funcs[j].meta;
            if (strcmp(m->name, o->name) != 0 || !same_string(m->file, o->file))
                continue;
            out[i].other = j;
            if (m->checksum == o->checksum && m->npaths == o->npaths) {
                out[i].kind = FUNC_MATCH_SAME;
                break;
            }
            out[i].kind = FUNC_MATCH_CHANGED;
        }
    }
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
