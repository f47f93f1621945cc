/* profile_read.c - strict reader of profile files (docs/format.md, sec. 3).
 *
 * The whole file is read first and checked as a unit (size announced by the
 * header, FNV-1a trailer) before any section is interpreted; then every
 * section, metadata blob and count list must account for its bytes exactly.
 * Every count found in the file is compared with the bytes that remain
 * before anything is allocated from it, so a damaged file costs at most
 * memory proportional to its size. */
#include "profile.h"
#include "section_status.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/file_bytes.h"
#include "kipf.h"
#include "kprune.h"
#include "wpp.h"
#include "graph/loops.h"
#include "graph/path.h"
#include "pathprof-abi.h"
#include "profile-checksum.h"
#include "profile_parts.h"

/* Checks magic, versions, announced size and checksum; sets *payload_len. */
static bool check_envelope(const unsigned char *data, size_t len, struct pp_profile *p,
                           uint32_t *nsections, uint64_t *payload_len,
                           struct pp_error *err)
{
    const size_t magic_len = sizeof PATHPROF_FILE_MAGIC - 1;
    struct pp_cursor c;
    uint32_t version, header_size;
    uint64_t stored, computed;

    if (memcmp(data, PATHPROF_FILE_MAGIC, len < magic_len ? len : magic_len) != 0)
        return pp_fail(err, "not a pathprof profile (it does not start with \"%s\")",
                       PATHPROF_FILE_MAGIC);
    if (len < PATHPROF_FILE_HEADER_SIZE)
        return pp_fail(err, "truncated: %zu bytes, shorter than the %u-byte header", len,
                       PATHPROF_FILE_HEADER_SIZE);
    c = pp_cursor_at(data, len, magic_len);
    version = pp_take_u32(&c);
    if (version < PATHPROF_FILE_VERSION_OLDEST || version > PATHPROF_FILE_VERSION)
        return pp_fail(err, "profile format version %" PRIu32
                            ", this pathprof reads versions %u to %u",
                       version, PATHPROF_FILE_VERSION_OLDEST, PATHPROF_FILE_VERSION);
    header_size = pp_take_u32(&c);
    if (header_size != PATHPROF_FILE_HEADER_SIZE)
        return pp_fail(err, "header size %" PRIu32 ", expected %u", header_size,
                       PATHPROF_FILE_HEADER_SIZE);
    p->mode = pp_take_u32(&c);
    (void)pp_take_u32(&c); /* flags, reserved */
    p->pid = pp_take_u64(&c);
    p->time = pp_take_u64(&c);
    *nsections = pp_take_u32(&c);
    (void)pp_take_u32(&c); /* reserved */
    *payload_len = pp_take_u64(&c);

    if (*payload_len > len || len - *payload_len < PATHPROF_FILE_HEADER_SIZE + 8)
        return pp_fail(err, "truncated: the header announces %" PRIu64
                            " payload bytes, the file has %zu bytes in all",
                       *payload_len, len);
    if (len - *payload_len > PATHPROF_FILE_HEADER_SIZE + 8)
        return pp_fail(err, "%zu unexpected bytes after the checksum",
                       (size_t)(len - *payload_len - PATHPROF_FILE_HEADER_SIZE - 8));
    stored = pp_le64(data + len - 8);
    computed = pprt_profile_checksum(version, data, len - 8);
    if (stored != computed)
        return pp_fail(err, "checksum mismatch (stored %016" PRIx64 ", computed %016" PRIx64
                            "): the file is damaged",
                       stored, computed);
    /* Only after the checksum: a damaged mode field should say "damaged". */
    if (p->mode != PATHPROF_MODE_COUNT && p->mode != PATHPROF_MODE_STREAM)
        return pp_fail(err, "profile mode %" PRIu32 " is not supported (this pathprof reads "
                            "modes %u, count, and %u, stream)", p->mode, PATHPROF_MODE_COUNT,
                       PATHPROF_MODE_STREAM);
    return true;
}

static bool get_string(struct pp_cursor *c, char **out)
{
    uint32_t n;
    const unsigned char *bytes;
    if (!pp_get_u32(c, &n) || !pp_get_bytes(c, n, &bytes))
        return false;
    *out = malloc((size_t)n + 1);
    if (!*out)
        return false;
    memcpy(*out, bytes, n);
    (*out)[n] = '\0';
    return true;
}

