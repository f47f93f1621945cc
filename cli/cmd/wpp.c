/* wpp.c - `pathprof wpp PROFILE`: the whole program paths of a run
 * (PATHPROF_ANALYZER=wpp): a summary of the grammars against the raw
 * trace (and xz -9 of it), the hot subpaths of the paper's Fig. 7 as
 * source lines, and --expand, which prints every thread's stream back
 * exactly as `pathprof dump` prints the trace of the same run (all lines
 * but the first, which names the file). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "graph/path.h"
#include "out/json_out.h"
#include "out/text_out.h"
#include "pathprof-abi.h"
#include "query/wpp_hot.h"
#include "read/wpp.h"
#include "render/event_lines.h"

struct opts {
    const char *file;
    bool expand, hot, all, json, xz;
    bool cost_paths;
    bool have_thread;
    uint64_t thread, min_len, max_len, min_cost, top;
};

static void wpp_usage(FILE *out)
{
    fputs("Usage: pathprof wpp PROFILE [--expand [--thread N]] [--hot [--all]] [--json]\n"
          "The whole program paths of a run with PATHPROF_ANALYZER=wpp: per thread a\n"
          "SEQUITUR grammar of its whole stream of paths.\n"
          "  (default)          summary: trace length, distinct paths, rules, sizes and\n"
          "                     compression ratios (raw trace, xz -9 when xz is found)\n"
          "  --expand           the streams back, as `pathprof dump TRACE` prints them\n"
          "  --thread N         only producer thread N (--expand)\n"
          "  --hot              hot subpaths (the WPP paper's Fig. 7), as source lines\n"
          "  --all              every subpath in the bounds, with exact counts\n"
          "  --min-length N     shortest subpath, in paths (default 2)\n"
          "  --max-length L     longest subpath (default 8, at most 64)\n"
          "  --min-cost C       cost x frequency at least C (default 1000)\n"
          "  --cost blocks|paths  a path costs its blocks (default) or 1; markers 0\n"
          "  --top N            at most N subpaths (default 20, 0 = all)\n"
          "  --no-xz            do not run xz for the summary\n"
          "  --json             the summary or the subpaths in JSON\n",
          out);
}

static bool num_arg(int argc, char **argv, int *a, const char *name, uint64_t *v)
{
    const char *arg = argv[*a];
    size_t n = strlen(name);
    const char *s = arg[n] == '=' ? arg + n + 1 : *a + 1 < argc ? argv[++*a] : NULL;
    if (!s || !parse_u64(s, v)) {
        usage_error("wpp: %s needs a number", name);
        return false;
    }
    return true;
}

static bool is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* ---- loading ------------------------------------------------------------ */

struct loaded {
    struct pp_profile p;
    struct wpp_data w;
    struct trace view;
};

static int load(const char *file, struct loaded *l)
{
    struct pp_error err;
    unsigned char *data;
    size_t at, len;
    int rc = load_one_section(file, &l->p, PATHPROF_SECTION_WPP, "WPP",
                              "run with PATHPROF_ANALYZER=wpp",
                              "the grammars' paths", &data, &at, &len);
    if (rc != 0)
        return rc;
    bool ok = wpp_read(data + at, len, l->p.ntus, &l->w, &err);
    free(data);
    if (!ok) {
        char msg[sizeof err.msg + 16];
        snprintf(msg, sizeof msg, "WPP section: %s", err.msg);
        error_in_file(file, msg);
        profile_free(&l->p);
        return EXIT_TROUBLE;
    }
    if (!wpp_trace_view(&l->w, l->p.tus, l->p.ntus, &l->view, &err)) {
        error_in_file(file, err.msg);
        wpp_free(&l->w);
        profile_free(&l->p);
        return EXIT_TROUBLE;
    }
    return 0;
}

static void unload(struct loaded *l)
{
    wpp_trace_view_free(&l->view);
    wpp_free(&l->w);
    profile_free(&l->p);
}

