/* dump.c - `pathprof dump TRACE [--thread N] [--raw]`: a trace, one line
 * per event.
 *
 * For the programmer debugging a stream (or an analyzer): each thread's
 * events in order, with the activation each belongs to rebuilt by the same
 * library the analyzers use (analyzers/common/activations.c), the function, the
 * path ID with its START/RET bits, and the source lines the path runs.
 * Lines are plain words separated by spaces so that tests and scripts can
 * count them; comment lines start with '#'. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/activations.h"
#include "commands.h"
#include "graph/path.h"
#include "pathprof-abi.h"
#include "out/text_out.h"
#include "trace/format.h"
#include "read/trace.h"

struct dump {
    FILE *out;
    const struct trace *t;
    struct pp_error err;
    struct line_range *ranges; /* room for the longest path of any function */
    struct path path;
    const struct pp_func_meta *path_owner; /* the function PATH has room for */
    uint64_t errors[6];        /* totals of the PP_ACT_ERR_* bits, in bit order */
};

static uint64_t resolve(void *ctx, uint64_t index)
{
    const struct trace *t = ctx;
    const struct trace_tu *tu;
    const struct pp_func_meta *f;
    uint64_t id;
    return trace_path(t, index, &tu, &f, &id) ? trace_fn_index(t, tu, f) : PP_ACT_NO_FUNC;
}

static const char *const error_names[] = {"resync", "orphan", "mismatch",
                                          "unknown", "marker", "nomem"};

static void out_errors(FILE *out, unsigned errors)
{
    for (unsigned i = 0; i < 6; i++)
        if (errors & (1u << i))
            fprintf(out, " !%s", error_names[i]);
}

static void out_func_name(struct dump *d, uint64_t fn)
{
    const struct trace_tu *tu;
    const struct pp_func_meta *f;
    if (fn != PP_ACT_NO_FUNC && trace_func(d->t, fn, &tu, &f))
        out_safe(d->out, f->name);
    else
        fputc('?', d->out);
}

/* " t.c:3-4 t.c:7": the lines of path ID of F. */
static bool out_path_lines_short(struct dump *d, const struct pp_func_meta *f, uint64_t id)
{
    if (d->path_owner == NULL || d->path_owner->nnodes < f->nnodes) {
        struct line_range *bigger;
        path_release(&d->path);
        d->path_owner = NULL;
        if (!path_alloc(f, &d->path, &d->err))
            return false;
        bigger = realloc(d->ranges, (size_t)f->nnodes * sizeof *bigger);
        if (!bigger)
            return pp_fail(&d->err, "out of memory");
        d->ranges = bigger;
        d->path_owner = f;
    }
    if (!path_decode(f, id, &d->path, &d->err))
        return pp_context(&d->err, "function %s", f->name);
    uint32_t n = path_line_ranges(f, &d->path, d->ranges);
    for (uint32_t i = 0; i < n; i++) {
        fputc(' ', d->out);
        out_lines(d->out, d->ranges[i].file, d->ranges[i].first, d->ranges[i].last);
    }
    return true;
}

static bool out_step(struct dump *d, uint32_t tid, uint64_t index, const struct pp_act_step *s)
{
    FILE *out = d->out;
    const struct trace_tu *tu;
    const struct pp_func_meta *f;
    uint64_t id;

    if (s->what == PP_ACT_HALF)
        return true;
    fprintf(out, "%" PRIu32 " %" PRIu64 " %zu ", tid, index, s->depth);
    switch (s->what) {
    case PP_ACT_PATH: {
        uint64_t g = s->word & PATHPROF_EV_INDEX_MASK;
        bool start = s->word & PATHPROF_EV_START, ret = s->word & PATHPROF_EV_RET;
        const char *bits = start && ret ? "START+RET" : start ? "START" : ret ? "RET" : "-";
        if (trace_path(d->t, g, &tu, &f, &id)) {
            out_safe(out, f->name);
            fprintf(out, " path %" PRIu64 " %s", id, bits);
            if (!out_path_lines_short(d, f, id))
                return false;
        } else {
            fprintf(out, "? index %" PRIu64 " %s", g, bits);
        }
        break;
    }
    case PP_ACT_ENTER:
    case PP_ACT_RESUME:
        out_func_name(d, s->func);
        fprintf(out, " %s 0x%" PRIx64, s->what == PP_ACT_ENTER ? "ENTER" : "RESUME", s->frame);
        if (s->npopped)
            fprintf(out, " unwound %zu", s->npopped);
        break;
    case PP_ACT_BURST:
        fprintf(out, "BURST %s", PATHPROF_MARK_PAYLOAD(s->word) == PATHPROF_BURST_END ? "end" : "begin");
        if (s->npopped)
            fprintf(out, " unwound %zu", s->npopped);
        break;
    default:
        fprintf(out, "? MARKER kind %u payload %" PRIu64 " word 0x%" PRIx64,
                PATHPROF_MARK_KIND(s->word), (uint64_t)PATHPROF_MARK_PAYLOAD(s->word), s->frame);
        break;
    }
    out_errors(out, s->errors);
    fputc('\n', out);
    for (unsigned i = 0; i < 6; i++)
        d->errors[i] += (s->errors >> i) & 1u;
    return true;
}

