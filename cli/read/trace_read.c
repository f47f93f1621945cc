/* trace_read.c - strict reader of trace files (docs/format.md, section 4).
 *
 * Like the profile reader: the envelope (magic, version, checksum) first,
 * then every record must account for its bytes.  A trace can be gigabytes,
 * so it is mapped rather than read, events are never copied, and what is
 * allocated is bounded by the number of records, itself bounded by the
 * file's size. */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/file_bytes.h"
#include "graph/loops.h"
#include "pathprof-abi.h"
#include "profile-checksum.h"
#include "trace/format.h"

static const char *type_name(uint32_t type)
{
    switch (type) {
    case PP_TRACE_EVENTS: return "EVENTS";
    case PP_TRACE_TU: return "TU";
    case PP_TRACE_END: return "END";
    default: return "unknown";
    }
}

/* Maps PATH; falls back to reading it (a pipe, /dev/stdin). */
static bool load(const char *path, struct trace *t, struct pp_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    unsigned char *data;
    size_t len;

    if (fd < 0)
        return pp_fail(err, "%s", strerror(errno));
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return pp_fail(err, "%s", strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return pp_fail(err, "%s", strerror(EISDIR));
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (m == MAP_FAILED)
            return pp_fail(err, "cannot map it: %s", strerror(errno));
        t->data = m;
        t->len = (size_t)st.st_size;
        t->mapped = true;
        return true;
    }
    close(fd);
    if (!file_bytes(path, SIZE_MAX / 4, &data, &len))
        return pp_fail(err, "%s", strerror(errno));
    t->data = data;
    t->len = len;
    return true;
}

static bool check_envelope(struct trace *t, struct pp_error *err)
{
    struct pp_cursor c;
    uint32_t version, header_size;
    uint64_t stored, computed;
    size_t n = t->len < PP_TRACE_MAGIC_SIZE ? t->len : PP_TRACE_MAGIC_SIZE;

    if (memcmp(t->data, PP_TRACE_MAGIC, n) != 0)
        return pp_fail(err, "not a pathprof trace (it does not start with \"%s\")",
                       PP_TRACE_MAGIC);
    if (t->len < PP_TRACE_HEADER_SIZE)
        return pp_fail(err, "truncated: %zu bytes, shorter than the %u-byte header", t->len,
                       PP_TRACE_HEADER_SIZE);
    c = pp_cursor_at(t->data, t->len, PP_TRACE_MAGIC_SIZE);
    version = pp_take_u32(&c);
    if (version < PP_TRACE_VERSION_OLDEST || version > PP_TRACE_VERSION)
        return pp_fail(err, "trace format version %" PRIu32 ", this pathprof reads versions %u to %u",
                       version, PP_TRACE_VERSION_OLDEST, PP_TRACE_VERSION);
    header_size = pp_take_u32(&c);
    if (header_size != PP_TRACE_HEADER_SIZE)
        return pp_fail(err, "header size %" PRIu32 ", expected %u", header_size,
                       PP_TRACE_HEADER_SIZE);
    t->pid = pp_take_u64(&c);
    t->time = pp_take_u64(&c);
    t->parent_pid = pp_take_u64(&c);
    if (t->len < PP_TRACE_HEADER_SIZE + 8)
        return pp_fail(err, "truncated: %zu bytes, no room for the checksum after the header",
                       t->len);
    stored = pp_le64(t->data + t->len - 8);
    /* the same checksums as a profile's of the same version number */
    computed = pprt_profile_checksum(version, t->data, t->len - 8);
    if (stored != computed)
        return pp_fail(err, "checksum mismatch (stored %016" PRIx64 ", computed %016" PRIx64
                            "): the file is damaged or truncated", stored, computed);
    return true;
}

/* ------------------------------------------------------------- records */

struct record {
    uint32_t type, tid;
    size_t at;                  /* offset of the record header */
    const unsigned char *body;
    uint64_t length;
};

