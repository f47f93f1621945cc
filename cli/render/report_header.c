/* report_header.c - the header every report of a profile starts with:
 * the NOT EXACT block when the stream lost events or a section that says
 * so is damaged, then the program, the mode and the totals.  Below the
 * reports that print it (report_text.c, kipf_report.c, kprune_report.c),
 * so that none of them calls another, and report.c, which dispatches to
 * them all, is called back by none (scripts/check-layers.pl). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pathprof-abi.h"
#include "report_header.h"
#include "query/estimate.h"
#include "read/kipf.h"
#include "read/kprune.h"
#include "tpp_summary.h"
#include "read/sections.h"
#include "graph/ppp.h"
#include "out/text_out.h"

static void out_not_exact(FILE *out, const struct pp_profile *p)
{
    const struct pp_stream_info *s = &p->stream;

    if (p->broken[PP_PART_STREAM] != PP_NO_SECTION) {
        fprintf(out, "!!! NOT KNOWN TO BE EXACT: section %" PRIu32 " (STREAM) is damaged, so "
                     "whether events were lost is not known\n\n",
                p->sections[p->broken[PP_PART_STREAM]].index);
        return;
    }
    if (!p->has_stream || (!s->dropped && !s->late && !s->resync && !s->unknown))
        return;
    fputs("!!! NOT EXACT: this profile misses events, or attributed some wrongly\n", out);
    if (s->dropped)
        fprintf(out, "!!!   %" PRIu64 " events dropped: the analyzers fell behind "
                     "(PATHPROF_POLICY=drop)\n", s->dropped);
    if (s->late)
        fprintf(out, "!!!   %" PRIu64 " late events: emitted after their thread's stream "
                     "was closed, or lost under a stale cursor (an instrumented signal "
                     "handler), or by a child sharing the memory past its parent's chunk "
                     "(vfork before exec, clone(CLONE_VM)); docs/streaming.md, section 2\n",
                s->late);
    if (s->resync)
        fprintf(out, "!!!   %" PRIu64 " activation resyncs: a RESUME marker matched no "
                     "activation\n", s->resync);
    if (s->unknown)
        fprintf(out, "!!!   %" PRIu64 " events of translation units that were not "
                     "registered\n", s->unknown);
    fputs("!!! The counts below miss the paths those events stood for.\n\n", out);
}

static void out_mode(FILE *out, const struct pp_profile *p)
{
    const struct pp_stream_info *s = &p->stream;

    if (p->mode != PATHPROF_MODE_STREAM) {
        fputs("mode       count\n", out);
        return;
    }
    fputs("mode       stream", out);
    if (p->has_stream) {
        fputs(" (analyzers ", out);
        out_safe(out, *s->analyzers ? s->analyzers : "none");
        fprintf(out, ", policy %s, %" PRIu32 " analyzer thread%s, chunks of %" PRIu32
                     " events)\n", s->policy == PATHPROF_POLICY_DROP ? "drop" : "block",
                s->analyzer_threads, s->analyzer_threads == 1 ? "" : "s", s->chunk_events);
        fprintf(out, "stream     %" PRIu64 " events from %" PRIu64 " thread%s; producers "
                     "blocked %.3f s\n", s->events, s->producers, s->producers == 1 ? "" : "s",
                (double)s->blocked_ns / 1e9);
    } else if (p->broken[PP_PART_STREAM] != PP_NO_SECTION) {
        fputs(" (STREAM section damaged: whether events were lost is not known)\n", out);
    } else {
        fputs(" (no STREAM section: whether events were lost is not known)\n", out);
    }
}

static bool bl_counted(const struct pp_profile *p);
static void out_analysis(FILE *out, const struct pp_profile *p);

/* A sampled profile says so before anything else, and how its counts
 * scale (docs/sampling.md): a burst's count is never an exact count. */
static void out_sampling(FILE *out, const struct pp_profile *p)
{
    const struct pp_sampling_info *s = &p->sampling;
    double scale = profile_sample_scale(p);

    if (p->broken[PP_PART_SAMPLING] != PP_NO_SECTION) {
        fprintf(out, "sampled    yes, but section %" PRIu32 " (SAMPLING) is damaged: the counts "
                     "of sampled functions are burst counts that cannot be scaled\n",
                p->sections[p->broken[PP_PART_SAMPLING]].index);
        return;
    }
    if (!p->has_sampling)
        return;
    if (s->sample_n == 0) {
        fputs("sampled    never (PATHPROF_SAMPLE=0): sampled functions counted no path\n", out);
        return;
    }
    if (s->sample_n == 1) {
        fputs("sampled    1/1 (always): every path of every function was counted; the counts "
              "are exact\n", out);
        return;
    }
    fprintf(out, "sampled    1/%" PRIu64 ", bursts of %" PRIu64 " checks: %" PRIu64 " bursts, %"
                 PRIu64 " of %" PRIu64 " checks in bursts\n", s->sample_n, s->burst, s->bursts,
            s->burst_checks, s->gap_checks + s->burst_checks);
    if (scale == 0.0)
        fputs("estimates  none: no burst ran, sampled functions counted no path\n", out);
    else
        fprintf(out, "estimates  ~N = N x %.6g for functions marked [sampled]: N paths "
                     "seen in bursts, ~N the estimate of the full count; intervals are %.0f%% "
                     "confidence intervals over bursts (docs/sampling.md)\n", scale,
                100.0 * PP_ESTIMATE_CONFIDENCE);
}

