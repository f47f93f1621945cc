/* report.c - `pathprof report`: its options, and the report that answers
 * them: BL paths (report_text.c, report_json.c), k-iteration paths
 * (kipf_report.c, kipf_json.c) or their pruned bounds (kprune_report.c,
 * kprune_json.c). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "query/func_find.h"
#include "render/kipf_report.h"
#include "render/kprune_report.h"
#include "render/report.h"
#include "read/section_status.h"
#include "out/text_out.h"

#define DEFAULT_TOP 10

static void report_usage(FILE *out)
{
    fputs("Usage: pathprof report FILE [--top N] [--function NAME]... [--json]\n"
          "       pathprof report --k FILE [--min-count N] [--min-length L] [--top N]\n"
          "                       [--function NAME]... [--json] [--pruned] [--phi PHI]\n"
          "Ranks the paths of profile FILE by count and by count x length, each\n"
          "shown as the source lines it runs.\n"
          "  --top N          N paths per table (default 10); with --json, the N\n"
          "                   most frequent paths of each function (default all;\n"
          "                   with --k, the N most frequent sequences)\n"
          "  --function NAME  only functions named NAME or FILE:NAME (repeatable)\n"
          "  --json           machine-readable output (docs/json.md)\n"
          "  --k              the k-iteration paths of the KIPF section instead\n"
          "                   (PATHPROF_ANALYZER=ksf): sequences of 2 to k BL paths\n"
          "  --min-count N    with --k: only sequences that ran at least N times\n"
          "  --min-length L   with --k: sequences of at least L BL paths (default 2;\n"
          "                   1 adds the single BL paths)\n"
          "  --pruned         with --k: the KPRUNE section (PATHPROF_ANALYZER=ksf-pruned),\n"
          "                   bounds on every count; the default when there is no KIPF\n"
          "  --phi PHI        with a pruned section: only sequences of n BL paths whose\n"
          "                   upper bound is at least PHI x N_n (0 to 1, default 0)\n",
          out);
}

/* "--opt VALUE" or "--opt=VALUE"; advances *i past what it used. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static bool is_option(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

int cmd_report(int argc, char **argv)
{
    const char *file = NULL, **functions;
    size_t nfunctions = 0, i;
    bool json = false, top_given = false, options_done = false, k = false;
    uint64_t top = DEFAULT_TOP, min_count = 1, min_length = 2;
    bool kopt_given = false, pruned = false;
    double phi = 0;
    struct pp_profile prof;
    struct pp_error err;
    bool *selected = NULL;
    int status = 0;

    functions = calloc((size_t)argc + 1, sizeof *functions);
    if (!functions)
        return usage_error("out of memory");
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a], *value;
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            report_usage(stdout);
            free(functions);
            return finish_output(0);
        } else if (!options_done && strcmp(arg, "--json") == 0) {
            json = true;
        } else if (!options_done && strcmp(arg, "--k") == 0) {
            k = true;
        } else if (!options_done && strcmp(arg, "--pruned") == 0) {
            k = pruned = true;
        } else if (!options_done && is_option(arg, "--phi")) {
            char *end;
            value = option_value(argc, argv, &a, "--phi");
            if (value)
                phi = strtod(value, &end);
            if (!value || !*value || *end || !(phi >= 0 && phi <= 1)) {
                free(functions);
                return usage_error("report: --phi needs a fraction from 0 to 1");
            }
            k = pruned = true;
        } else if (!options_done && is_option(arg, "--min-count")) {
            value = option_value(argc, argv, &a, "--min-count");
            if (!value || !parse_u64(value, &min_count)) {
                free(functions);
                return usage_error("report: --min-count needs a number");
            }
            kopt_given = true;
        } else if (!options_done && is_option(arg, "--min-length")) {
            value = option_value(argc, argv, &a, "--min-length");
            if (!value || !parse_u64(value, &min_length) || min_length == 0 ||
                min_length > KIPF_MAX_K) {
                free(functions);
                return usage_error("report: --min-length needs a number from 1 to %u",
                                   KIPF_MAX_K);
            }
            kopt_given = true;
        } else if (!options_done && is_option(arg, "--top")) {
            value = option_value(argc, argv, &a, "--top");
            if (!value || !parse_u64(value, &top) || top == 0) {
                free(functions);
                return usage_error("report: --top needs a positive number");
            }
            top_given = true;
        } else if (!options_done && is_option(arg, "--function")) {
            value = option_value(argc, argv, &a, "--function");
            if (!value || !*value) {
                free(functions);
                return usage_error("report: --function needs a function name");
            }
            functions[nfunctions++] = value;
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            free(functions);
            return usage_error("report: unknown option '%s'", arg);
        } else if (!file) {
            file = arg;
        } else {
            free(functions);
            return usage_error("report: one profile at a time ('%s' and '%s')", file, arg);
        }
    }
    if (!file) {
        free(functions);
        return usage_error("report: which profile? (pathprof report FILE)");
    }
    if (kopt_given && !k) {
        free(functions);
        return usage_error("report: --min-count and --min-length go with --k");
    }
    if (json && !top_given)
        top = 0;
    /* `--k --top N` over the whole program reads only what can rank: a
     * k = 16 forest has tens of millions of nodes (cli/read/kipf_read.c). */
    struct kipf_keep keep = { top, min_count, (uint32_t)min_length };
    bool ranking = k && !pruned && top && nfunctions == 0;
    if (!load_profile_keep(file, &prof, ranking ? &keep : NULL)) {
        free(functions);
        return EXIT_TROUBLE;
    }
    /* The file is fine, it just lacks what was asked for: like a missing
     * function, status 1. */
    if (k && !prof.has_kipf && prof.has_kprune)
        pruned = true; /* the only k-iteration paths the file has */
    if (k && !pruned && !prof.has_kipf) {
        error_in_file(file, "no KIPF section: k-iteration paths are recorded in stream mode "
                            "with PATHPROF_ANALYZER=ksf");
        status = EXIT_NOT_FOUND;
    }
    if (pruned && !prof.has_kprune) {
        error_in_file(file, "no KPRUNE section: pruned k-iteration paths are recorded in "
                            "stream mode with PATHPROF_ANALYZER=ksf-pruned");
        status = EXIT_NOT_FOUND;
    }
    /* A damaged section this report does not read only costs a warning. */
    if (status == 0 &&
        !sections_usable(file, &prof, pruned ? PP_NEED_KPRUNE : k ? PP_NEED_KIPF : PP_NEED_BL))
        status = EXIT_TROUBLE;
    if (nfunctions && status == 0) {
        size_t *found = malloc((prof.nfuncs ? prof.nfuncs : 1) * sizeof *found);
        selected = calloc(prof.nfuncs ? prof.nfuncs : 1, sizeof *selected);
        if (!found || !selected) {
            error_in_file(file, "out of memory");
            status = EXIT_TROUBLE;
        }
        for (i = 0; i < nfunctions && status == 0; i++) {
            size_t n = func_find(&prof, functions[i], found), k;
            if (n == 0) {
                fputs("pathprof: ", stderr);
                out_safe(stderr, file);
                fputs(": no function '", stderr);
                out_safe(stderr, functions[i]);
                fputs("'\n", stderr);
                status = EXIT_NOT_FOUND;
            }
            for (k = 0; k < n; k++)
                selected[found[k]] = true;
        }
        free(found);
    }
    if (status == 0) {
        struct kipf_options ko = { selected, top, min_count, (uint32_t)min_length };
        struct kprune_options po = { selected, top, min_count, (uint32_t)min_length, phi };
        bool ok = pruned ? (json ? kprune_report_json(stdout, &prof, &po, &err)
                                 : kprune_report_text(stdout, &prof, &po, &err))
                : k ? (json ? kipf_report_json(stdout, &prof, &ko, &err)
                            : kipf_report_text(stdout, &prof, &ko, &err))
                    : json ? report_json(stdout, &prof, selected, top, &err)
                           : report_text(stdout, &prof, selected, top, &err);
        if (!ok) {
            fflush(stdout);
            error_in_file(file, err.msg);
            status = EXIT_TROUBLE;
        }
    }
    free(selected);
    free(functions);
    profile_free(&prof);
    return finish_output(status);
}
