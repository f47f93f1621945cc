/* residual_text.c - `pathprof residual` in text (residual_report.h).
 *
 * The answer a tester reads first: which paths production ran that the
 * tests never did, each as its source lines; then the paths the tests
 * ran that production never did; then the functions that changed between
 * the two builds, whose paths cannot be compared. */
#include <inttypes.h>
#include <stdlib.h>

#include "graph/path.h"
#include "out/text_out.h"
#include "path_text.h"
#include "residual_report.h"
#include "source_lines.h"

static size_t distinct_funcs(const struct ranked_path *paths, size_t n, size_t nfuncs_total,
                             bool *seen)
{
    size_t i, k = 0;
    for (i = 0; i < nfuncs_total; i++)
        seen[i] = false;
    for (i = 0; i < n; i++)
        if (!seen[paths[i].func]) {
            seen[paths[i].func] = true;
            k++;
        }
    return k;
}

static bool out_only(FILE *out, const struct residual_side *here,
                     const struct residual_side *there, uint64_t top, struct source_cache *src,
                     struct pp_error *err)
{
    bool *seen = calloc(here->prof->nfuncs ? here->prof->nfuncs : 1, sizeof *seen);
    uint64_t runs = 0;
    size_t i, nfuncs;

    if (!seen)
        return pp_fail(err, "out of memory");
    nfuncs = distinct_funcs(here->only, here->nonly, here->prof->nfuncs, seen);
    free(seen);
    for (i = 0; i < here->nonly; i++)
        runs += here->only[i].count;
    fputs("\nPaths that ran in ", out);
    out_safe(out, here->file);
    fputs(" and never in ", out);
    out_safe(out, there->file);
    if (here->nonly == 0) {
        fputs(": none\n", out);
        return true;
    }
    fprintf(out, ": %zu in %zu function%s, run %" PRIu64 " times", here->nonly, nfuncs,
            nfuncs == 1 ? "" : "s", runs);
    if (top && here->nonly > top)
        fprintf(out, " (top %" PRIu64 " shown)", top);
    fputc('\n', out);
    for (i = 0; i < here->nonly && (!top || i < top); i++) {
        const struct ranked_path *rp = &here->only[i];
        const struct pp_func_meta *m = here->prof->funcs[rp->func].meta;
        struct path path;
        if (!path_alloc(m, &path, err))
            return false;
        if (!path_decode(m, rp->id, &path, err)) {
            path_release(&path);
            return pp_context(err, "function %s", m->name);
        }
        fprintf(out, "\n#%zu  ", i + 1);
        out_func(out, m);
        fprintf(out, "  path %" PRIu64 "\n    count %" PRIu64 ", %" PRIu32 " blocks", rp->id,
                rp->count, rp->length);
        if (here->match[rp->func].kind == FUNC_MATCH_ABSENT) {
            fputs("; the function is not in ", out);
            out_safe(out, there->file);
        }
        fputs("\n    ", out);
        out_path_ends(out, m, &path);
        fputc('\n', out);
        out_path_lines(out, src, m, &path, "    ");
        path_release(&path);
    }
    return true;
}

/* Functions of both profiles whose checksums differ: another build. */
static void out_changed(FILE *out, const struct residual_side *a, const struct residual_side *b)
{
    size_t i, n = 0;
    for (i = 0; i < a->prof->nfuncs; i++)
        if (a->match[i].kind == FUNC_MATCH_CHANGED)
            n++;
    if (!n)
        return;
    fprintf(out, "\nFunctions not compared (%zu): their graphs differ between the two builds\n",
            n);
    for (i = 0; i < a->prof->nfuncs; i++) {
        const struct pp_func_meta *m, *o;
        if (a->match[i].kind != FUNC_MATCH_CHANGED)
            continue;
        m = a->prof->funcs[i].meta;
        o = b->prof->funcs[a->match[i].other].meta;
        fputs("  ", out);
        out_func(out, m);
        fprintf(out, ": checksum 0x%016" PRIx64 " in ", m->checksum);
        out_safe(out, a->file);
        fprintf(out, ", 0x%016" PRIx64 " in ", o->checksum);
        out_safe(out, b->file);
        fputc('\n', out);
    }
}

static void out_side(FILE *out, const char *label, const struct residual_side *s)
{
    fputs(label, out);
    out_safe(out, s->file);
    if (s->prof->has_program && *s->prof->cmdline) {
        fputs(" (", out);
        out_safe(out, s->prof->cmdline);
        fputc(')', out);
    }
    fprintf(out, ": %" PRIu64 " path executions\n", profile_total(s->prof));
}

bool residual_text(FILE *out, const struct residual_side *test, const struct residual_side *prod,
                   uint64_t top, struct pp_error *err)
{
    struct source_cache *src = source_cache_new();
    bool ok;

    out_side(out, "test        ", test);
    out_side(out, "production  ", prod);
    ok = out_only(out, prod, test, top, src, err) && out_only(out, test, prod, top, src, err);
    if (ok)
        out_changed(out, test, prod);
    source_cache_free(src);
    return ok;
}