/* Calls EACH with every word of thread grammars [a, b), in stream order. */
typedef bool (*word_fn)(void *ctx, uint64_t w);
static bool walk_words(const struct wpp_data *w, size_t a, size_t b, word_fn each, void *ctx)
{
    for (size_t i = a; i < b; i++) {
        const struct wpp_grammar *g = &w->g[i];
        struct wpp_walk k;
        uint64_t t;
        if (!wpp_walk_init(&k, g))
            return false;
        bool ok = true;
        while (ok && wpp_walk_next(&k, &t)) {
            ok = each(ctx, g->terms[t].w1);
            if (ok && g->terms[t].marker)
                ok = each(ctx, g->terms[t].w2);
        }
        wpp_walk_free(&k);
        if (ok && (g->flags & WPP_GRAMMAR_HALF))
            ok = each(ctx, g->tail);
        if (!ok)
            return false;
    }
    return true;
}

/* Grammars [*a, *b) of the thread starting at index *a. */
static size_t thread_end_index(const struct wpp_data *w, size_t a)
{
    size_t b = a;
    while (b < w->ngrammars && w->g[b].tid == w->g[a].tid)
        b++;
    return b;
}

/* ---- --expand ----------------------------------------------------------- */

static bool line_word(void *ctx, uint64_t w)
{
    return event_lines_word(ctx, w);
}

static int expand(const struct opts *o, struct loaded *l)
{
    struct event_lines d;
    const struct wpp_data *w = &l->w;
    uint64_t events = 0, nfuncs = 0;
    size_t nthreads = 0;
    int status = 0;
    for (size_t a = 0; a < w->ngrammars; a = thread_end_index(w, a))
        nthreads++;
    for (size_t i = 0; i < w->ngrammars; i++)
        events += w->g[i].words;
    for (size_t i = 0; i < l->view.ntus; i++)
        nfuncs += l->view.tus[i].meta.nfuncs;
    fputs("# wpp ", stdout);
    out_safe(stdout, o->file);
    printf(": pid %" PRIu64 ", %zu TUs, %" PRIu64 " functions, %zu thread%s, %" PRIu64
           " events\n", l->p.pid, l->view.ntus, nfuncs, nthreads, nthreads == 1 ? "" : "s",
           events);
    event_lines_init(&d, stdout, &l->view);
    bool found = !o->have_thread;
    for (size_t a = 0, b; a < w->ngrammars && status == 0; a = b) {
        b = thread_end_index(w, a);
        if (o->have_thread && w->g[a].tid != o->thread)
            continue;
        found = true;
        uint64_t words = 0;
        for (size_t i = a; i < b; i++)
            words += w->g[i].words;
        event_lines_thread(&d, w->g[a].tid, words, w->g[b - 1].flags & WPP_GRAMMAR_ENDED);
        if (walk_words(w, a, b, line_word, &d)) {
            event_lines_thread_end(&d);
        } else {
            event_lines_thread_abandon(&d);
            fflush(stdout);
            error_in_file(o->file, d.err.msg[0] ? d.err.msg : "out of memory");
            status = EXIT_TROUBLE;
        }
    }
    event_lines_free(&d);
    if (!found) {
        fprintf(stderr, "pathprof: no thread %" PRIu64 " in the WPP section\n", o->thread);
        status = EXIT_NOT_FOUND;
    }
    return status;
}

/* ---- the summary -------------------------------------------------------- */

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static bool raw_word(void *ctx, uint64_t w)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(w >> (8 * i));
    return fwrite(b, 1, 8, ctx) == 8;
}

/* Size of xz -9 of the raw trace (every thread's words, little-endian, in
 * thread order); -1 when xz is not there or failed. */