/* A PPP profile says so, and how its runs split between the interesting
 * paths (counted in arrays by PPP number) and the others (by Ball-Larus
 * ID in hash tables). */
static void out_ppp(FILE *out, const struct pp_profile *p)
{
    size_t nfuncs = 0, ntotal = 0, i;
    uint64_t ninteresting = 0, in = 0, other = 0, total = 0, r;
    uint32_t number;

    for (i = 0; i < p->nfuncs; i++) {
        const struct pp_func *f = &p->funcs[i];
        if (!(f->meta->flags & PATHPROF_FN_PPP))
            continue;
        nfuncs++;
        ninteresting += ppp_interesting(f->meta);
        if (f->meta->ppp_total) {
            ntotal++;
            total += f->cold;
        }
        for (r = 0; r < f->nrecords; r++) {
            if (ppp_number_of(f->meta, f->records[r].id, &number))
                in += f->records[r].count;
            else
                other += f->records[r].count;
        }
    }
    if (!nfuncs)
        return;
    fprintf(out, "ppp        preferential path profile: %zu functions with %" PRIu64
                 " interesting paths; %" PRIu64 " runs of interesting paths counted by PPP "
                 "number, %" PRIu64 " of other paths in those functions by Ball-Larus ID",
            nfuncs, ninteresting, in, other);
    if (ntotal)
        fprintf(out, ", %" PRIu64 " only as a total (ppp-uninteresting=total, %zu functions)",
                total, ntotal);
    fputc('\n', out);
}