/* Into *P only when the whole section reads: a damaged one leaves no half. */
static bool read_program(struct pp_cursor *c, struct pp_profile *p, struct pp_error *err)
{
    char *program = NULL, *cmdline = NULL;
    uint64_t array_updates, hash_updates, lost, sum;

    if (!get_string(c, &program) || !get_string(c, &cmdline) ||
        !pp_get_u64(c, &array_updates) || !pp_get_u64(c, &hash_updates) ||
        !pp_get_u64(c, &lost)) {
        free(program);
        free(cmdline);
        return pp_fail(err, "truncated");
    }
    /* The runtime sums every counter in 64 bits: both totals together
     * cannot exceed that either. */
    if (__builtin_add_overflow(array_updates, hash_updates, &sum)) {
        free(program);
        free(cmdline);
        return pp_fail(err, "array updates %" PRIu64 " and hash updates %" PRIu64
                            " add up to more than 2^64 - 1", array_updates, hash_updates);
    }
    p->has_program = true;
    p->program = program;
    p->cmdline = cmdline;
    p->array_updates = array_updates;
    p->hash_updates = hash_updates;
    p->lost_after_write = lost;
    return true;
}

/* The SAMPLING section, as runtime/profile-encode.c writes it: five u64. */
static bool read_sampling(struct pp_cursor *c, struct pp_sampling_info *s, struct pp_error *err)
{
    if (pp_cursor_left(c) != 5 * 8)
        return pp_fail(err, "%zu bytes where the sampling figures take 40", pp_cursor_left(c));
    s->sample_n = pp_take_u64(c);
    s->burst = pp_take_u64(c);
    s->bursts = pp_take_u64(c);
    s->gap_checks = pp_take_u64(c);
    s->burst_checks = pp_take_u64(c);
    if (s->burst == 0)
        return pp_fail(err, "a burst of 0 checks");
    return true;
}

/* The STREAM section, as runtime/stream-encode.c writes it. */
static bool read_stream(struct pp_cursor *c, struct pp_stream_info *s, struct pp_error *err)
{
    uint32_t n, len, i;
    const unsigned char *name;
    size_t used = 0;

    if (pp_cursor_left(c) < 16 + 7 * 8 + 4)
        return pp_fail(err, "truncated");
    s->policy = pp_take_u32(c);
    s->chunk_events = pp_take_u32(c);
    s->chunks_per_thread = pp_take_u32(c);
    s->analyzer_threads = pp_take_u32(c);
    s->producers = pp_take_u64(c);
    s->events = pp_take_u64(c);
    s->dropped = pp_take_u64(c);
    s->late = pp_take_u64(c);
    s->resync = pp_take_u64(c);
    s->unknown = pp_take_u64(c);
    s->blocked_ns = pp_take_u64(c);
    n = pp_take_u32(c);
    if (n > pp_cursor_left(c) / 4)
        return pp_fail(err, "%" PRIu32 " analyzer names do not fit in the %zu bytes left", n,
                       pp_cursor_left(c));
    /* Names joined by commas: at most the section's own size. */
    s->analyzers = malloc(pp_cursor_left(c) + 1);
    if (!s->analyzers)
        return pp_fail(err, "out of memory");
    s->analyzers[0] = '\0';
    for (i = 0; i < n; i++) {
        if (!pp_get_u32(c, &len) || !pp_get_bytes(c, len, &name))
            return pp_fail(err, "analyzer name %" PRIu32 " truncated", i);
        if (memchr(name, 0, len) || memchr(name, ',', len))
            return pp_fail(err, "analyzer name %" PRIu32 " contains a NUL or a comma", i);
        if (i)
            s->analyzers[used++] = ',';
        memcpy(s->analyzers + used, name, len);
        used += len;
        s->analyzers[used] = '\0';
    }
    /* Per analyzer thread: events, busy time (not shown yet; skipped). */
    if (pp_cursor_left(c) / 16 != s->analyzer_threads || pp_cursor_left(c) % 16 != 0)
        return pp_fail(err, "%zu bytes of per-thread statistics for %" PRIu32
                            " analyzer threads", pp_cursor_left(c), s->analyzer_threads);
    c->pos = c->len;
    return true;
}