static int64_t xz_size(const struct wpp_data *w)
{
    if (system("command -v xz >/dev/null 2>&1") != 0)
        return -1;
    char path[] = "/tmp/pathprof-wpp-XXXXXX";
    const char *tmp = getenv("TMPDIR");
    char buf[4096];
    if (tmp && *tmp && strlen(tmp) < 3000)
        snprintf(buf, sizeof buf, "%s/pathprof-wpp-XXXXXX", tmp);
    else
        snprintf(buf, sizeof buf, "%s", path);
    int fd = mkstemp(buf);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "wb");
    bool ok = f && walk_words(w, 0, w->ngrammars, raw_word, f);
    if (f && fclose(f) != 0)
        ok = false;
    int64_t size = -1;
    if (ok) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "xz -9 -c -T1 < '%s'", buf);
        FILE *p = popen(cmd, "r");
        if (p) {
            char chunk[65536];
            size_t n;
            size = 0;
            while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
                size += (int64_t)n;
            if (pclose(p) != 0)
                size = -1;
        }
    }
    unlink(buf);
    return size;
}

static int summary(const struct opts *o, struct loaded *l)
{
    const struct wpp_data *w = &l->w;
    uint64_t words = 0, symbols = 0, rules = 0, nterms = 0, npaths = 0, distinct = 0;
    size_t nthreads = 0;
    for (size_t i = 0; i < w->ngrammars; i++) {
        words += w->g[i].words;
        symbols += w->g[i].length;
        rules += w->g[i].nrules;
        nterms += w->g[i].nterms;
    }
    uint64_t *paths = malloc((nterms ? nterms : 1) * sizeof *paths);
    if (!paths) {
        error_in_file(o->file, "out of memory");
        return EXIT_TROUBLE;
    }
    for (size_t i = 0; i < w->ngrammars; i++)
        for (uint64_t t = 0; t < w->g[i].nterms; t++)
            if (!w->g[i].terms[t].marker)
                paths[npaths++] = w->g[i].terms[t].w1 & PATHPROF_EV_INDEX_MASK;
    qsort(paths, npaths, sizeof *paths, by_u64);
    for (uint64_t i = 0; i < npaths; i++)
        distinct += i == 0 || paths[i] != paths[i - 1];
    free(paths);
    for (size_t a = 0; a < w->ngrammars; a = thread_end_index(w, a))
        nthreads++;
    uint64_t raw = words * 8, gbytes = w->section_bytes;
    int64_t xz = o->xz ? xz_size(w) : -1;
    double ratio = gbytes ? (double)raw / (double)gbytes : 0;
    double rules_per_path = distinct ? (double)rules / (double)distinct : 0;
    if (o->json) {
        printf("{\"profile\":");
        json_string(stdout, o->file);
        printf(",\"threads\":%zu,\"grammars\":%zu,\"words\":%" PRIu64 ",\"symbols\":%" PRIu64
               ",\"distinct_paths\":%" PRIu64 ",\"rules\":%" PRIu64 ",\"rules_per_path\":%.2f"
               ",\"grammar_bytes\":%" PRIu64 ",\"raw_bytes\":%" PRIu64 ",\"ratio\":%.2f"
               ",\"max_bytes\":%" PRIu64 ",\"xz_bytes\":",
               nthreads, w->ngrammars, words, symbols, distinct, rules, rules_per_path, gbytes,
               raw, ratio, w->max_bytes);
        if (xz >= 0)
            printf("%" PRId64 ",\"ratio_vs_xz\":%.2f", xz, gbytes ? (double)xz / gbytes : 0);
        else
            printf("null");
        printf(",\"per_thread\":[");
        for (size_t a = 0, b; a < w->ngrammars; a = b) {
            b = thread_end_index(w, a);
            uint64_t tw = 0, ts = 0, tr = 0, tb = 0;
            for (size_t i = a; i < b; i++)
                tw += w->g[i].words, ts += w->g[i].length, tr += w->g[i].nrules,
                    tb += w->g[i].record_bytes;
            printf("%s{\"thread\":%" PRIu32 ",\"epochs\":%zu,\"words\":%" PRIu64
                   ",\"symbols\":%" PRIu64 ",\"rules\":%" PRIu64 ",\"bytes\":%" PRIu64
                   ",\"ended\":%s}", a ? "," : "", w->g[a].tid, b - a, tw, ts, tr, tb,
                   w->g[b - 1].flags & WPP_GRAMMAR_ENDED ? "true" : "false");
        }
        printf("]}\n");
        return 0;
    }
    fputs("# wpp ", stdout);
    out_safe(stdout, o->file);
    printf(": pid %" PRIu64 ", %zu thread%s, %zu grammar%s (epochs of at most %" PRIu64
           " bytes)\n", l->p.pid, nthreads, nthreads == 1 ? "" : "s", w->ngrammars,
           w->ngrammars == 1 ? "" : "s", w->max_bytes);
    printf("trace:    %" PRIu64 " words, %" PRIu64 " symbols (paths and markers), %" PRIu64
           " distinct paths\n", words, symbols, distinct);
    printf("grammar:  %" PRIu64 " rules, %.2f rules per path, %" PRIu64 " bytes\n", rules,
           rules_per_path, gbytes);
    printf("raw:      %" PRIu64 " bytes (8 per word): trace/WPP %.2f\n", raw, ratio);
    if (xz >= 0)
        printf("xz -9:    %" PRId64 " bytes: xz/WPP %.2f, trace/xz %.2f\n", xz,
               gbytes ? (double)xz / gbytes : 0, xz ? (double)raw / (double)xz : 0);
    else
        printf("xz -9:    %s\n", o->xz ? "not measured (xz not found or failed)"
                                       : "not measured (--no-xz)");
    printf("thread  epochs        words      symbols      rules      bytes\n");
    for (size_t a = 0, b; a < w->ngrammars; a = b) {
        b = thread_end_index(w, a);
        uint64_t tw = 0, ts = 0, tr = 0, tb = 0;
        for (size_t i = a; i < b; i++)
            tw += w->g[i].words, ts += w->g[i].length, tr += w->g[i].nrules,
                tb += w->g[i].record_bytes;
        printf("%6" PRIu32 " %7zu %12" PRIu64 " %12" PRIu64 " %10" PRIu64 " %10" PRIu64 "%s\n",
               w->g[a].tid, b - a, tw, ts, tr, tb,
               w->g[b - 1].flags & WPP_GRAMMAR_ENDED ? "" : "  (cut short)");
    }
    return 0;
}