static void out_thread_end(struct dump *d, const struct trace_thread *th,
                           const struct pp_act_stack *st)
{
    FILE *out = d->out;
    fprintf(out, "# thread %" PRIu32 ": ends at depth %zu", th->tid, pp_act_depth(st));
    if (st->depth) {
        /* What is still open says where the stream was cut, or lost. */
        fputs(" (", out);
        for (size_t i = st->depth; i > 0 && i + 3 > st->depth; i--) {
            out_func_name(d, st->act[i - 1].func);
            fputs(i > 1 ? " < " : "", out);
        }
        fputs(st->depth > 3 ? "...)" : ")", out);
    }
    fputs("; errors:", out);
    if (pp_act_errors(st) == 0)
        fputs(" none", out);
    else {
        const uint64_t n[6] = {st->resync, st->orphan, st->mismatch, st->unknown,
                               st->bad_marker, st->nomem};
        for (unsigned i = 0; i < 6; i++)
            if (n[i])
                fprintf(out, " %" PRIu64 " %s", n[i], error_names[i]);
    }
    fputc('\n', out);
}

static bool dump_thread(struct dump *d, const struct trace_thread *th, bool raw)
{
    struct trace_cursor c = trace_cursor(th);
    struct pp_act_stack st;
    struct pp_act_step step;
    uint64_t word, index = 0;
    bool ok = true;

    fprintf(d->out, "# thread %" PRIu32 ": %" PRIu64 " events, %s\n", th->tid, th->nevents,
            th->flags & PP_TRACE_THREAD_ENDED ? "stream ended"
                                              : "stream cut short (the thread still ran)");
    if (raw) {
        while (trace_next(&c, &word))
            fprintf(d->out, "%" PRIu32 " %" PRIu64 " 0x%016" PRIx64 "\n", th->tid, index++, word);
        return true;
    }
    pp_act_init(&st, resolve, (void *)d->t);
    while (ok && trace_next(&c, &word)) {
        pp_act_feed(&st, word, &step);
        /* A marker's line carries the index of its first word. */
        ok = out_step(d, th->tid, step.what == PP_ACT_PATH ? index : index - 1, &step);
        index++;
    }
    if (ok && st.has_half)
        fprintf(d->out, "# thread %" PRIu32 ": the stream ends inside a marker\n", th->tid);
    if (ok)
        out_thread_end(d, th, &st);
    pp_act_free(&st);
    return ok;
}

static void out_header(FILE *out, const char *file, const struct trace *t)
{
    uint64_t events = 0, nfuncs = 0;
    char when[64] = "?";
    time_t tm_t = (time_t)t->time;
    struct tm tm;

    for (size_t i = 0; i < t->nthreads; i++)
        events += t->threads[i].nevents;
    for (size_t i = 0; i < t->ntus; i++)
        nfuncs += t->tus[i].meta.nfuncs;
    if ((uint64_t)tm_t == t->time && gmtime_r(&tm_t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    fputs("# trace ", out);
    out_safe(out, file);
    fprintf(out, ": pid %" PRIu64, t->pid);
    if (t->parent_pid)
        fprintf(out, " (forked from %" PRIu64 ")", t->parent_pid);
    fprintf(out, ", started %s, %zu TUs, %" PRIu64 " functions, %zu threads, %" PRIu64
                 " events\n", when, t->ntus, nfuncs, t->nthreads, events);
}

static void dump_usage(FILE *out)
{
    fputs("Usage: pathprof dump TRACE [--thread N] [--raw]\n"
          "Prints the event stream of trace file TRACE (PATHPROF_ANALYZER=trace), one\n"
          "line per event: thread, event number, activation depth, function, then\n"
          "'path ID START|RET|START+RET|-' and the path's source lines, or a marker\n"
          "'ENTER|RESUME FRAME [unwound N]'. Comment lines start with '#'.\n"
          "  --thread N   only producer thread N\n"
          "  --raw        the words in hex, undecoded\n",
          out);
}

int cmd_dump(int argc, char **argv)
{
    const char *file = NULL;
    bool raw = false, options_done = false, have_thread = false;
    uint64_t only = 0;
    struct trace t;
    struct dump d;
    int status = 0;

    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            dump_usage(stdout);
            return finish_output(0);
        } else if (!options_done && strcmp(arg, "--raw") == 0) {
            raw = true;
        } else if (!options_done && (strcmp(arg, "--thread") == 0 ||
                                     strncmp(arg, "--thread=", 9) == 0)) {
            const char *v = arg[8] == '=' ? arg + 9 : a + 1 < argc ? argv[++a] : NULL;
            if (!v || !parse_u64(v, &only) || only == 0 || only > UINT32_MAX)
                return usage_error("dump: --thread needs a thread number (1, 2, ...)");
            have_thread = true;
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("dump: unknown option '%s'", arg);
        } else if (!file) {
            file = arg;
        } else {
            return usage_error("dump: one trace at a time ('%s' and '%s')", file, arg);
        }
    }
    if (!file)
        return usage_error("dump: which trace? (pathprof dump TRACE)");
    if (!trace_read(file, &t, &d.err)) {
        error_in_file(file, d.err.msg);
        return EXIT_TROUBLE;
    }
    memset(&d, 0, sizeof d);
    d.out = stdout;
    d.t = &t;
    out_header(stdout, file, &t);
    bool found = !have_thread;
    for (size_t i = 0; i < t.nthreads && status == 0; i++) {
        if (have_thread && t.threads[i].tid != only)
            continue;
        found = true;
        if (!dump_thread(&d, &t.threads[i], raw)) {
            fflush(stdout);
            error_in_file(file, d.err.msg);
            status = EXIT_TROUBLE;
        }
    }
    if (!found) {
        fputs("pathprof: ", stderr);
        out_safe(stderr, file);
        fprintf(stderr, ": no thread %" PRIu64 " (%zu threads", only, t.nthreads);
        if (t.nthreads)
            fprintf(stderr, ": %" PRIu32 "-%" PRIu32, t.threads[0].tid,
                    t.threads[t.nthreads - 1].tid);
        fputs(")\n", stderr);
        status = EXIT_NOT_FOUND;
    }
    path_release(&d.path);
    free(d.ranges);
    trace_free(&t);
    return finish_output(status);
}