/* Steps to the next record before the trailer; false at the end. */
static bool next_record(const struct trace *t, struct pp_cursor *c, struct record *r,
                        bool *ok, struct pp_error *err)
{
    *ok = true;
    if (pp_cursor_left(c) == 0)
        return false;
    r->at = c->pos;
    if (pp_cursor_left(c) < PP_TRACE_RECORD_HEADER_SIZE) {
        *ok = pp_fail(err, "record at byte %zu: truncated record header", r->at);
        return false;
    }
    r->type = pp_take_u32(c);
    r->tid = pp_take_u32(c);
    r->length = pp_take_u64(c);
    if (!pp_get_bytes(c, r->length, &r->body)) {
        *ok = pp_fail(err, "record at byte %zu (%s): length %" PRIu64
                           " exceeds the %zu bytes left", r->at, type_name(r->type),
                      r->length, pp_cursor_left(c));
        return false;
    }
    (void)t;
    return true;
}

static struct pp_cursor records_cursor(const struct trace *t)
{
    return pp_cursor_at(t->data, t->len - 8, PP_TRACE_HEADER_SIZE);
}

static struct trace_thread *find_thread(const struct trace *t, uint32_t tid)
{
    size_t lo = 0, hi = t->nthreads;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->threads[mid].tid < tid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->nthreads && t->threads[lo].tid == tid ? &t->threads[lo] : NULL;
}

static bool read_end(struct trace *t, const struct record *r, struct pp_error *err)
{
    struct pp_cursor c = pp_cursor_at(r->body, (size_t)r->length, 0);
    uint64_t n;

    if (r->tid != 0)
        return pp_fail(err, "tid %" PRIu32 " on an END record", r->tid);
    if (!pp_get_u64(&c, &n))
        return pp_fail(err, "truncated");
    if (n > pp_cursor_left(&c) / PP_TRACE_END_THREAD_SIZE ||
        pp_cursor_left(&c) != n * PP_TRACE_END_THREAD_SIZE)
        return pp_fail(err, "%" PRIu64 " threads do not match its %" PRIu64 " bytes", n,
                       r->length);
    t->threads = calloc(n ? (size_t)n : 1, sizeof *t->threads);
    if (!t->threads)
        return pp_fail(err, "out of memory");
    t->nthreads = (size_t)n;
    for (size_t i = 0; i < t->nthreads; i++) {
        struct trace_thread *th = &t->threads[i];
        th->tid = pp_take_u32(&c);
        th->flags = pp_take_u32(&c);
        th->nevents = pp_take_u64(&c);
        if (th->tid == 0)
            return pp_fail(err, "thread %zu has tid 0", i);
        if (i > 0 && th->tid <= t->threads[i - 1].tid)
            return pp_fail(err, "threads not in ascending tid order at %" PRIu32, th->tid);
    }
    return true;
}

/* First pass: every record well-formed, END last; reads END. */
static bool scan_records(struct trace *t, size_t *ntus, struct pp_error *err)
{
    struct pp_cursor c = records_cursor(t);
    struct record r;
    bool ok, seen_end = false;
    size_t index = 0;

    *ntus = 0;
    while (next_record(t, &c, &r, &ok, err)) {
        index++;
        if (seen_end)
            return pp_fail(err, "record %zu (%s, at byte %zu) after the END record", index,
                           type_name(r.type), r.at);
        if (r.length % 8 != 0)
            return pp_fail(err, "record %zu (%s, at byte %zu): length %" PRIu64
                                " is not a multiple of 8", index, type_name(r.type), r.at,
                           r.length);
        switch (r.type) {
        case PP_TRACE_EVENTS:
            if (r.length == 0 || r.tid == 0)
                return pp_fail(err, "record %zu (EVENTS, at byte %zu): %s", index, r.at,
                               r.tid == 0 ? "tid 0" : "no events");
            break;
        case PP_TRACE_TU:
            ++*ntus;
            break;
        case PP_TRACE_END:
            seen_end = true;
            if (!read_end(t, &r, err))
                return pp_context(err, "record %zu (END, at byte %zu)", index, r.at);
            break;
        default:
            return pp_fail(err, "record %zu (at byte %zu): unknown type %" PRIu32, index, r.at,
                           r.type);
        }
    }
    if (!ok)
        return pp_context(err, "record %zu", index + 1);
    if (!seen_end)
        return pp_fail(err, "no END record: the trace was not completed");
    return true;
}