/* ---- hot subpaths ------------------------------------------------------- */

/* One subpath over every grammar: its symbols as stream words. */
struct hot {
    struct wpp_term *sym;
    uint32_t len;
    uint64_t found, count, cost;
};

static uint64_t term_cost(const struct loaded *l, const struct wpp_term *t, bool paths,
                          struct path *scratch, const struct pp_func_meta **owner)
{
    const struct trace_tu *tu;
    const struct pp_func_meta *f;
    uint64_t id;
    if (t->marker || !trace_path(&l->view, t->w1 & PATHPROF_EV_INDEX_MASK, &tu, &f, &id))
        return 0;
    if (paths)
        return 1;
    struct pp_error err;
    if (*owner == NULL || (*owner)->nnodes < f->nnodes) {
        path_release(scratch);
        *owner = NULL;
        if (!path_alloc(f, scratch, &err))
            return 0;
        *owner = f;
    }
    return path_decode(f, id, scratch, &err) ? path_nblocks(scratch) : 0;
}

static int by_expense(const void *a, const void *b)
{
    const struct hot *x = a, *y = b;
    unsigned __int128 ex = (unsigned __int128)x->count * x->cost;
    unsigned __int128 ey = (unsigned __int128)y->count * y->cost;
    if (ex != ey)
        return ex < ey ? 1 : -1;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    for (uint32_t i = 0; i < x->len; i++)
        if (x->sym[i].w1 != y->sym[i].w1 || x->sym[i].w2 != y->sym[i].w2)
            return x->sym[i].w1 < y->sym[i].w1 || (x->sym[i].w1 == y->sym[i].w1 &&
                                                   x->sym[i].w2 < y->sym[i].w2) ? -1 : 1;
    return 0;
}

