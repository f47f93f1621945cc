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

#include "commands.h"
#include "out/text_out.h"
#include "render/event_lines.h"
#include "trace/format.h"
#include "read/trace.h"

/* One thread: its events in order, or its words in hex (--raw). */
static bool dump_thread(struct event_lines *d, const struct trace_thread *th, bool raw)
{
    struct trace_cursor c = trace_cursor(th);
    uint64_t word, index = 0;
    bool ended = th->flags & PP_TRACE_THREAD_ENDED;

    if (raw) {
        fprintf(d->out, "# thread %" PRIu32 ": %" PRIu64 " events, %s\n", th->tid, th->nevents,
                ended ? "stream ended" : "stream cut short (the thread still ran)");
        while (trace_next(&c, &word))
            fprintf(d->out, "%" PRIu32 " %" PRIu64 " 0x%016" PRIx64 "\n", th->tid, index++, word);
        return true;
    }
    event_lines_thread(d, th->tid, th->nevents, ended);
    bool ok = true;
    while (ok && trace_next(&c, &word))
        ok = event_lines_word(d, word);
    if (ok)
        event_lines_thread_end(d);
    else
        event_lines_thread_abandon(d);
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
    fprintf(out, ", started %s, %zu TUs, %" PRIu64 " functions, %zu thread%s, %" PRIu64
                 " events\n", when, t->ntus, nfuncs, t->nthreads, t->nthreads == 1 ? "" : "s",
            events);
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
    struct event_lines d;
    struct pp_error err;
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
    if (!trace_read(file, &t, &err)) {
        error_in_file(file, err.msg);
        return EXIT_TROUBLE;
    }
    event_lines_init(&d, stdout, &t);
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
    event_lines_free(&d);
    trace_free(&t);
    return finish_output(status);
}
