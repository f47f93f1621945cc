/* func_find.c - NAME or FILE:NAME to functions (see func_find.h). */
#include "func_find.h"

#include <string.h>

/* FILE names F when equal to it or to a '/'-separated tail of it. */
static bool file_matches(const char *f, const char *file, size_t file_len)
{
    size_t n;
    if (!f)
        return false;
    n = strlen(f);
    if (n < file_len || memcmp(f + n - file_len, file, file_len) != 0)
        return false;
    return n == file_len || f[n - file_len - 1] == '/';
}

size_t func_find(const struct pp_profile *p, const char *spec, size_t *out)
{
    const char *colon = strrchr(spec, ':');
    size_t i, n = 0;

    for (i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i].meta->name, spec) == 0)
            out[n++] = i;
    if (n > 0 || !colon)
        return n;
    for (i = 0; i < p->nfuncs; i++) {
        const struct pp_func_meta *m = p->funcs[i].meta;
        if (strcmp(m->name, colon + 1) == 0 && file_matches(m->file, spec, (size_t)(colon - spec)))
            out[n++] = i;
    }
    return n;
}