static bool grow(void **array, size_t *cap, size_t need, size_t elem, struct pp_error *err)
{
    size_t n = *cap ? *cap : 8;
    void *bigger;
    if (need <= *cap)
        return true;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return pp_fail(err, "out of memory");
        n *= 2;
    }
    bigger = realloc(*array, n * elem);
    if (!bigger)
        return pp_fail(err, "out of memory");
    *array = bigger;
    *cap = n;
    return true;
}

/* A recorded ID that does not decode to a path of the graph means the file
 * is damaged; finding out here keeps every command's answer the same. */
static bool decode_all(const struct pp_func_meta *m, const struct pp_func *f,
                       struct pp_error *err)
{
    struct path path;
    uint64_t i;
    bool ok = true;

    if (f->nrecords == 0)
        return true;
    if (!path_alloc(m, &path, err))
        return false;
    for (i = 0; i < f->nrecords && ok; i++)
        ok = path_decode(m, f->records[i].id, &path, err);
    path_release(&path);
    return ok;
}

/* The counts of one function: records, then direct edge counts (VERIFY). */
static bool read_counts(struct pp_cursor *c, const struct pp_func_meta *m, struct pp_func *f,
                        struct pp_error *err)
{
    uint64_t i, n;

    /* F's records stay consistent (nrecords of them at records) on every
     * failure: the section is then marked damaged, but the copies of a
     * function are joined (func_merge.c) before its counts are dropped. */
    f->nrecords = 0;
    if (!pp_get_u64(c, &n))
        return pp_fail(err, "truncated before the path count");
    if (n > pp_cursor_left(c) / 16)
        return pp_fail(err, "%" PRIu64 " path records do not fit in the %zu bytes left", n,
                       pp_cursor_left(c));
    f->records = malloc(n ? (size_t)n * sizeof *f->records : 1);
    if (!f->records)
        return pp_fail(err, "out of memory");
    uint64_t last_cold = 0;
    bool in_cold = false;
    for (i = 0; i < n; i++) {
        struct pp_path_count *r = &f->records[f->nrecords];
        r->id = pp_take_u64(c);
        r->count = pp_take_u64(c);
        if (r->id >= m->npaths && r->id - m->npaths < m->cold_ids) {
            /* The cold counter or region (TPP), or the total of the paths
             * that are not interesting (PPP, ppp-uninteresting=total): the
             * highest IDs, so the last records, summed. */
            if (r->count == 0 || (in_cold && r->id <= last_cold))
                return pp_fail(err, "cold ID %" PRIu64 " recorded with count 0 or out of order",
                               r->id);
            in_cold = true;
            last_cold = r->id;
            if (__builtin_add_overflow(f->cold, r->count, &f->cold) ||
                __builtin_add_overflow(f->total, r->count, &f->total))
                return pp_fail(err, "its path counts add up to more than 2^64 - 1 (at the "
                                    "cold ID %" PRIu64 ")", r->id);
            continue;
        }
        if (r->id >= m->npaths || in_cold)
            return pp_fail(err, "path ID %" PRIu64 " out of range (%" PRIu64 " paths)", r->id,
                           m->npaths);
        if (f->nrecords > 0 && r->id <= f->records[f->nrecords - 1].id)
            return pp_fail(err, "path IDs not in ascending order at record %" PRIu64, i);
        if (r->count == 0)
            return pp_fail(err, "path %" PRIu64 " recorded with count 0", r->id);
        /* Every count is one 64-bit counter or analyzer sum; so is their
         * total (the runtime's own totals are 64-bit): a sum beyond is a
         * crafted or damaged file, never a real run. */
        if (__builtin_add_overflow(f->total, r->count, &f->total))
            return pp_fail(err, "its path counts add up to more than 2^64 - 1 (at path %"
                                PRIu64 ")", r->id);
        f->nrecords++;
    }
    if (!decode_all(m, f, err))
        return false;
    if (m->flags & PATHPROF_FN_VERIFY) {
        if (m->nverify > pp_cursor_left(c) / 8)
            return pp_fail(err, "%" PRIu32 " edge counts do not fit in the %zu bytes left",
                           m->nverify, pp_cursor_left(c));
        f->verify_counts = malloc(m->nverify ? (size_t)m->nverify * 8 : 1);
        if (!f->verify_counts)
            return pp_fail(err, "out of memory");
        for (i = 0; i < m->nverify; i++)
            f->verify_counts[i] = pp_take_u64(c);
    }
    return true;
}

