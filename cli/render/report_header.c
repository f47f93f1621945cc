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
#include "tpp_summary.h"
#include "read/sections.h"
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
                     "handler; docs/streaming.md, section 2)\n", s->late);
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
        fprintf(out, ", policy %s, %" PRIu32 " analyzer threads, chunks of %" PRIu32
                     " events)\n", s->policy == PATHPROF_POLICY_DROP ? "drop" : "block",
                s->analyzer_threads, s->chunk_events);
        fprintf(out, "stream     %" PRIu64 " events from %" PRIu64 " threads; producers "
                     "blocked %.3f s\n", s->events, s->producers, (double)s->blocked_ns / 1e9);
    } else if (p->broken[PP_PART_STREAM] != PP_NO_SECTION) {
        fputs(" (STREAM section damaged: whether events were lost is not known)\n", out);
    } else {
        fputs(" (no STREAM section: whether events were lost is not known)\n", out);
    }
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
    /* report --k goes on without the path counts (sections.h). */
    if (p->broken[PP_PART_TU_COUNTS] != PP_NO_SECTION) {
        fprintf(out, "paths      not known: section %" PRIu32 " (TU) is damaged\n"
                     "functions  %zu instrumented\n",
                p->sections[p->broken[PP_PART_TU_COUNTS]].index, p->nfuncs);
        return;
    }
    fprintf(out, "paths      %" PRIu64 " executed", total);
    /* Stream mode counts in the analyzers: the update totals are 0. */
    if (p->has_program && p->mode != PATHPROF_MODE_STREAM) {
        fprintf(out, " (array updates %" PRIu64 ", hash updates %" PRIu64 ")",
                p->array_updates, p->hash_updates);
        /* In 128 bits: two totals that wrap to the file's would agree. */
        if ((unsigned __int128)p->array_updates + p->hash_updates != total)
            fputs(" -- the program's totals differ from the counts in the file", out);
    }
    fprintf(out, "\nfunctions  %zu instrumented, %zu executed\n", p->nfuncs, executed);
    tpp_summary_text(out, p);
    if (p->lost_after_write)
        fprintf(out, "lost       %" PRIu64 " paths ran after the profile was written\n",
                p->lost_after_write);
}

void report_header(FILE *out, const struct pp_profile *p)
{
    out_not_exact(out, p);
    out_header(out, p);
}
