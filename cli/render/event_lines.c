/* event_lines.c - a thread's events, one line each (see event_lines.h).
 * Lines are plain words separated by spaces so that tests and scripts can
 * count them; comment lines start with '#'. */
#include "event_lines.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out/text_out.h"
#include "pathprof-abi.h"

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

void event_lines_init(struct event_lines *d, FILE *out, const struct trace *t)
{
    memset(d, 0, sizeof *d);
    d->out = out;
    d->t = t;
}

void event_lines_free(struct event_lines *d)
{
    path_release(&d->path);
    free(d->ranges);
    d->ranges = NULL;
}

static void out_errors(FILE *out, unsigned errors)
{
    for (unsigned i = 0; i < 6; i++)
        if (errors & (1u << i))
            fprintf(out, " !%s", error_names[i]);
}

static void out_func_name(struct event_lines *d, uint64_t fn)
{
    const struct trace_tu *tu;
    const struct pp_func_meta *f;
    if (fn != PP_ACT_NO_FUNC && trace_func(d->t, fn, &tu, &f))
        out_safe(d->out, f->name);
    else
        fputc('?', d->out);
}

bool event_lines_path_lines(struct event_lines *d, const struct pp_func_meta *f, uint64_t id)
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

static bool out_step(struct event_lines *d, uint64_t index, const struct pp_act_step *s)
{
    FILE *out = d->out;
    const struct trace_tu *tu;
    const struct pp_func_meta *f;
    uint64_t id;

    if (s->what == PP_ACT_HALF)
        return true;
    fprintf(out, "%" PRIu32 " %" PRIu64 " %zu ", d->tid, index, s->depth);
    switch (s->what) {
    case PP_ACT_PATH: {
        uint64_t g = s->word & PATHPROF_EV_INDEX_MASK;
        bool start = s->word & PATHPROF_EV_START, ret = s->word & PATHPROF_EV_RET;
        const char *bits = start && ret ? "START+RET" : start ? "START" : ret ? "RET" : "-";
        if (trace_path(d->t, g, &tu, &f, &id)) {
            out_safe(out, f->name);
            fprintf(out, " path %" PRIu64 " %s", id, bits);
            if (!event_lines_path_lines(d, f, id))
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
        fprintf(out, "BURST %s",
                PATHPROF_MARK_PAYLOAD(s->word) == PATHPROF_BURST_END ? "end" : "begin");
        if (s->npopped)
            fprintf(out, " unwound %zu", s->npopped);
        break;
    case PP_ACT_RUN: {
        uint64_t g = s->word & PATHPROF_EV_INDEX_MASK;
        fprintf(out, "RUN %" PRIu64 " x ", s->repeat);
        if (trace_path(d->t, g, &tu, &f, &id)) {
            out_safe(out, f->name);
            fprintf(out, " path %" PRIu64 " -", id);
            if (!event_lines_path_lines(d, f, id))
                return false;
        } else {
            fprintf(out, "? index %" PRIu64 " -", g);
        }
        break;
    }
    case PP_ACT_TIMING:
        fprintf(out, "VPP %" PRIu64 " ticks (bias not subtracted), start 0x%" PRIx64,
                (uint64_t)PATHPROF_MARK_PAYLOAD(s->word), s->frame);
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

void event_lines_thread(struct event_lines *d, uint32_t tid, uint64_t nevents, bool ended)
{
    fprintf(d->out, "# thread %" PRIu32 ": %" PRIu64 " events, %s\n", tid, nevents,
            ended ? "stream ended" : "stream cut short (the thread still ran)");
    d->tid = tid;
    d->index = 0;
    pp_act_init(&d->st, resolve, (void *)d->t);
}

bool event_lines_word(struct event_lines *d, uint64_t word)
{
    struct pp_act_step step;
    pp_act_feed(&d->st, word, &step);
    /* A marker's line carries the index of its first word. */
    bool ok = out_step(d, step.what == PP_ACT_PATH ? d->index : d->index - 1, &step);
    d->index++;
    return ok;
}

void event_lines_thread_end(struct event_lines *d)
{
    FILE *out = d->out;
    const struct pp_act_stack *st = &d->st;
    if (st->has_half)
        fprintf(out, "# thread %" PRIu32 ": the stream ends inside a marker\n", d->tid);
    fprintf(out, "# thread %" PRIu32 ": ends at depth %zu", d->tid, pp_act_depth(st));
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
    pp_act_free(&d->st);
}

void event_lines_thread_abandon(struct event_lines *d)
{
    pp_act_free(&d->st);
}
