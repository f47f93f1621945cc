/* select.c - `pathprof select PROFILE [--cover F]`: the interesting-paths
 * file for a PPP build (-fplugin-arg-pathprof-ppp=FILE), on stdout.
 *
 * By default every path that ran is interesting (the PPP paper's residual
 * profiling: what the tests ran); --cover F keeps only the hottest paths
 * that together account for at least F of the path executions. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "query/cover.h"
#include "read/section_status.h"
#include "render/interesting_write.h"

static void select_usage(FILE *out)
{
    fputs("Usage: pathprof select PROFILE [--cover F] > interesting.txt\n"
          "Writes the interesting paths for -fplugin-arg-pathprof-ppp=FILE: one line\n"
          "per path (function, file, CFG checksum, Ball-Larus path ID; names with\n"
          "blanks, as C++ templates have, in double quotes); see docs/format.md,\n"
          "\"Interesting paths\". The file may be edited.\n"
          "  --cover F   the hottest paths covering at least fraction F (0 < F <= 1)\n"
          "              of the profile's path executions (default 1: every path\n"
          "              that ran)\n",
          out);
}

int cmd_select(int argc, char **argv)
{
    const char *file = NULL;
    bool options_done = false;
    double cover = 1;
    struct pp_profile prof;
    struct pp_error err;
    struct ranked_path *paths = NULL;
    size_t n;
    uint64_t covered;
    int status = 0, a;

    for (a = 1; a < argc; a++) {
        const char *arg = argv[a], *value = NULL;
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            select_usage(stdout);
            return finish_output(0);
        } else if (!options_done && (strcmp(arg, "--cover") == 0 ||
                                     strncmp(arg, "--cover=", 8) == 0)) {
            char *end;
            if (arg[7] == '=')
                value = arg + 8;
            else if (a + 1 < argc)
                value = argv[++a];
            if (value)
                cover = strtod(value, &end);
            if (!value || !*value || *end || !(cover > 0 && cover <= 1))
                return usage_error("select: --cover needs a fraction above 0, at most 1 "
                                   "(0.99: the hottest paths covering 99%% of the flow)");
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("select: unknown option '%s'", arg);
        } else if (!file) {
            file = arg;
        } else {
            return usage_error("select: one profile at a time ('%s' and '%s')", file, arg);
        }
    }
    if (!file)
        return usage_error("select: which profile? (pathprof select PROFILE)");
    if (!load_profile(file, &prof))
        return EXIT_TROUBLE;
    if (!sections_usable(file, &prof, PP_NEED_BL)) {
        status = EXIT_TROUBLE;
    } else if (!cover_select(&prof, cover, &paths, &n, &covered, &err)) {
        error_in_file(file, err.msg);
        status = EXIT_TROUBLE;
    } else {
        struct interesting_source src = { file, cover, covered };
        if (!interesting_write(stdout, &prof, paths, n, &src, &err)) {
            error_in_file(file, err.msg);
            status = EXIT_TROUBLE;
        }
    }
    free(paths);
    profile_free(&prof);
    return finish_output(status);
}