static bool same_syms(const struct hot *h, const struct wpp_grammar *g, const struct wpp_sub *s)
{
    if (h->len != s->len)
        return false;
    for (uint32_t i = 0; i < s->len; i++)
        if (h->sym[i].w1 != g->terms[s->terms[i]].w1 || h->sym[i].w2 != g->terms[s->terms[i]].w2)
            return false;
    return true;
}

static void print_symbol_line(struct event_lines *d, const struct loaded *l,
                              const struct wpp_term *t)
{
    const struct trace_tu *tu;
    const struct pp_func_meta *f;
    uint64_t id;
    fputs("    ", stdout);
    if (t->marker) {
        const struct trace_tu *ftu;
        const struct pp_func_meta *ff;
        if (trace_func(&l->view, PATHPROF_MARK_PAYLOAD(t->w1), &ftu, &ff))
            out_safe(stdout, ff->name);
        else
            fputc('?', stdout);
        printf(" %s 0x%" PRIx64 "\n", PATHPROF_MARK_KIND(t->w1) == PATHPROF_MARK_ENTER ? "ENTER"
                                      : PATHPROF_MARK_KIND(t->w1) == PATHPROF_MARK_RESUME ? "RESUME"
                                                                                   : "MARKER",
               t->w2);
        return;
    }
    bool start = t->w1 & PATHPROF_EV_START, ret = t->w1 & PATHPROF_EV_RET;
    const char *bits = start && ret ? "START+RET" : start ? "START" : ret ? "RET" : "-";
    if (trace_path(&l->view, t->w1 & PATHPROF_EV_INDEX_MASK, &tu, &f, &id)) {
        out_safe(stdout, f->name);
        printf(" path %" PRIu64 " %s", id, bits);
        event_lines_path_lines(d, f, id);
    } else {
        printf("? index %" PRIu64 " %s", (uint64_t)(t->w1 & PATHPROF_EV_INDEX_MASK), bits);
    }
    putchar('\n');
}

