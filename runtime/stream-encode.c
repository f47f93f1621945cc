/* stream-encode.c - the stream part of the profile: each selected
 * analyzer's sections, then the STREAM section (docs/format.md, section 3)
 * that says how the stream went and whether the profile is exact. */
#include "analyzer-services.h"
#include "analyzer-host.h"
#include "config.h"
#include "message.h"
#include "pathprof-abi.h"
#include "stream.h"
#include "stream-tus.h"

#include <string.h>

static uint64_t load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

static void encode_stream_section(struct pprt_buf *b)
{
    const struct pprt_stream *s = &pprt_stream;
    pprt_buf_u32(b, PATHPROF_SECTION_STREAM);
    pprt_buf_u32(b, 0);
    size_t at = b->len;
    pprt_buf_u64(b, 0); /* length, patched below */

    uint64_t events = 0;
    for (uint32_t i = 0; i < s->nthreads; i++)
        events += s->an[i].events;
    pprt_buf_u32(b, pprt_config.policy);
    pprt_buf_u32(b, pprt_config.chunk_events);
    pprt_buf_u32(b, pprt_config.chunks_per_thread);
    pprt_buf_u32(b, s->nthreads);
    pprt_buf_u64(b, load(&s->producers));
    pprt_buf_u64(b, events);
    pprt_buf_u64(b, load(&s->dropped));
    pprt_buf_u64(b, load(&s->late));
    pprt_buf_u64(b, load(&s->resync));
    pprt_buf_u64(b, load(&s->unknown));
    pprt_buf_u64(b, load(&s->blocked_ns));
    pprt_buf_u32(b, pprt_config.nanalyzers);
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        const char *name = pp_analyzers[pprt_config.analyzers[k]]->name;
        pprt_buf_u32(b, (uint32_t)strlen(name));
        pprt_buf_put(b, name, strlen(name));
    }
    for (uint32_t i = 0; i < s->nthreads; i++) {
        pprt_buf_u64(b, s->an[i].events);
        pprt_buf_u64(b, s->an[i].busy_ns);
    }
    pprt_buf_patch_u64(b, at, b->len - (at + 8));
}

/* The analyzer that writes the TU sections (docs/format.md): blpp, found
 * by name in the table the analyzers provide (analyzer-host.h). */
static const struct pp_analyzer *tu_section_writer(void)
{
    for (uint32_t i = 0; pp_analyzers[i]; i++)
        if (strcmp(pp_analyzers[i]->name, "blpp") == 0)
            return pp_analyzers[i];
    return NULL;
}

/* Coroutines (runtime/context-wrap.c): an analyzer that follows
 * activations cannot be exact across stack switches; each switch counts as
 * a resync, so the STREAM section says the profile is not exact. */
static void note_context_switches(void)
{
    uint64_t n = load(&pprt_stream.context_switches);
    const char *name = NULL;
    for (uint32_t k = 0; k < pprt_config.nanalyzers && n; k++)
        if (pp_analyzers[pprt_config.analyzers[k]]->follows_activations)
            name = pp_analyzers[pprt_config.analyzers[k]]->name;
    if (name == NULL)
        return;
    pp_note_resync(n);
    pprt_warning("the program switched stacks %llu times (swapcontext, setcontext: "
                 "coroutines?), and %s rebuilds one call stack per thread from the "
                 "stream: its k-iteration paths are not exact; path counts are "
                 "(PATHPROF_ANALYZER=blpp, docs/streaming.md, section 2)",
                 (unsigned long long)n, name);
}

