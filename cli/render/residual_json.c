/* residual_json.c - `pathprof residual --json` (docs/json.md, "residual"). */
#include <inttypes.h>
#include <stdlib.h>

#include "graph/path.h"
#include "out/json_out.h"
#include "residual_report.h"

static void out_profile(FILE *out, const struct residual_side *s)
{
    fputs("{\"file\":", out);
    json_string(out, s->file);
    fputs(",\"command\":", out);
    json_string(out, s->prof->has_program ? s->prof->cmdline : NULL);
    fprintf(out, ",\"paths_executed\":%" PRIu64 "}", profile_total(s->prof));
}

static bool out_only(FILE *out, const struct residual_side *s, uint64_t top,
                     struct pp_error *err)
{
    size_t i, n = top && top < s->nonly ? (size_t)top : s->nonly;

    fputc('[', out);
    for (i = 0; i < n; i++) {
        const struct ranked_path *rp = &s->only[i];
        const struct pp_func_meta *m = s->prof->funcs[rp->func].meta;
        struct line_range *lines = malloc((size_t)m->nnodes * sizeof *lines);
        struct path path;
        uint32_t k, nl;
        if (!lines)
            return pp_fail(err, "out of memory");
        if (!path_alloc(m, &path, err)) {
            free(lines);
            return false;
        }
        if (!path_decode(m, rp->id, &path, err)) {
            path_release(&path);
            free(lines);
            return pp_context(err, "function %s", m->name);
        }
        fputs(i ? ",\n   " : "\n   ", out);
        fputs("{\"function\":", out);
        json_string(out, m->name);
        fputs(",\"file\":", out);
        json_string(out, m->file);
        fprintf(out, ",\"checksum\":\"0x%016" PRIx64 "\",\"id\":%" PRIu64 ",\"count\":%" PRIu64
                     ",\"length\":%" PRIu32 ",\"function_absent\":%s,\"lines\":[",
                m->checksum, rp->id, rp->count, rp->length,
                s->match[rp->func].kind == FUNC_MATCH_ABSENT ? "true" : "false");
        nl = path_line_ranges(m, &path, lines);
        for (k = 0; k < nl; k++) {
            fputs(k ? ",\"" : "\"", out);
            json_string_body(out, lines[k].file);
            fprintf(out, ":%" PRIu32 "-%" PRIu32 "\"", lines[k].first, lines[k].last);
        }
        fprintf(out, "],\"start\":\"%s\",\"end\":\"%s\"}",
                path_start_name(path_start_kind(m, &path)),
                path_end_name(path_end_kind(m, &path)));
        path_release(&path);
        free(lines);
    }
    fputs(n ? "\n  ]" : "]", out);
    return true;
}

static void out_changed(FILE *out, const struct residual_side *a, const struct residual_side *b)
{
    const char *sep = "";
    size_t i;

    fputc('[', out);
    for (i = 0; i < a->prof->nfuncs; i++) {
        const struct pp_func_meta *m;
        if (a->match[i].kind != FUNC_MATCH_CHANGED)
            continue;
        m = a->prof->funcs[i].meta;
        fprintf(out, "%s{\"function\":", sep);
        json_string(out, m->name);
        fputs(",\"file\":", out);
        json_string(out, m->file);
        fprintf(out, ",\"test_checksum\":\"0x%016" PRIx64 "\",\"production_checksum\":\"0x%016"
                     PRIx64 "\"}",
                m->checksum, b->prof->funcs[a->match[i].other].meta->checksum);
        sep = ",";
    }
    fputc(']', out);
}

bool residual_json(FILE *out, const struct residual_side *test, const struct residual_side *prod,
                   uint64_t top, struct pp_error *err)
{
    fputs("{\"test\":", out);
    out_profile(out, test);
    fputs(",\n \"production\":", out);
    out_profile(out, prod);
    fputs(",\n \"only_in_production\":", out);
    if (!out_only(out, prod, top, err))
        return false;
    fputs(",\n \"only_in_test\":", out);
    if (!out_only(out, test, top, err))
        return false;
    fputs(",\n \"not_compared\":", out);
    out_changed(out, test, prod);
    fputs("\n}\n", out);
    return true;
}