static void out_header(FILE *out, const struct pp_profile *p)
{
    uint64_t total = profile_total(p);
    size_t executed = 0, i;
    char when[64] = "?";
    time_t t = (time_t)p->time;
    struct tm tm;

    for (i = 0; i < p->nfuncs; i++)
        executed += p->funcs[i].total != 0;
    if ((uint64_t)t == p->time && gmtime_r(&t, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);

    fputs("program    ", out);
    out_safe(out, p->has_program ? p->program
                  : p->broken[PP_PART_PROGRAM] != PP_NO_SECTION ? "(PROGRAM section damaged)"
                                                                 : "(not recorded)");
    if (p->has_program && *p->cmdline) {
        fputs("\ncommand    ", out);
        out_safe(out, p->cmdline);
    }
    fprintf(out, "\npid        %" PRIu64 "\nwritten    %s\n", p->pid, when);
    out_mode(out, p);
    out_analysis(out, p);
    out_sampling(out, p);
    /* report --k goes on without the path counts (sections.h). */
    if (p->broken[PP_PART_TU_COUNTS] != PP_NO_SECTION) {
        fprintf(out, "paths      not known: section %" PRIu32 " (TU) is damaged\n"
                     "functions  %zu instrumented\n",
                p->sections[p->broken[PP_PART_TU_COUNTS]].index, p->nfuncs);
        return;
    }
    if (total == 0 && !bl_counted(p)) {
        /* A ksf-only run: no path was counted, which is not "0 executed". */
        fputs("paths      not counted (the blpp analyzer did not run; report --k shows the "
              "k-iteration paths)\n", out);
    } else {
        fprintf(out, "paths      %" PRIu64 " executed", total);
        if ((p->has_sampling && p->sampling.sample_n != 1) ||
            p->broken[PP_PART_SAMPLING] != PP_NO_SECTION)
            fputs("; of sampled functions only those seen in bursts", out);
        /* Stream mode counts in the analyzers: the update totals are 0. */
        if (p->has_program && p->mode != PATHPROF_MODE_STREAM) {
            fprintf(out, " (array updates %" PRIu64 ", hash updates %" PRIu64 ")",
                    p->array_updates, p->hash_updates);
            /* In 128 bits: two totals that wrap to the file's would agree. */
            if ((unsigned __int128)p->array_updates + p->hash_updates != total)
                fputs(" -- the program's totals differ from the counts in the file", out);
        }
        fputc('\n', out);
    }
    if (total == 0 && !bl_counted(p))
        fprintf(out, "functions  %zu instrumented\n", p->nfuncs);
    else
        fprintf(out, "functions  %zu instrumented, %zu executed\n", p->nfuncs, executed);
    out_ppp(out, p);
    tpp_summary_text(out, p);
}

/* Whether the profile's BL path counts were recorded: always in count
 * mode; in stream mode when the blpp analyzer ran (or it is not known). */
static bool bl_counted(const struct pp_profile *p)
{
    const char *a;
    size_t n = strlen("blpp");

    if (p->mode != PATHPROF_MODE_STREAM || !p->has_stream)
        return true;
    for (a = p->stream.analyzers; (a = strstr(a, "blpp")) != NULL; a += n)
        if ((a == p->stream.analyzers || a[-1] == ',') && (a[n] == ',' || a[n] == '\0'))
            return true;
    return false;
}

/* Counting mode records no threads, but how its counters were updated
 * says whether several threads could have lost counts: plain increments
 * race (docs/plugin-args.md, "Multithreaded programs"); hash-mode and
 * atomic ones do not. */
static void out_count_threads(FILE *out, const struct pp_profile *p)
{
    size_t ran = 0, plain = 0;
    for (size_t i = 0; i < p->nfuncs; i++) {
        const struct pp_func *f = &p->funcs[i];
        if (f->total == 0)
            continue;
        ran++;
        plain += !(f->meta->flags & (PATHPROF_FN_ATOMIC | PATHPROF_FN_HASH));
    }
    fputs("not recorded (count mode: each thread updates the counters", out);
    if (plain == 0)
        fputs(", atomically or in hash tables", out);
    else
        fprintf(out, "; plain increments in %zu of the %zu functions that ran: exact "
                     "only if no two threads ran one at once", plain, ran);
    fputs(")\n", out);
}

/* What was analyzed and how: k, the pruning budget, sampling, and what
 * was lost, on every report so that two profiles compare at a glance. */
static void out_analysis(FILE *out, const struct pp_profile *p)
{
    const struct pp_stream_info *s = &p->stream;
    uint64_t lost;

    /* The analyzers are named on the mode line; k is the same for ksf and
     * ksf-pruned (PATHPROF_K), so either section tells it. */
    fputs("analysis   k ", out);
    if (p->kipf)
        fprintf(out, "%" PRIu32, p->kipf->k);
    else if (p->kprune)
        fprintf(out, "%" PRIu32, p->kprune->k);
    else if (p->has_kipf || p->has_kprune)
        fputs("not known (section damaged)", out);
    else
        fputs("- (no k-iteration paths)", out);
    fputs(", budget ", out);
    if (p->kprune && p->kprune->budget)
        fprintf(out, "%" PRIu64 " bytes per analyzer thread (pruned: counts are bounds)",
                p->kprune->budget);
    else if (!p->kprune && p->has_kprune)
        fputs("not known (KPRUNE section damaged)", out);
    else if ((p->has_sampling && p->sampling.sample_n != 1) ||
             p->broken[PP_PART_SAMPLING] != PP_NO_SECTION)
        fputs("none (not pruned)", out); /* "exact" would belie the sampling beside it */
    else
        fputs("none (exact)", out);
    if (p->has_sampling && p->sampling.sample_n > 1)
        fprintf(out, ", sampling 1/%" PRIu64 " in bursts of %" PRIu64 " (see below)",
                p->sampling.sample_n, p->sampling.burst);
    else if (p->has_sampling)
        fprintf(out, ", sampling %s", p->sampling.sample_n ? "1/1 (every path counted)"
                                                           : "never (no path counted)");
    else if (p->broken[PP_PART_SAMPLING] != PP_NO_SECTION)
        fputs(", sampling not known (SAMPLING section damaged)", out);
    else
        fputs(", sampling none (every path counted)", out);
    fputs(", threads ", out);
    if (p->has_stream)
        fprintf(out, "%" PRIu64 " producing, %" PRIu32 " analyzing\n", s->producers,
                s->analyzer_threads);
    else if (p->mode == PATHPROF_MODE_STREAM)
        fputs("not known (no STREAM section)\n", out);
    else
        out_count_threads(out, p);

    lost = p->has_stream ? s->dropped + s->late + s->resync + s->unknown : 0;
    fputs("lost       ", out);
    if (p->broken[PP_PART_STREAM] != PP_NO_SECTION)
        fputs("not known (STREAM section damaged)", out);
    else if (p->mode == PATHPROF_MODE_STREAM && !p->has_stream)
        fputs("not known (no STREAM section)", out);
    else if (lost)
        fprintf(out, "%" PRIu64 " events (dropped %" PRIu64 ", late %" PRIu64 ", resyncs %"
                     PRIu64 ", unregistered %" PRIu64 ")", lost, s->dropped, s->late,
                s->resync, s->unknown);
    else
        fputs("0 events", out);
    if (p->lost_after_write)
        fprintf(out, "; %" PRIu64 " paths ran after the profile was written",
                p->lost_after_write);
    fputc('\n', out);
}

void report_header(FILE *out, const struct pp_profile *p)
{
    out_not_exact(out, p);
    out_header(out, p);
}
