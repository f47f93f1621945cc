/* diff.c - `pathprof diff A B`: how the paths of two profiles of one
 * program differ (query/path_diff.c), in text or JSON. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "query/func_find.h"
#include "query/path_diff.h"
#include "read/section_status.h"
#include "render/diff_report.h"
#include "out/text_out.h"

#define DEFAULT_TOP 10

static void diff_usage(FILE *out)
{
    fputs("Usage: pathprof diff A B [--top N] [--function NAME]... [--json]\n"
          "Compares two profiles of one program (two inputs, two versions): the\n"
          "functions and paths whose share of the paths executed changed most, the\n"
          "paths new in B and gone from it, and per function its paths by the change\n"
          "of their share within it. Functions are matched by name and file; one whose\n"
          "code changed (another checksum) is flagged and its paths not compared.\n"
          "  --top N          N rows per table (default 10); with --json, N paths in\n"
          "                   by_change (default all)\n"
          "  --function NAME  only functions named NAME or FILE:NAME (repeatable)\n"
          "  --json           machine-readable output (docs/json.md, \"diff\")\n",
          out);
}

/* The functions of P that SPECS name; false (status set) when one names none in both. */
static bool select_functions(const struct pp_profile *p, const char *file, const char **specs,
                             size_t nspecs, bool *selected, size_t *hits)
{
    size_t *found = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *found), i, k, n;

    if (!found) {
        error_in_file(file, "out of memory");
        return false;
    }
    for (i = 0; i < nspecs; i++) {
        n = func_find(p, specs[i], found);
        hits[i] += n;
        for (k = 0; k < n; k++)
            selected[found[k]] = true;
    }
    free(found);
    return true;
}

int cmd_diff(int argc, char **argv)
{
    const char *files[2], **specs;
    int nfiles = 0, status = 0, a;
    size_t nspecs = 0, i, *hits = NULL;
    bool json = false, top_given = false, options_done = false, loaded_a = false;
    uint64_t top = DEFAULT_TOP;
    struct pp_profile pa, pb;
    bool *sel_a = NULL, *sel_b = NULL;

    specs = calloc((size_t)argc + 1, sizeof *specs);
    if (!specs)
        return usage_error("out of memory");
    for (a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            diff_usage(stdout);
            free(specs);
            return finish_output(0);
        } else if (!options_done && strcmp(arg, "--json") == 0) {
            json = true;
        } else if (!options_done && (strncmp(arg, "--top", 5) == 0 &&
                                     (arg[5] == '\0' || arg[5] == '='))) {
            const char *v = arg[5] == '=' ? arg + 6 : a + 1 < argc ? argv[++a] : NULL;
            if (!v || !parse_u64(v, &top) || top == 0) {
                free(specs);
                return usage_error("diff: --top needs a positive number");
            }
            top_given = true;
        } else if (!options_done && (strncmp(arg, "--function", 10) == 0 &&
                                     (arg[10] == '\0' || arg[10] == '='))) {
            const char *v = arg[10] == '=' ? arg + 11 : a + 1 < argc ? argv[++a] : NULL;
            if (!v || !*v) {
                free(specs);
                return usage_error("diff: --function needs a function name");
            }
            specs[nspecs++] = v;
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            free(specs);
            return usage_error("diff: unknown option '%s'", arg);
        } else if (nfiles == 2) {
            free(specs);
            return usage_error("diff: two profiles, A and B ('%s' is a third)", arg);
        } else {
            files[nfiles++] = arg;
        }
    }
    if (nfiles != 2) {
        free(specs);
        return usage_error("diff: needs two profiles (pathprof diff A B)");
    }
    if (json && !top_given)
        top = 0;
    if (!load_profile(files[0], &pa)) {
        free(specs);
        return EXIT_TROUBLE;
    }
    loaded_a = true;
    if (!load_profile(files[1], &pb)) {
        profile_free(&pa);
        free(specs);
        return EXIT_TROUBLE;
    }
    if (!sections_usable(files[0], &pa, PP_NEED_BL) || !sections_usable(files[1], &pb, PP_NEED_BL))
        status = EXIT_TROUBLE;
    if (status == 0 && nspecs) {
        sel_a = calloc(pa.nfuncs + 1, sizeof *sel_a);
        sel_b = calloc(pb.nfuncs + 1, sizeof *sel_b);
        hits = calloc(nspecs, sizeof *hits);
        if (!sel_a || !sel_b || !hits ||
            !select_functions(&pa, files[0], specs, nspecs, sel_a, hits) ||
            !select_functions(&pb, files[1], specs, nspecs, sel_b, hits)) {
            status = EXIT_TROUBLE;
        }
        for (i = 0; status == 0 && i < nspecs; i++)
            if (hits[i] == 0) {
                fputs("pathprof: diff: no function '", stderr);
                out_safe(stderr, specs[i]);
                fputs("' in either profile\n", stderr);
                status = EXIT_NOT_FOUND;
            }
    }
    if (status == 0) {
        struct path_diff d;
        struct pp_error err;
        bool ok = path_diff_build(&pa, &pb, sel_a, sel_b, &d, &err);
        if (ok)
            ok = json ? diff_report_json(stdout, &d, files[0], files[1], top, &err)
                      : diff_report_text(stdout, &d, files[0], files[1], top, &err);
        if (!ok) {
            fflush(stdout);
            error_in_file(files[0], err.msg);
            status = EXIT_TROUBLE;
        }
        path_diff_free(&d);
    }
    free(sel_a);
    free(sel_b);
    free(hits);
    free(specs);
    if (loaded_a)
        profile_free(&pa);
    profile_free(&pb);
    return finish_output(status);
}