void pprt_stream_encode(struct pprt_buf *b, uint32_t *nsections)
{
    const struct pprt_stream *s = &pprt_stream;
    const struct pp_analyzer *blpp = tu_section_writer();
    int has_blpp = 0;
    for (uint32_t k = 0; k < pprt_config.nanalyzers; k++) {
        has_blpp |= pp_analyzers[pprt_config.analyzers[k]] == blpp ||
                    pp_analyzers[pprt_config.analyzers[k]]->writes_tu_sections;
        if (s->merged[k])
            pp_analyzers[pprt_config.analyzers[k]]->write(s->merged[k], b, nsections);
    }
    /* A stream profile always has one TU section per registered TU
     * (docs/format.md, KIPF: other sections' labels refer to them): without
     * blpp, an empty blpp instance writes them, with no path records. */
    if (!has_blpp) {
        void *empty = blpp ? blpp->open() : NULL;
        if (empty) {
            blpp->write(empty, b, nsections);
            blpp->close(empty);
        } else {
            b->failed = 1;
        }
    }
    note_context_switches();
    encode_stream_section(b);
    ++*nsections;

    uint64_t dropped = load(&s->dropped), late = load(&s->late);
    uint64_t resync = load(&s->resync), unknown = load(&s->unknown);
    if (dropped || late || resync || unknown)
        pprt_warning("the profile is not exact: %llu events dropped (PATHPROF_POLICY=%s), "
                     "%llu late, %llu activation resyncs, %llu of unknown translation units",
                     (unsigned long long)dropped,
                     pprt_config.policy == PATHPROF_POLICY_DROP ? "drop" : "block",
                     (unsigned long long)late, (unsigned long long)resync,
                     (unsigned long long)unknown);
    /* TPP's obvious paths count in memory (docs/tpp.md, "Streams"),
     * plain unless built with update=atomic, as counting mode's arrays. */
    char tu_name[600];
    uint64_t producers = load(&s->producers);
    if (producers > 1 && pprt_stream_tus_plain_derived(tu_name, sizeof tu_name))
        pprt_warning("%llu threads ran code of %s, whose TPP obvious paths are counted in "
                     "memory with plain increments (update=single): their derived counts "
                     "may be low; build with -fprofile-update=atomic for exact counts "
                     "(docs/tpp.md, \"Streams\")",
                     (unsigned long long)producers, tu_name);
    uint64_t foreign = load(&s->foreign);
    if (foreign)
        pprt_warning("%llu events came from a child process that shares this one's memory "
                     "(clone(CLONE_VM) without CLONE_THREAD, or vfork before its exec) and "
                     "are not in the profile (counted in `late`); counting mode counts them "
                     "(docs/streaming.md, section 2)", (unsigned long long)foreign);
    uint64_t overwritten = load(&s->overwritten);
    if (overwritten)
        pprt_warning("%llu events were stored over by an instrumented signal handler "
                     "that came inside a probe of the code it interrupted, or stored over "
                     "the handler's by that code (counted once each in "
                     "`late`): exclude signal handlers, and what only they call, from "
                     "instrumentation (-fplugin-arg-pathprof-exclude=...) for an exact "
                     "profile (docs/streaming.md, section 2)",
                     (unsigned long long)overwritten);
    uint64_t interrupted = load(&s->interrupted);
    if (interrupted)
        pprt_warning("%llu times a chunk filled up under code that still held an older "
                     "cursor, and events were lost there (counted once each in `late`): "
                     "an instrumented signal handler interrupted a probe (exclude signal "
                     "handlers from instrumentation for an exact profile); or the "
                     "executable does not export its __pathprof_cur (a version script or "
                     "linker option made it local: then nearly every event of the "
                     "executable's code is counted here; export __pathprof_*); or else "
                     "the compiler kept the cursor in a register across a call that "
                     "emitted events, which is a pathprof bug to report with the "
                     "compiler's version and flags (docs/streaming.md, sections 2 and 3)",
                     (unsigned long long)interrupted);
}

void pp_note_resync(uint64_t n)
{
    __atomic_fetch_add(&pprt_stream.resync, n, __ATOMIC_RELAXED);
}

void pp_note_unknown(uint64_t n)
{
    __atomic_fetch_add(&pprt_stream.unknown, n, __ATOMIC_RELAXED);
}

int pp_sync_files(void)
{
    return pprt_config.sync;
}