/* Second pass: each EVENTS record to its thread, counts checked. */
static bool collect_events(struct trace *t, struct pp_error *err)
{
    struct pp_cursor c = records_cursor(t);
    struct record r;
    bool ok;
    uint64_t *seen = calloc(t->nthreads ? t->nthreads : 1, sizeof *seen);

    if (!seen)
        return pp_fail(err, "out of memory");
    for (int pass = 0; pass < 2; pass++) {
        c = records_cursor(t);
        while (next_record(t, &c, &r, &ok, err)) {
            struct trace_thread *th;
            if (r.type != PP_TRACE_EVENTS)
                continue;
            th = find_thread(t, r.tid);
            if (!th) {
                free(seen);
                return pp_fail(err, "thread %" PRIu32 " has events (at byte %zu) but is not in "
                                    "the END record", r.tid, r.at);
            }
            if (pass == 0) {
                th->nrecords++;
                seen[th - t->threads] += r.length / 8;
            } else {
                struct trace_events *e = &th->records[seen[th - t->threads]++];
                e->words = r.body;
                e->n = r.length / 8;
            }
        }
        if (pass == 0) {
            for (size_t i = 0; i < t->nthreads; i++) {
                struct trace_thread *th = &t->threads[i];
                if (seen[i] != th->nevents) {
                    uint64_t got = seen[i];
                    free(seen);
                    return pp_fail(err, "thread %" PRIu32 ": the END record counts %" PRIu64
                                        " events, its records hold %" PRIu64, th->tid,
                                   th->nevents, got);
                }
                th->records = calloc(th->nrecords ? th->nrecords : 1, sizeof *th->records);
                if (!th->records) {
                    free(seen);
                    return pp_fail(err, "out of memory");
                }
                seen[i] = 0;
            }
        }
    }
    free(seen);
    return true;
}

/* The bases the runtime gave a TU must leave every event index meaningful. */
static bool check_bases(const struct trace_tu *tu, struct pp_error *err)
{
    if (tu->tu_base == 0)
        return pp_fail(err, "tu_base 0 (global path index 0 is never valid)");
    /* Checked first: the checks below subtract it from the mask. */
    if (tu->tu_base > PATHPROF_EV_INDEX_MASK)
        return pp_fail(err, "tu_base %" PRIu64 " beyond the 2^61 path indices of an event",
                       tu->tu_base);
    if (tu->fn_base > UINT64_MAX - tu->meta.nfuncs)
        return pp_fail(err, "function base %" PRIu64 " overflows", tu->fn_base);
    for (uint32_t i = 0; i < tu->meta.nfuncs; i++) {
        const struct pp_func_meta *f = &tu->meta.funcs[i];
        if (f->counter_offset > PATHPROF_EV_INDEX_MASK - tu->tu_base ||
            f->npaths > PATHPROF_EV_INDEX_MASK - tu->tu_base - f->counter_offset ||
            f->ppp_size > PATHPROF_EV_INDEX_MASK - tu->tu_base - f->counter_offset - f->npaths)
            return pp_fail(err, "function %" PRIu32 " (%s): its path indices go beyond "
                                "2^61", i, f->name);
    }
    return true;
}

