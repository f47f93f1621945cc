/* html.c - `pathprof html -o DIR PROFILE...`: the profiles as a static
 * site in DIR (render/html_site.h): index.html and one page per source
 * file. DIR is created when missing; pages already there are replaced,
 * nothing else in it is touched. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "query/site.h"
#include "read/section_status.h"
#include "render/html_site.h"
#include "out/text_out.h"

#define DEFAULT_TOP 10

static void html_usage(FILE *out)
{
    fputs("Usage: pathprof html -o DIR [--top N] PROFILE...\n"
          "Writes a static HTML report of the profiles into DIR (created if missing):\n"
          "DIR/index.html ranks functions and files by path flow; each source file gets\n"
          "a page with its lines coloured by how often they ran and each function's\n"
          "hottest paths: choose one to light up its lines. k-iteration path trees and\n"
          "pruned bounds are shown where the profiles have them. Several profiles of\n"
          "one program are summed. No server and nothing fetched: open index.html.\n"
          "  -o DIR, --output DIR  where to write (required)\n"
          "  --top N               paths listed per function (default 10)\n",
          out);
}

/* Writes one page through WRITE into DIR/NAME; false after a message. */
static bool write_page(const char *dir, const char *name, const struct site *s, size_t fi,
                       struct source_cache *src, const struct html_options *o)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    struct pp_error err;
    FILE *out;
    bool ok;

    if (!path) {
        error_in_file(dir, "out of memory");
        return false;
    }
    snprintf(path, len, "%s/%s", dir, name);
    out = fopen(path, "w");
    if (!out) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot write: %s", strerror(errno));
        error_in_file(path, msg);
        free(path);
        return false;
    }
    ok = fi == SIZE_MAX ? html_index(out, s, src, o, &err) : html_source(out, s, fi, src, o, &err);
    if (!ok)
        error_in_file(path, err.msg);
    if (ferror(out) || fclose(out) != 0) {
        if (ok) {
            char msg[256];
            snprintf(msg, sizeof msg, "error writing: %s", strerror(errno));
            error_in_file(path, msg);
        }
        ok = false;
    }
    free(path);
    return ok;
}

int cmd_html(int argc, char **argv)
{
    const char *dir = NULL, **files;
    size_t nfiles = 0, loaded = 0, i;
    bool options_done = false;
    uint64_t top = DEFAULT_TOP;
    struct pp_profile *profs;
    int status = 0;

    files = calloc((size_t)argc + 1, sizeof *files);
    if (!files)
        return usage_error("out of memory");
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            html_usage(stdout);
            free(files);
            return finish_output(0);
        } else if (!options_done && (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 ||
                                     strncmp(arg, "--output=", 9) == 0)) {
            dir = arg[1] == 'o' || arg[8] == '\0' ? (a + 1 < argc ? argv[++a] : NULL) : arg + 9;
            if (!dir || !*dir) {
                free(files);
                return usage_error("html: -o needs a directory");
            }
        } else if (!options_done && (strncmp(arg, "--top", 5) == 0 &&
                                     (arg[5] == '\0' || arg[5] == '='))) {
            const char *v = arg[5] == '=' ? arg + 6 : a + 1 < argc ? argv[++a] : NULL;
            if (!v || !parse_u64(v, &top) || top == 0) {
                free(files);
                return usage_error("html: --top needs a positive number");
            }
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            free(files);
            return usage_error("html: unknown option '%s'", arg);
        } else {
            files[nfiles++] = arg;
        }
    }
    if (!dir || !nfiles) {
        free(files);
        return usage_error(!dir ? "html: where to? (pathprof html -o DIR PROFILE...)"
                                : "html: which profiles? (pathprof html -o DIR PROFILE...)");
    }
    profs = calloc(nfiles, sizeof *profs);
    if (!profs) {
        free(files);
        return usage_error("out of memory");
    }
    for (i = 0; i < nfiles && status == 0; i++) {
        if (!load_profile(files[i], &profs[i])) {
            status = EXIT_TROUBLE;
            break;
        }
        loaded++;
        if (!sections_usable(files[i], &profs[i], PP_NEED_BL))
            status = EXIT_TROUBLE;
    }
    if (status == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot create the directory: %s", strerror(errno));
        error_in_file(dir, msg);
        status = EXIT_TROUBLE;
    }
    if (status == 0) {
        struct site s;
        struct pp_error err;
        struct html_options o = { top };
        struct source_cache *src = source_cache_new();
        if (!src || !site_build(&s, profs, files, nfiles, &err)) {
            error_in_file(files[0], src ? err.msg : "out of memory");
            status = EXIT_TROUBLE;
        } else {
            char name[32];
            if (!write_page(dir, "index.html", &s, SIZE_MAX, src, &o))
                status = EXIT_TROUBLE;
            for (i = 0; i < s.nfiles && status == 0; i++) {
                html_file_page_name(name, sizeof name, i);
                if (!write_page(dir, name, &s, i, src, &o))
                    status = EXIT_TROUBLE;
            }
            if (status == 0) {
                printf("pathprof: wrote %zu pages to ", s.nfiles + 1);
                out_safe(stdout, dir);
                fputs("/ (open ", stdout);
                out_safe(stdout, dir);
                fputs("/index.html)\n", stdout);
                source_out_missing(stdout, src, "pathprof: sources not found: ");
            }
        }
        site_free(&s);
        source_cache_free(src);
    }
    for (i = 0; i < loaded; i++)
        profile_free(&profs[i]);
    free(profs);
    free(files);
    return finish_output(status);
}