/* Which half of a TU section failed (sections.h). Running out of memory
 * counts as damage of the section being read: allocations are bounded by
 * the file's size, so only a tight address-space limit gets there. */
enum tu_result { TU_OK, TU_META_BAD, TU_COUNTS_BAD };

static enum tu_result read_tu(struct pp_cursor *c, struct pp_profile *p, size_t section,
                              size_t *tus_cap, size_t *funcs_cap, struct pp_error *err)
{
    uint64_t meta_len, pad, i, tu_total = 0;
    const unsigned char *blob, *padding;
    struct pp_tu_meta *tu;
    size_t first;

    if (!pp_get_u64(c, &meta_len))
        return pp_fail(err, "truncated before the metadata length"), TU_META_BAD;
    if (!pp_get_bytes(c, meta_len, &blob))
        return pp_fail(err, "metadata length %" PRIu64 " exceeds the %zu bytes left", meta_len,
                       pp_cursor_left(c)), TU_META_BAD;
    if (!grow((void **)&p->tus, tus_cap, p->ntus + 1, sizeof *p->tus, err))
        return TU_META_BAD;
    tu = &p->tus[p->ntus];
    if (!meta_parse(blob, meta_len, tu, err) || !loops_classify_tu(tu, err))
        return TU_META_BAD;
    p->ntus++;
    /* Every function is listed, with or without counts: the labels of the
     * KIPF and KPRUNE sections need them even when the counts are broken. */
    if (!grow((void **)&p->funcs, funcs_cap, p->nfuncs + tu->nfuncs, sizeof *p->funcs, err))
        return TU_META_BAD;
    first = p->nfuncs;
    for (i = 0; i < tu->nfuncs; i++) {
        struct pp_func *f = &p->funcs[p->nfuncs++];
        memset(f, 0, sizeof *f);
        f->meta = &tu->funcs[i];
        f->ncopies = 1;
        f->section = section;
    }
    pad = (8 - meta_len % 8) % 8;
    if (!pp_get_bytes(c, pad, &padding))
        return pp_fail(err, "truncated in the padding after the metadata"), TU_COUNTS_BAD;
    for (i = 0; i < pad; i++)
        if (padding[i] != 0)
            return pp_fail(err, "non-zero padding after the metadata"), TU_COUNTS_BAD;
    for (i = 0; i < tu->nfuncs; i++) {
        struct pp_func *f = &p->funcs[first + i];
        if (!read_counts(c, f->meta, f, err))
            return pp_context(err, "function %" PRIu64 " (%s)", i, f->meta->name),
                   TU_COUNTS_BAD;
        if (__builtin_add_overflow(tu_total, f->total, &tu_total))
            return pp_fail(err, "its path counts add up to more than 2^64 - 1 (at function %"
                                PRIu64 ", %s)", i, f->meta->name), TU_COUNTS_BAD;
    }
    if (pp_cursor_left(c) != 0)
        return pp_fail(err, "%zu unexplained bytes at its end", pp_cursor_left(c)),
               TU_COUNTS_BAD;
    if (__builtin_add_overflow(p->total, tu_total, &p->total))
        return pp_fail(err, "the path counts of this and the TU sections before it add up to "
                            "more than 2^64 - 1"), TU_COUNTS_BAD;
    return TU_OK;
}

/* Appends the entry of one section (framing already checked). */
static bool add_section(struct pp_profile *p, size_t *cap, uint32_t tag, size_t at,
                        uint64_t length, struct pp_error *err)
{
    struct pp_section *s;
    if (!grow((void **)&p->sections, cap, p->nsections + 1, sizeof *p->sections, err))
        return false;
    s = &p->sections[p->nsections];
    memset(s, 0, sizeof *s);
    s->index = (uint32_t)(p->nsections + 1);
    s->tag = tag;
    s->at = at;
    s->length = length;
    s->state = PP_SECTION_OK;
    p->nsections++;
    return true;
}