static bool read_tu(struct trace_tu *tu, const struct record *r, struct pp_error *err)
{
    struct pp_cursor c = pp_cursor_at(r->body, (size_t)r->length, 0);
    uint64_t meta_len, pad;
    const unsigned char *blob, *padding;

    if (r->tid != 0)
        return pp_fail(err, "tid %" PRIu32 " on a TU record", r->tid);
    if (pp_cursor_left(&c) < PP_TRACE_TU_FIXED)
        return pp_fail(err, "truncated");
    tu->tu_id = pp_take_u64(&c);
    tu->tu_base = pp_take_u64(&c);
    tu->fn_base = pp_take_u64(&c);
    meta_len = pp_take_u64(&c);
    if (!pp_get_bytes(&c, meta_len, &blob))
        return pp_fail(err, "metadata length %" PRIu64 " exceeds the %zu bytes left", meta_len,
                       pp_cursor_left(&c));
    pad = pp_cursor_left(&c);
    if (pad != (8 - meta_len % 8) % 8)
        return pp_fail(err, "%" PRIu64 " bytes after the metadata, expected %" PRIu64
                            " bytes of padding", pad, (8 - meta_len % 8) % 8);
    pp_get_bytes(&c, pad, &padding);
    for (uint64_t i = 0; i < pad; i++)
        if (padding[i] != 0)
            return pp_fail(err, "non-zero padding after the metadata");
    if (!meta_parse(blob, meta_len, &tu->meta, err) || !loops_classify_tu(&tu->meta, err))
        return false;
    /* The caller counts a TU (and trace_free frees it) only when it reads
     * whole, so a TU refused after its metadata was parsed frees it here. */
    if (!check_bases(tu, err)) {
        meta_free(&tu->meta);
        return false;
    }
    return true;
}

