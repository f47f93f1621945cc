/* residual.c - `pathprof residual TEST_PROFILE PROD_PROFILE`: the paths
 * that ran in production and never in testing (and the reverse), as
 * source lines (the PPP paper's residual path profiling). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "query/func_match.h"
#include "query/residual.h"
#include "read/section_status.h"
#include "render/residual_report.h"

static void residual_usage(FILE *out)
{
    fputs("Usage: pathprof residual TEST_PROFILE PROD_PROFILE [--top N] [--json]\n"
          "Lists the paths that ran in PROD_PROFILE and never in TEST_PROFILE, then\n"
          "those that ran in TEST_PROFILE and never in PROD_PROFILE, each as the\n"
          "source lines it runs. Functions match by name, file and CFG checksum;\n"
          "those whose checksum changed between the builds are listed, not compared.\n"
          "  --top N   N paths per list (default all)\n"
          "  --json    machine-readable output (docs/json.md)\n",
          out);
}

/* Both profiles read and matched; prints the answer. */
static int compare(const char *test_file, struct pp_profile *test, const char *prod_file,
                   struct pp_profile *prod, uint64_t top, bool json)
{
    struct func_match *tm = malloc((test->nfuncs ? test->nfuncs : 1) * sizeof *tm);
    struct func_match *pm = malloc((prod->nfuncs ? prod->nfuncs : 1) * sizeof *pm);
    struct ranked_path *only_test = NULL, *only_prod = NULL;
    size_t ntest = 0, nprod = 0;
    struct pp_error err;
    int status = 0;

    if (!tm || !pm || !func_match(test, prod, tm) || !func_match(prod, test, pm)) {
        error_in_file(prod_file, "out of memory");
        status = EXIT_TROUBLE;
        goto out;
    }
    if (!residual_collect(prod, test, pm, &only_prod, &nprod, &err)) {
        error_in_file(prod_file, err.msg);
        status = EXIT_TROUBLE;
    } else if (!residual_collect(test, prod, tm, &only_test, &ntest, &err)) {
        error_in_file(test_file, err.msg);
        status = EXIT_TROUBLE;
    } else {
        struct residual_side t = { test_file, test, tm, only_test, ntest };
        struct residual_side p = { prod_file, prod, pm, only_prod, nprod };
        bool ok = json ? residual_json(stdout, &t, &p, top, &err)
                       : residual_text(stdout, &t, &p, top, &err);
        if (!ok) {
            fflush(stdout);
            error_in_file(prod_file, err.msg);
            status = EXIT_TROUBLE;
        }
    }
out:
    free(tm);
    free(pm);
    free(only_test);
    free(only_prod);
    return status;
}

int cmd_residual(int argc, char **argv)
{
    const char *files[2];
    int nfiles = 0, status, a;
    bool options_done = false, json = false;
    uint64_t top = 0;
    struct pp_profile test, prod;

    for (a = 1; a < argc; a++) {
        const char *arg = argv[a], *value = NULL;
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            residual_usage(stdout);
            return finish_output(0);
        } else if (!options_done && strcmp(arg, "--json") == 0) {
            json = true;
        } else if (!options_done && (strcmp(arg, "--top") == 0 || strncmp(arg, "--top=", 6) == 0)) {
            if (arg[5] == '=')
                value = arg + 6;
            else if (a + 1 < argc)
                value = argv[++a];
            if (!value || !parse_u64(value, &top) || top == 0)
                return usage_error("residual: --top needs a positive number");
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("residual: unknown option '%s'", arg);
        } else if (nfiles == 2) {
            return usage_error("residual: two profiles, TEST_PROFILE and PROD_PROFILE ('%s' is a third)",
                               arg);
        } else {
            files[nfiles++] = arg;
        }
    }
    if (nfiles != 2)
        return usage_error("residual: needs TEST_PROFILE and PROD_PROFILE");
    if (!load_profile(files[0], &test))
        return EXIT_TROUBLE;
    if (!load_profile(files[1], &prod)) {
        profile_free(&test);
        return EXIT_TROUBLE;
    }
    if (!sections_usable(files[0], &test, PP_NEED_BL) ||
        !sections_usable(files[1], &prod, PP_NEED_BL))
        status = EXIT_TROUBLE;
    else
        status = compare(files[0], &test, files[1], &prod, top, json);
    profile_free(&test);
    profile_free(&prod);
    return finish_output(status);
}