static uint64_t mix_word(uint64_t h, const struct wpp_term *t)
{
    h = (h ^ t->w1) * 0x100000001b3ull;
    h = (h ^ t->w2) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

static uint64_t hot_hash(const struct wpp_term *sym, uint32_t len)
{
    uint64_t h = 0xcbf29ce484222325ull ^ len;
    for (uint32_t i = 0; i < len; i++)
        h = mix_word(h, &sym[i]);
    return h;
}

static int hot(const struct opts *o, struct loaded *l)
{
    const struct wpp_data *w = &l->w;
    struct hot *all = NULL;
    size_t n = 0, cap = 0, tcap = 0, *table = NULL;
    bool oom = false;
    struct path scratch = {0};
    const struct pp_func_meta *owner = NULL;
    struct pp_error err;
    int status = 0;

    for (size_t i = 0; i < w->ngrammars && status == 0; i++) {
        const struct wpp_grammar *g = &w->g[i];
        uint64_t *cost = malloc((g->nterms ? g->nterms : 1) * sizeof *cost);
        if (!cost) {
            status = EXIT_TROUBLE;
            break;
        }
        for (uint64_t t = 0; t < g->nterms; t++)
            cost[t] = term_cost(l, &g->terms[t], o->cost_paths, &scratch, &owner);
        struct wpp_subs subs;
        if (!wpp_hot(g, cost, (uint32_t)o->min_len, (uint32_t)o->max_len, o->min_cost, o->all,
                     &subs, &err)) {
            error_in_file(o->file, err.msg);
            free(cost);
            status = EXIT_TROUBLE;
            break;
        }
        free(cost);
        /* Join the same subpath found in several grammars (threads,
         * epochs): a table of ALL's indices by the words' hash. */
        for (size_t k = 0; k < subs.n && status == 0; k++) {
            const struct wpp_sub *u = &subs.v[k];
            if ((n + 1) * 2 > tcap) {
                size_t ncap = tcap ? tcap * 2 : 1024;
                size_t *nt = calloc(ncap, sizeof *nt);
                if (!nt) {
                    status = EXIT_TROUBLE, oom = true;
                    break;
                }
                for (size_t j = 0; j < n; j++) {
                    size_t h = hot_hash(all[j].sym, all[j].len) & (ncap - 1);
                    while (nt[h])
                        h = (h + 1) & (ncap - 1);
                    nt[h] = j + 1;
                }
                free(table);
                table = nt;
                tcap = ncap;
            }
            uint64_t hh = 0xcbf29ce484222325ull ^ u->len;
            for (uint32_t q = 0; q < u->len; q++)
                hh = mix_word(hh, &g->terms[u->terms[q]]);
            size_t h = hh & (tcap - 1), j = SIZE_MAX;
            for (; table[h]; h = (h + 1) & (tcap - 1))
                if (same_syms(&all[table[h] - 1], g, u)) {
                    j = table[h] - 1;
                    break;
                }
            if (j == SIZE_MAX) {
                if (n == cap) {
                    size_t ncap = cap ? cap * 2 : 64;
                    struct hot *na = realloc(all, ncap * sizeof *na);
                    if (!na) {
                        status = EXIT_TROUBLE, oom = true;
                        break;
                    }
                    all = na;
                    cap = ncap;
                }
                all[n].sym = malloc(u->len * sizeof *all[n].sym);
                if (!all[n].sym) {
                    status = EXIT_TROUBLE, oom = true;
                    break;
                }
                for (uint32_t q = 0; q < u->len; q++)
                    all[n].sym[q] = g->terms[u->terms[q]];
                all[n].len = u->len;
                all[n].found = all[n].count = 0;
                all[n].cost = u->cost;
                table[h] = n + 1;
                j = n++;
            }
            all[j].found += u->found;
            all[j].count += u->count;
        }
        wpp_subs_free(&subs);
    }
    path_release(&scratch);
    free(table);
    if (oom)
        error_in_file(o->file, "out of memory joining the subpaths of its grammars");
    if (status) {
        for (size_t i = 0; i < n; i++)
            free(all[i].sym);
        free(all);
        return status;
    }
    if (n > 1) /* none found: ALL may be NULL, which qsort must not get */
        qsort(all, n, sizeof *all, by_expense);
    size_t shown = o->top && o->top < n ? (size_t)o->top : n;
    if (o->json) {
        printf("{\"profile\":");
        json_string(stdout, o->file);
        printf(",\"algorithm\":\"%s\",\"min_length\":%" PRIu64 ",\"max_length\":%" PRIu64
               ",\"min_cost\":%" PRIu64 ",\"cost\":\"%s\",\"subpaths_found\":%zu,\"subpaths\":[",
               o->all ? "all" : "fig7", o->min_len, o->max_len, o->min_cost,
               o->cost_paths ? "paths" : "blocks", n);
        for (size_t i = 0; i < shown; i++) {
            printf("%s{\"length\":%" PRIu32 ",\"count\":%" PRIu64 ",\"found\":%" PRIu64
                   ",\"cost\":%" PRIu64 ",\"words\":[", i ? "," : "", all[i].len, all[i].count,
                   all[i].found, all[i].cost);
            for (uint32_t k = 0; k < all[i].len; k++) {
                printf("%s\"0x%016" PRIx64, k ? "," : "", all[i].sym[k].w1);
                if (all[i].sym[k].marker)
                    printf(":0x%016" PRIx64, all[i].sym[k].w2);
                putchar('"');
            }
            printf("]}");
        }
        printf("]}\n");
    } else {
        struct event_lines d;
        event_lines_init(&d, stdout, &l->view);
        fputs("# wpp ", stdout);
        out_safe(stdout, o->file);
        printf(": %s subpaths of %" PRIu64 " to %" PRIu64 " paths with cost x count >= %"
               PRIu64 " (cost: %s), %zu found, %zu shown\n",
               o->all ? "all" : "minimal hot (Fig. 7)", o->min_len, o->max_len, o->min_cost,
               o->cost_paths ? "1 per path" : "blocks per path", n, shown);
        for (size_t i = 0; i < shown; i++) {
            printf("#%zu: %" PRIu32 " paths, count %" PRIu64 " (found %" PRIu64 "), cost %"
                   PRIu64 " per run, %" PRIu64 " in all\n", i + 1, all[i].len, all[i].count,
                   all[i].found, all[i].cost, all[i].count * all[i].cost);
            for (uint32_t k = 0; k < all[i].len; k++)
                print_symbol_line(&d, l, &all[i].sym[k]);
        }
        event_lines_free(&d);
    }
    for (size_t i = 0; i < n; i++)
        free(all[i].sym);
    free(all);
    return 0;
}

int cmd_wpp(int argc, char **argv)
{
    struct opts o = {.min_len = 2, .max_len = 8, .min_cost = 1000, .top = 20, .xz = true};
    bool options_done = false;
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            wpp_usage(stdout);
            return finish_output(0);
        } else if (!options_done && strcmp(arg, "--expand") == 0) {
            o.expand = true;
        } else if (!options_done && strcmp(arg, "--hot") == 0) {
            o.hot = true;
        } else if (!options_done && strcmp(arg, "--all") == 0) {
            o.all = o.hot = true;
        } else if (!options_done && strcmp(arg, "--json") == 0) {
            o.json = true;
        } else if (!options_done && strcmp(arg, "--no-xz") == 0) {
            o.xz = false;
        } else if (!options_done && is_opt(arg, "--thread")) {
            if (!num_arg(argc, argv, &a, "--thread", &o.thread))
                return EXIT_TROUBLE;
            if (o.thread == 0 || o.thread > UINT32_MAX)
                return usage_error("wpp: --thread needs a thread number (1, 2, ...)");
            o.have_thread = true;
        } else if (!options_done && is_opt(arg, "--min-length")) {
            if (!num_arg(argc, argv, &a, "--min-length", &o.min_len))
                return EXIT_TROUBLE;
        } else if (!options_done && is_opt(arg, "--max-length")) {
            if (!num_arg(argc, argv, &a, "--max-length", &o.max_len))
                return EXIT_TROUBLE;
        } else if (!options_done && is_opt(arg, "--min-cost")) {
            if (!num_arg(argc, argv, &a, "--min-cost", &o.min_cost))
                return EXIT_TROUBLE;
        } else if (!options_done && is_opt(arg, "--top")) {
            if (!num_arg(argc, argv, &a, "--top", &o.top))
                return EXIT_TROUBLE;
        } else if (!options_done && is_opt(arg, "--cost")) {
            const char *v = arg[6] == '=' ? arg + 7 : a + 1 < argc ? argv[++a] : NULL;
            if (v && strcmp(v, "paths") == 0)
                o.cost_paths = true;
            else if (!v || strcmp(v, "blocks") != 0)
                return usage_error("wpp: --cost is blocks or paths");
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("wpp: unknown option '%s'", arg);
        } else if (!o.file) {
            o.file = arg;
        } else {
            return usage_error("wpp: one profile at a time ('%s' and '%s')", o.file, arg);
        }
    }
    if (!o.file)
        return usage_error("wpp: which profile? (pathprof wpp PROFILE)");
    if (o.min_len < 1 || o.max_len < o.min_len || o.max_len > 64)
        return usage_error("wpp: lengths must satisfy 1 <= --min-length <= --max-length <= 64");
    if (o.expand && (o.hot || o.json))
        return usage_error("wpp: --expand prints the streams; it takes neither --hot nor --json");
    if (o.have_thread && !o.expand)
        return usage_error("wpp: --thread goes with --expand");
    struct loaded l;
    int status = load(o.file, &l);
    if (status)
        return status;
    status = o.expand ? expand(&o, &l) : o.hot ? hot(&o, &l) : summary(&o, &l);
    unload(&l);
    return finish_output(status);
}
