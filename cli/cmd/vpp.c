/* vpp.c - `pathprof vpp PROFILE [--against OTHER]`: the timed paths of a
 * VPP run (docs/vpp.md) ranked by net variation, each with its source
 * lines, its share of the run and its histogram of deltas; --against
 * says how much of this profile's net variation the top paths of OTHER
 * (another input, another load) capture (the paper's Figs. 4 and 5). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pathprof-abi.h"
#include "render/vpp_report.h"

struct loaded {
    struct pp_profile p;
    struct vpp_data v;
    struct vpp_ranking r;
};

static int load(const char *file, struct loaded *l)
{
    struct pp_error err;
    unsigned char *data;
    size_t at, len;
    int rc = load_one_section(file, &l->p, PATHPROF_SECTION_VPP, "VPP",
                              "build with -fplugin-arg-pathprof-vpp=yes, run with PATHPROF_ANALYZER=vpp",
                              "the timed paths", &data, &at, &len);
    if (rc != 0)
        return rc;
    bool ok = vpp_read(data + at, len, l->p.tus, l->p.ntus, &l->v, &err);
    free(data);
    if (!ok) {
        char msg[sizeof err.msg + 16];
        snprintf(msg, sizeof msg, "VPP section: %s", err.msg);
        error_in_file(file, msg);
        profile_free(&l->p);
        return EXIT_TROUBLE;
    }
    if (!vpp_rank(&l->v, &l->r)) {
        error_in_file(file, "out of memory");
        vpp_free(&l->v);
        profile_free(&l->p);
        return EXIT_TROUBLE;
    }
    return 0;
}

static void unload(struct loaded *l)
{
    vpp_ranking_free(&l->r);
    vpp_free(&l->v);
    profile_free(&l->p);
}

static void vpp_usage(FILE *out)
{
    fprintf(out, "usage: pathprof vpp FILE [--top N | --all] [--against OTHER] [--json]\n"
                 "  the timed paths of a VPP run (-fplugin-arg-pathprof-vpp=yes,\n"
                 "  PATHPROF_ANALYZER=vpp) by net variation = total - timings x basetime\n"
                 "  --top N         show the first N paths (default 10)\n"
                 "  --all           show every path timed at least twice\n"
                 "  --against OTHER the share of FILE's net variation on OTHER's top\n"
                 "                  paths (N of --top), beside FILE's own top paths' share\n"
                 "  --json          everything as one JSON object (docs/json.md)\n");
}

int cmd_vpp(int argc, char **argv)
{
    const char *file = NULL, *other = NULL;
    uint64_t top = 10;
    bool json = false, options_done = false;
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            vpp_usage(stdout);
            return finish_output(0);
        } else if (!options_done && strcmp(arg, "--json") == 0) {
            json = true;
        } else if (!options_done && strcmp(arg, "--all") == 0) {
            top = 0;
        } else if (!options_done && strcmp(arg, "--top") == 0) {
            if (a + 1 >= argc || !parse_u64(argv[a + 1], &top) || top == 0)
                return usage_error("vpp: --top needs a number of paths (1, 2, ...)");
            a++;
        } else if (!options_done && strcmp(arg, "--against") == 0) {
            if (a + 1 >= argc)
                return usage_error("vpp: --against needs a second VPP profile");
            other = argv[++a];
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("vpp: unknown option '%s'", arg);
        } else if (file == NULL) {
            file = arg;
        } else {
            return usage_error("vpp: one profile at a time (and --against OTHER)");
        }
    }
    if (file == NULL)
        return usage_error("vpp: which profile?");
    struct loaded l, o;
    memset(&l, 0, sizeof l);
    memset(&o, 0, sizeof o);
    int status = load(file, &l);
    if (status)
        return status;
    struct vpp_view w = {.p = &l.p, .v = &l.v, .r = &l.r, .top = (size_t)top};
    if (other) {
        status = load(other, &o);
        if (status) {
            unload(&l);
            return status;
        }
        w.other = other;
        w.top_other = top ? (size_t)top : 10;
        w.found = vpp_capture(&l.p, &l.v, &l.r, &o.p, &o.v, &o.r, w.top_other, &w.cross, &w.self);
    }
    struct pp_error err;
    if (json) {
        vpp_json(stdout, &w);
    } else if (!vpp_text(stdout, &w, &err)) {
        error_in_file(file, err.msg);
        status = EXIT_TROUBLE;
    }
    if (other)
        unload(&o);
    unload(&l);
    return finish_output(status);
}