static int by_first(const void *a, const void *b)
{
    const struct trace_range *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static const struct trace *sorting;

static int by_fn_base(const void *a, const void *b)
{
    uint64_t x = sorting->tus[*(const size_t *)a].fn_base;
    uint64_t y = sorting->tus[*(const size_t *)b].fn_base;
    return (x > y) - (x < y);
}

/* Path index ranges and function index ranges, sorted, checked disjoint:
 * an overlap would make an event mean two things. */
bool trace_index(struct trace *t, struct pp_error *err)
{
    size_t n = 0, i;

    for (i = 0; i < t->ntus; i++)
        for (uint32_t f = 0; f < t->tus[i].meta.nfuncs; f++)
            n += (t->tus[i].meta.funcs[f].flags & PATHPROF_FN_STREAM) &&
                 t->tus[i].meta.funcs[f].npaths > 0;
    t->ranges = calloc(n ? n : 1, sizeof *t->ranges);
    t->by_fn_base = calloc(t->ntus ? t->ntus : 1, sizeof *t->by_fn_base);
    if (!t->ranges || !t->by_fn_base)
        return pp_fail(err, "out of memory");
    for (i = 0; i < t->ntus; i++) {
        const struct trace_tu *tu = &t->tus[i];
        t->by_fn_base[i] = i;
        for (uint32_t f = 0; f < tu->meta.nfuncs; f++) {
            const struct pp_func_meta *m = &tu->meta.funcs[f];
            if (!(m->flags & PATHPROF_FN_STREAM) || m->npaths == 0)
                continue;
            struct trace_range *r = &t->ranges[t->nranges++];
            /* A PPP function's indices: its N interesting paths by PPP
             * number, then every path by ID (docs/format.md). */
            r->first = tu->tu_base + m->counter_offset;
            r->npaths = m->npaths + m->ppp_size;
            r->tu = (uint32_t)i;
            r->func = f;
        }
    }
    qsort(t->ranges, t->nranges, sizeof *t->ranges, by_first);
    for (i = 1; i < t->nranges; i++) {
        const struct trace_range *a = &t->ranges[i - 1], *b = &t->ranges[i];
        if (b->first - a->first < a->npaths)
            return pp_fail(err, "path indices of %s (TU %" PRIu64 ") and %s (TU %" PRIu64
                                ") overlap at %" PRIu64,
                           t->tus[a->tu].meta.funcs[a->func].name, t->tus[a->tu].tu_id,
                           t->tus[b->tu].meta.funcs[b->func].name, t->tus[b->tu].tu_id,
                           b->first);
    }
    sorting = t;
    qsort(t->by_fn_base, t->ntus, sizeof *t->by_fn_base, by_fn_base);
    for (i = 1; i < t->ntus; i++) {
        const struct trace_tu *a = &t->tus[t->by_fn_base[i - 1]];
        const struct trace_tu *b = &t->tus[t->by_fn_base[i]];
        if (b->fn_base - a->fn_base < a->meta.nfuncs)
            return pp_fail(err, "function indices of TU %" PRIu64 " and TU %" PRIu64
                                " overlap at %" PRIu64, a->tu_id, b->tu_id, b->fn_base);
    }
    return true;
}

static bool read_tus(struct trace *t, size_t ntus, struct pp_error *err)
{
    struct pp_cursor c = records_cursor(t);
    struct record r;
    bool ok;
    size_t index = 0;

    t->tus = calloc(ntus ? ntus : 1, sizeof *t->tus);
    if (!t->tus)
        return pp_fail(err, "out of memory");
    while (next_record(t, &c, &r, &ok, err)) {
        index++;
        if (r.type != PP_TRACE_TU)
            continue;
        if (!read_tu(&t->tus[t->ntus], &r, err))
            return pp_context(err, "record %zu (TU, at byte %zu)", index, r.at);
        t->ntus++;
    }
    return trace_index(t, err);
}

bool trace_read(const char *path, struct trace *t, struct pp_error *err)
{
    size_t ntus;
    bool ok;

    memset(t, 0, sizeof *t);
    if (!load(path, t, err))
        return false;
    ok = check_envelope(t, err) && scan_records(t, &ntus, err) && collect_events(t, err) &&
         read_tus(t, ntus, err);
    if (!ok)
        trace_free(t);
    return ok;
}

void trace_free(struct trace *t)
{
    for (size_t i = 0; i < t->ntus; i++)
        meta_free(&t->tus[i].meta);
    free(t->tus);
    free(t->ranges);
    free(t->by_fn_base);
    for (size_t i = 0; i < t->nthreads; i++)
        free(t->threads[i].records);
    free(t->threads);
    if (t->mapped)
        munmap((void *)t->data, t->len);
    else
        free((void *)t->data);
    memset(t, 0, sizeof *t);
}

bool trace_path(const struct trace *t, uint64_t index, const struct trace_tu **tu,
                const struct pp_func_meta **f, uint64_t *path_id)
{
    size_t lo = 0, hi = t->nranges;
    /* The last range starting at or below INDEX. */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->ranges[mid].first <= index)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || index - t->ranges[lo - 1].first >= t->ranges[lo - 1].npaths)
        return false;
    const struct trace_range *r = &t->ranges[lo - 1];
    *tu = &t->tus[r->tu];
    *f = &(*tu)->meta.funcs[r->func];
    *path_id = index - r->first;
    if ((*f)->ppp_size) {
        if (*path_id >= (*f)->ppp_size)
            *path_id -= (*f)->ppp_size;
        else if (!(*f)->ppp_table ||
                 (*path_id = (*f)->ppp_table[*path_id]) == PATHPROF_PPP_HOLE)
            return false; /* no probe sends a hole's number */
    }
    return true;
}

bool trace_func(const struct trace *t, uint64_t fn, const struct trace_tu **tu,
                const struct pp_func_meta **f)
{
    size_t lo = 0, hi = t->ntus;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->tus[t->by_fn_base[mid]].fn_base <= fn)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return false;
    const struct trace_tu *u = &t->tus[t->by_fn_base[lo - 1]];
    if (fn - u->fn_base >= u->meta.nfuncs)
        return false;
    *tu = u;
    *f = &u->meta.funcs[fn - u->fn_base];
    return true;
}

bool trace_next(struct trace_cursor *c, uint64_t *word)
{
    const struct trace_thread *th = c->thread;
    while (c->record < th->nrecords && c->at == th->records[c->record].n) {
        c->record++;
        c->at = 0;
    }
    if (c->record == th->nrecords)
        return false;
    *word = pp_le64(th->records[c->record].words + 8 * c->at++);
    return true;
}