static void forget_program(struct pp_profile *p)
{
    free(p->program);
    free(p->cmdline);
    p->program = p->cmdline = NULL;
    p->has_program = false;
    p->array_updates = p->hash_updates = p->lost_after_write = 0;
}

static void forget_stream(struct pp_profile *p)
{
    free(p->stream.analyzers);
    memset(&p->stream, 0, sizeof p->stream);
    p->has_stream = false;
}

static enum pp_part part_of(uint32_t tag)
{
    switch (tag) {
    case PATHPROF_SECTION_PROGRAM: return PP_PART_PROGRAM;
    case PATHPROF_SECTION_STREAM: return PP_PART_STREAM;
    case PATHPROF_SECTION_KIPF: return PP_PART_KIPF;
    case PATHPROF_SECTION_SAMPLING: return PP_PART_SAMPLING;
    default: return PP_PART_KPRUNE;
    }
}

/* Reads one section's body into P; damage marks the section (false only
 * when even that fails). KIPF and KPRUNE are only located (read last).
 * FIRST[part]: the first PROGRAM, STREAM, KIPF and KPRUNE section. A second
 * one is damage, and what the first said is forgotten: which one is right
 * is not known. */
static bool read_body(struct pp_profile *p, size_t s, const unsigned char *body,
                      size_t *tus_cap, size_t *funcs_cap, size_t *first, struct pp_error *err)
{
    struct pp_cursor c = pp_cursor_at(body, (size_t)p->sections[s].length, 0);
    uint32_t tag = p->sections[s].tag;
    enum pp_part part;
    bool ok;

    switch (tag) {
    case PATHPROF_SECTION_TU:
        switch (read_tu(&c, p, s, tus_cap, funcs_cap, err)) {
        case TU_OK: return true;
        case TU_META_BAD: part = PP_PART_TU_META; break;
        default: part = PP_PART_TU_COUNTS; break;
        }
        return section_mark(p, s, part, PP_SECTION_DAMAGED, err->msg) ||
               pp_fail(err, "out of memory");
    case PATHPROF_SECTION_PROGRAM:
    case PATHPROF_SECTION_STREAM:
    case PATHPROF_SECTION_KIPF:
    case PATHPROF_SECTION_KPRUNE:
    case PATHPROF_SECTION_SAMPLING:
        break;
    case PATHPROF_SECTION_WPP: /* known; only `pathprof wpp` reads it (read/wpp.h) */
    case PATHPROF_SECTION_VPP: /* known; only `pathprof vpp` reads it (read/vpp.h) */
        return true;
    default: /* unknown sections are skipped (format.md) */
        p->sections[s].state = PP_SECTION_SKIPPED;
        return true;
    }
    part = part_of(tag);
    if (tag == PATHPROF_SECTION_KIPF)
        p->has_kipf = true;
    if (tag == PATHPROF_SECTION_KPRUNE)
        p->has_kprune = true;
    if (first[part] != PP_NO_SECTION) {
        char why[160];
        if (part == PP_PART_PROGRAM)
            forget_program(p);
        if (part == PP_PART_STREAM)
            forget_stream(p);
        if (part == PP_PART_SAMPLING)
            p->has_sampling = false;
        snprintf(why, sizeof why, "section %" PRIu32 " is a second %s section: which one is "
                                  "right is not known", p->sections[s].index, section_kind(tag));
        if (!section_mark(p, first[part], part, PP_SECTION_UNCHECKED, why))
            return pp_fail(err, "out of memory");
        ok = pp_fail(err, "a second %s section (section %" PRIu32 " is the first): which one "
                          "is right is not known", section_kind(tag),
                     p->sections[first[part]].index);
    } else {
        first[part] = s;
        ok = true;
        if (part == PP_PART_PROGRAM) {
            ok = read_program(&c, p, err);
            if (ok && pp_cursor_left(&c) != 0) {
                ok = pp_fail(err, "%zu unexplained bytes at its end", pp_cursor_left(&c));
                forget_program(p);
            }
        } else if (part == PP_PART_SAMPLING) {
            ok = read_sampling(&c, &p->sampling, err);
            p->has_sampling = ok;
        } else if (part == PP_PART_STREAM) {
            ok = read_stream(&c, &p->stream, err);
            if (ok)
                p->has_stream = true;
            else
                forget_stream(p);
        }
    }
    return ok || section_mark(p, s, part, PP_SECTION_DAMAGED, err->msg) ||
           pp_fail(err, "out of memory");
}

