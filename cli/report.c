/* report.c - `pathprof report`: options, and the text rendering.
 *
 * The text report answers "where does my program spend its paths": a
 * header about the run, the functions by paths executed, then the hottest
 * paths twice, by count and by count x length (a long path run often costs
 * more than a short one run a little more often), each printed as the
 * source lines it runs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "func_find.h"
#include "kipf_report.h"
#include "kprune_report.h"
#include "path.h"
#include "pathprof-abi.h"
#include "path_text.h"
#include "rank.h"
#include "report.h"
#include "report_header.h"
#include "section_status.h"
#include "source_lines.h"
#include "text_out.h"

#define DEFAULT_TOP 10

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* A stream-mode profile that lost or misattributed events must not be read
 * as exact: said first, where nobody can miss it. */
static const struct pp_func *ranked_func;

static int by_total(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    uint64_t ta = ranked_func[a].total, tb = ranked_func[b].total;
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return (a > b) - (a < b);
}

static void out_table_title(FILE *out, const char *title, size_t n, uint64_t top)
{
    if (top && n > top)
        fprintf(out, "\n%s (top %" PRIu64 " of %zu)\n", title, top, n);
    else
        fprintf(out, "\n%s (all %zu)\n", title, n);
}

static bool out_functions(FILE *out, const struct pp_profile *p, const bool *selected,
                          uint64_t top, uint64_t total, struct pp_error *err)
{
    size_t *order = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *order);
    size_t n = 0, i;

    if (!order)
        return pp_fail(err, "out of memory");
    for (i = 0; i < p->nfuncs; i++)
        if ((!selected || selected[i]) && p->funcs[i].total)
            order[n++] = i;
    ranked_func = p->funcs;
    qsort(order, n, sizeof *order, by_total);
    out_table_title(out, "Functions by paths executed", n, top);
    if (n)
        fprintf(out, "%20s %7s %21s  %s\n", "count", "%", "paths run/numbered", "function");
    for (i = 0; i < n && (!top || i < top); i++) {
        const struct pp_func *f = &p->funcs[order[i]];
        char paths[48];
        snprintf(paths, sizeof paths, "%" PRIu64 "/%" PRIu64, f->nrecords, f->meta->npaths);
        fprintf(out, "%20" PRIu64 " %6.1f%% %21s  ", f->total, percent(f->total, total), paths);
        out_func(out, f->meta);
        if (f->meta->flags) {
            fputs("  [", out);
            out_flags(out, f->meta->flags);
            fputc(']', out);
        }
        fputc('\n', out);
    }
    free(order);
    return true;
}

/* One ranked path: its title line, how it starts and ends, its lines. */
static bool out_path(FILE *out, const struct pp_profile *p, const struct ranked_path *rp,
                     size_t rank, bool by_weight, uint64_t whole, struct source_cache *src,
                     struct pp_error *err)
{
    const struct pp_func_meta *m = p->funcs[rp->func].meta;
    struct path path;

    if (!path_alloc(m, &path, err))
        return false;
    if (!path_decode(m, rp->id, &path, err)) {
        path_release(&path);
        return pp_context(err, "function %s", m->name);
    }
    fprintf(out, "\n#%zu  ", rank);
    out_func(out, m);
    fprintf(out, "  path %" PRIu64 "\n    ", rp->id);
    if (by_weight)
        fprintf(out, "count %" PRIu64 " x %" PRIu32 " blocks = %" PRIu64 " (%.1f%%)",
                rp->count, rp->length, rp->weight, percent(rp->weight, whole));
    else
        fprintf(out, "count %" PRIu64 " (%.1f%%), %" PRIu32 " blocks", rp->count,
                percent(rp->count, whole), rp->length);
    fputs("\n    ", out);
    out_path_ends(out, m, &path);
    fputc('\n', out);
    out_path_lines(out, src, m, &path, "    ");
    path_release(&path);
    return true;
}

static bool out_paths(FILE *out, const struct pp_profile *p, struct ranked_path *paths,
                      size_t n, bool by_weight, uint64_t top, struct source_cache *src,
                      struct pp_error *err)
{
    uint64_t whole = 0;
    size_t i;

    /* Counts fit (the reader checked their total); count x length may not,
     * and a weight of UINT64_MAX is already saturated: the total saturates
     * too rather than wrap to a small number. */
    for (i = 0; i < n; i++) {
        uint64_t v = by_weight ? paths[i].weight : paths[i].count;
        if (__builtin_add_overflow(whole, v, &whole))
            whole = UINT64_MAX;
    }
    if (by_weight)
        rank_by_weight(paths, n);
    else
        rank_by_count(paths, n);
    out_table_title(out, by_weight ? "Paths by count x length" : "Paths by count", n, top);
    for (i = 0; i < n && (!top || i < top); i++)
        if (!out_path(out, p, &paths[i], i + 1, by_weight, whole, src, err))
            return false;
    return true;
}

bool report_text(FILE *out, const struct pp_profile *p, const bool *selected, uint64_t top,
                 struct pp_error *err)
{
    struct ranked_path *paths;
    struct source_cache *src;
    size_t n;
    bool ok;

    if (!rank_collect(p, selected, &paths, &n, err))
        return false;
    src = source_cache_new();
    report_header(out, p);
    ok = out_functions(out, p, selected, top, profile_total(p), err);
    if (ok && n == 0)
        fputs("\nNo path was executed.\n", out);
    else if (ok)
        ok = out_paths(out, p, paths, n, false, top, src, err) &&
             out_paths(out, p, paths, n, true, top, src, err);
    source_cache_free(src);
    free(paths);
    return ok;
}

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
    if (!load_profile(file, &prof)) {
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