/* The framing: a section header and a length that fits, for every section
 * the header announces, and nothing after the last.  These are fatal: a
 * wrong length leaves no section after it where it should be. */
static bool read_sections(const unsigned char *data, uint64_t payload_len, uint32_t nsections,
                          struct pp_profile *p, size_t *first, struct pp_error *err)
{
    struct pp_cursor payload =
        pp_cursor_at(data, PATHPROF_FILE_HEADER_SIZE + (size_t)payload_len,
                     PATHPROF_FILE_HEADER_SIZE);
    size_t tus_cap = 0, funcs_cap = 0, sections_cap = 0;
    uint32_t i;

    for (i = 0; i < nsections; i++) {
        size_t at = payload.pos;
        uint32_t tag, reserved;
        uint64_t length;
        const unsigned char *body;

        if (!pp_get_u32(&payload, &tag) || !pp_get_u32(&payload, &reserved) ||
            !pp_get_u64(&payload, &length))
            return pp_fail(err, "section %" PRIu32 " of %" PRIu32 " (at byte %zu): "
                                "truncated section header", i + 1, nsections, at);
        if (!pp_get_bytes(&payload, length, &body))
            return pp_fail(err, "section %" PRIu32 " (at byte %zu): length %" PRIu64
                                " exceeds the %zu payload bytes left",
                           i + 1, at, length, pp_cursor_left(&payload));
        if (!add_section(p, &sections_cap, tag, at, length, err) ||
            !read_body(p, p->nsections - 1, body, &tus_cap, &funcs_cap, first, err))
            return false;
    }
    if (pp_cursor_left(&payload) != 0)
        return pp_fail(err, "%zu payload bytes after the last of the %" PRIu32 " sections",
                       pp_cursor_left(&payload), nsections);
    return true;
}

/* With any TU section's counts broken no count is shown: a partial total
 * would pass for the whole. */
static void drop_counts(struct pp_profile *p)
{
    size_t i;
    for (i = 0; i < p->nfuncs; i++) {
        struct pp_func *f = &p->funcs[i];
        free(f->records);
        f->records = NULL;
        f->nrecords = 0;
        f->total = 0;
        f->cold = 0;
        if (f->verify_counts)
            memset(f->verify_counts, 0, (size_t)f->meta->nverify * 8);
    }
    p->total = 0;
}

typedef bool (*section_reader)(const unsigned char *body, size_t len, struct pp_profile *p,
                               struct pp_error *err);

/* KIPF or KPRUNE at section S: after every TU, since labels name them. */
static bool read_forest_section(struct pp_profile *p, const unsigned char *data, size_t s,
                                enum pp_part part, section_reader read, struct pp_error *err)
{
    const struct pp_section *sec = &p->sections[s];
    bool ok;

    if (p->broken[PP_PART_TU_META] != PP_NO_SECTION) {
        const struct pp_section *tu = &p->sections[p->broken[PP_PART_TU_META]];
        char why[200];
        snprintf(why, sizeof why, "its labels name functions of the TU sections, and section %"
                                  PRIu32 " (TU) is damaged", tu->index);
        return section_mark(p, s, part, PP_SECTION_UNCHECKED, why) ||
               pp_fail(err, "out of memory");
    }
    ok = read(data + sec->at + 16, (size_t)sec->length, p, err);
    if (ok)
        return true;
    if (part == PP_PART_KIPF) {
        kipf_free(p->kipf);
        p->kipf = NULL;
    } else {
        kprune_free(p->kprune);
        p->kprune = NULL;
    }
    return section_mark(p, s, part, PP_SECTION_DAMAGED, err->msg) ||
           pp_fail(err, "out of memory");
}

bool profile_read(const char *path, struct pp_profile *p, struct pp_error *err)
{
    return profile_read_keep(path, p, NULL, err);
}

bool profile_read_keep(const char *path, struct pp_profile *p, const struct kipf_keep *keep,
                       struct pp_error *err)
{
    return profile_read_bytes(path, p, keep, NULL, NULL, err);
}

bool profile_read_bytes(const char *path, struct pp_profile *p, const struct kipf_keep *keep,
                        unsigned char **bytes, size_t *nbytes, struct pp_error *err)
{
    unsigned char *data;
    size_t len, first[PP_NPARTS];
    uint32_t nsections = 0;
    uint64_t payload_len = 0;
    bool ok;
    int i;

    memset(p, 0, sizeof *p);
    p->kipf_keep = keep;
    for (i = 0; i < PP_NPARTS; i++)
        p->broken[i] = first[i] = PP_NO_SECTION;
    if (!file_bytes(path, SIZE_MAX / 4, &data, &len))
        return pp_fail(err, "%s", strerror(errno));
    if (!profile_parts_sum(path, &data, &len, err))
        return false;
    ok = check_envelope(data, len, p, &nsections, &payload_len, err) &&
         read_sections(data, payload_len, nsections, p, first, err) &&
         func_merge_copies(p, err) && func_label_variants(p, err);
    if (ok && p->broken[PP_PART_TU_COUNTS] != PP_NO_SECTION)
        drop_counts(p);
    /* A second KIPF (KPRUNE) section already broke that part: not read. */
    if (ok && first[PP_PART_KIPF] != PP_NO_SECTION && p->broken[PP_PART_KIPF] == PP_NO_SECTION)
        ok = read_forest_section(p, data, first[PP_PART_KIPF], PP_PART_KIPF, kipf_read, err);
    if (ok && first[PP_PART_KPRUNE] != PP_NO_SECTION &&
        p->broken[PP_PART_KPRUNE] == PP_NO_SECTION)
        ok = read_forest_section(p, data, first[PP_PART_KPRUNE], PP_PART_KPRUNE, kprune_read,
                                 err);
    p->kipf_keep = NULL;
    if (ok && !p->has_program) {
        p->program = strdup("");
        p->cmdline = strdup("");
        ok = (p->program && p->cmdline) || pp_fail(err, "out of memory");
    }
    if (ok && bytes != NULL) {
        *bytes = data;
        *nbytes = len;
    } else {
        free(data);
    }
    if (!ok)
        profile_free(p);
    return ok;
}

void profile_free(struct pp_profile *p)
{
    size_t i;
    for (i = 0; i < p->nfuncs; i++) {
        free(p->funcs[i].records);
        free(p->funcs[i].verify_counts);
    }
    free(p->funcs);
    for (i = 0; i < p->ntus; i++)
        meta_free(&p->tus[i]);
    free(p->tus);
    free(p->program);
    free(p->cmdline);
    free(p->stream.analyzers);
    kipf_free(p->kipf);
    kprune_free(p->kprune);
    for (i = 0; i < p->nsections; i++)
        free(p->sections[i].why);
    free(p->sections);
    memset(p, 0, sizeof *p);
}

double profile_sample_scale(const struct pp_profile *p)
{
    const struct pp_sampling_info *s = &p->sampling;
    if (!p->has_sampling || s->sample_n == 1)
        return 1.0;
    if (s->sample_n == 0 || s->bursts == 0)
        return 0.0;
    /* The checks of the bursts over all checks is the fraction of the run
     * that was profiled; without a finished burst the rate says it. */
    if (s->burst_checks == 0)
        return ((double)s->sample_n + (double)s->burst) / (double)s->burst;
    return ((double)s->gap_checks + (double)s->burst_checks) / (double)s->burst_checks;
}

bool profile_func_sampled(const struct pp_profile *p, const struct pp_func *f)
{
    /* At 1/1 the one burst never ends: every path was counted, and the
     * counts are shown as the exact counts they are. A damaged SAMPLING
     * section (has_sampling false) leaves them burst counts. */
    if (p->has_sampling && p->sampling.sample_n == 1)
        return false;
    return (f->meta->flags & PATHPROF_FN_SAMPLED) != 0;
}

bool profile_kpath_sampled(const struct pp_profile *p, const struct pp_func *f, uint32_t len)
{
    if (profile_func_sampled(p, f))
        return true;
    return len >= 2 && p->has_sampling && p->sampling.sample_n != 1;
}

uint64_t profile_total(const struct pp_profile *p)
{
    return p->total;
}
