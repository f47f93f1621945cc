/* profile-encode.c - serialising the registry into the profile format.
 * Every integer is written little-endian through bytebuf, never by copying
 * host structs, so the file is the same on any host. */
#include "profile-encode.h"
#include "profile-checksum.h"
#include "hash-table.h"
#include "path-count-sort.h"
#include "written-pages.h"
#include "meta.h"
#include "pathprof-abi.h"
#include "le-bytes.h"
#include "program-info.h"
#include "sample-state.h"
#include "stream.h"

#include <stdlib.h>
#include <time.h>

/* Offsets of the fields patched once the payload is known. */
enum { HDR_MODE = 16, HDR_NSECTIONS = 40, HDR_PAYLOAD_SIZE = 48 };

struct totals {
    uint64_t array_updates, hash_updates, hash_lost;
};

/* Where a section's length is, and how long the contents were there
 * (a TU section holds its metadata by reference: bytebuf.h). */
struct section {
    size_t at, size_at;
};

/* Opens a section; returns what to pass to end_section. */
static struct section begin_section(struct pprt_buf *b, uint32_t tag)
{
    pprt_buf_u32(b, tag);
    pprt_buf_u32(b, 0);
    struct section s = {b->len, pprt_buf_size(b)};
    pprt_buf_u64(b, 0); /* length, patched by end_section */
    return s;
}

static void end_section(struct pprt_buf *b, struct section s)
{
    pprt_buf_patch_u64(b, s.at, pprt_buf_size(b) - (s.size_at + 8));
}

static void put_string(struct pprt_buf *b, const char *s, size_t len)
{
    if (s == NULL || len > UINT32_MAX)
        len = 0;
    pprt_buf_u32(b, (uint32_t)len);
    pprt_buf_put(b, s, len);
}

static uint64_t load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/* The non-zero counters among C[FROM, TO), as records. */
static uint64_t encode_counters(struct pprt_buf *b, const uint64_t *c, uint64_t from, uint64_t to,
                                struct totals *t)
{
    uint64_t n = 0;
    for (uint64_t id = from; id < to; id++) {
        /* Most counters of a function with many paths are 0, and every
         * process scans all of them at exit (libjpeg-turbo's programs:
         * 627 K counters, a 12 ms process's 2.5%): eight at a time, which
         * one test skips. */
        if (((id - from) & 7) == 0 && to - id >= 8 &&
            (load(c + id) | load(c + id + 1) | load(c + id + 2) | load(c + id + 3) |
             load(c + id + 4) | load(c + id + 5) | load(c + id + 6) | load(c + id + 7)) == 0) {
            id += 7;
            continue;
        }
        /* Read once: another thread may bump it between a test and a use. */
        uint64_t count = load(&c[id]);
        if (count == 0)
            continue;
        pprt_buf_u64(b, id);
        pprt_buf_u64(b, count);
        t->array_updates += count;
        n++;
    }
    return n;
}

static void encode_array_fn(struct pprt_buf *b, const struct pprt_tu *tu,
                            const struct pprt_meta_fn *fn, const struct pprt_written_pages *w,
                            struct totals *t)
{
    size_t at = b->len;
    pprt_buf_u64(b, 0); /* nrecords, patched below */
    uint64_t n = 0;
    const uint64_t *c = &tu->counters[fn->counter_offset];
    /* Page by page: a page never written holds zeros only, and reading it
     * would fault it in (written-pages.h). */
    for (uint64_t id = 0; id < fn->npaths;) {
        uint64_t to = pprt_next_page_index(w, c, id);
        if (to > fn->npaths)
            to = fn->npaths;
        if (pprt_page_written(w, c + id))
            n += encode_counters(b, c, id, to, t);
        id = to;
    }
    pprt_buf_patch_u64(b, at, n);
}

static void encode_hash_fn(struct pprt_buf *b, const struct pprt_tu *tu,
                           const struct pprt_meta_fn *fn, struct totals *t)
{
    struct pprt_path_counts c = {0};
    uint64_t slot = __atomic_load_n(&tu->counters[fn->counter_offset], __ATOMIC_ACQUIRE);
    pprt_hash_collect(slot, &c, &t->hash_lost);
    if (c.failed)
        b->failed = 1; /* a profile silently missing counts would mislead */
    pprt_buf_u64(b, c.n);
    for (size_t i = 0; i < c.n; i++) {
        pprt_buf_u64(b, c.v[i].path_id);
        pprt_buf_u64(b, c.v[i].count);
        t->hash_updates += c.v[i].count;
    }
    pprt_path_counts_free(&c);
}

/* A PPP function: its interesting paths' counts, found by PPP number and
 * written under their Ball-Larus IDs (the table), with the uninteresting
 * ones from the hash slot after the N counters, in one ascending list. */
static void encode_ppp_fn(struct pprt_buf *b, const struct pprt_tu *tu, uint32_t i,
                          const struct pprt_meta_fn *fn, struct totals *t)
{
    const unsigned char *table = pprt_meta_ppp_table(tu->meta, tu->meta_len, i);
    struct pprt_path_counts c = {0};
    uint64_t slot = __atomic_load_n(&tu->counters[fn->counter_offset + fn->ppp_size],
                                    __ATOMIC_ACQUIRE);
    /* ppp-uninteresting=total: the slot is a count, under ID npaths. */
    uint64_t others_total = fn->ppp_total ? slot : 0;
    if (!fn->ppp_total)
        pprt_hash_collect(slot, &c, &t->hash_lost);
    size_t nhash = c.n;
    struct pprt_path_counts all = {0};
    all.v = malloc((nhash + fn->ppp_size + 1) * sizeof *all.v);
    if (c.failed || !all.v || !table) {
        b->failed = 1; /* a profile silently missing counts would mislead */
        pprt_path_counts_free(&c);
        free(all.v);
        pprt_buf_u64(b, 0);
        return;
    }
    for (size_t k = 0; k < nhash; k++) {
        all.v[all.n++] = c.v[k];
        t->hash_updates += c.v[k].count;
    }
    for (uint32_t p = 0; p < fn->ppp_size; p++) {
        uint64_t count = load(&tu->counters[fn->counter_offset + p]);
        if (count == 0)
            continue;
        all.v[all.n].path_id = pprt_get_u64(table + 8 * (size_t)p);
        all.v[all.n++].count = count;
        t->array_updates += count;
    }
    pprt_sort_path_counts(all.v, all.n);
    if (others_total) {
        all.v[all.n].path_id = fn->npaths; /* above every ID: the last record */
        all.v[all.n++].count = others_total;
        t->array_updates += others_total;
    }
    pprt_buf_u64(b, all.n);
    for (size_t k = 0; k < all.n; k++) {
        pprt_buf_u64(b, all.v[k].path_id);
        pprt_buf_u64(b, all.v[k].count);
    }
    pprt_path_counts_free(&c);
    free(all.v);
}

static void encode_tu(struct pprt_buf *b, const struct pprt_tu *tu, struct pprt_written_pages *w,
                      struct totals *t)
{
    pprt_written_pages_of(w, tu->counters, tu->ncounters * sizeof *tu->counters);
    struct section at = begin_section(b, PATHPROF_SECTION_TU);
    pprt_buf_u64(b, tu->meta_len);
    /* By reference: the registry stays locked until the bytes are
     * written (profile-write.c), so the blob cannot go meanwhile. */
    pprt_buf_put_ref(b, tu->meta, tu->meta_len);
    pprt_buf_zeros(b, (8 - tu->meta_len % 8) % 8);
    uint32_t nfuncs = pprt_meta_nfuncs(tu->meta);
    for (uint32_t i = 0; i < nfuncs; i++) {
        struct pprt_meta_fn fn;
        pprt_meta_fn(tu->meta, i, &fn);
        if (fn.flags & PATHPROF_FN_PPP)
            encode_ppp_fn(b, tu, i, &fn, t);
        else if (fn.flags & PATHPROF_FN_HASH)
            encode_hash_fn(b, tu, &fn, t);
        else
            encode_array_fn(b, tu, &fn, w, t);
        if (fn.flags & PATHPROF_FN_VERIFY)
            for (uint32_t e = 0; e < fn.nverify; e++)
                pprt_buf_u64(b, load(&tu->counters[fn.verify_offset + e]));
    }
    end_section(b, at);
}

/* The PROGRAM totals over TU sections the runtime did not count itself
 * (written by analyzers from the stream): read back from the bytes, so
 * the totals agree with the file whoever wrote the sections. */
static void sum_tu_sections(const struct pprt_buf *b, size_t pos, struct totals *t)
{
    const unsigned char *d = b->data;
    while (pos + 16 <= b->len) {
        uint32_t tag = pprt_get_u32(d + pos);
        uint64_t len = pprt_get_u64(d + pos + 8);
        size_t q = pos + 16, end = q + len;
        if (len > b->len - q)
            return;
        pos = end;
        if (tag != PATHPROF_SECTION_TU || len < 8)
            continue;
        uint64_t meta_len = pprt_get_u64(d + q);
        const unsigned char *meta = d + q + 8;
        if (meta_len > end - q - 8)
            continue;
        q += 8 + meta_len + (8 - meta_len % 8) % 8;
        uint32_t nfuncs = pprt_meta_nfuncs(meta);
        for (uint32_t i = 0; i < nfuncs && q + 8 <= end; i++) {
            struct pprt_meta_fn fn;
            pprt_meta_fn(meta, i, &fn);
            uint64_t nrecords = pprt_get_u64(d + q);
            q += 8;
            for (uint64_t r = 0; r < nrecords && q + 16 <= end; r++, q += 16) {
                if (fn.flags & PATHPROF_FN_HASH)
                    t->hash_updates += pprt_get_u64(d + q + 8);
                else
                    t->array_updates += pprt_get_u64(d + q + 8);
            }
            if (fn.flags & PATHPROF_FN_VERIFY)
                q += 8 * (size_t)fn.nverify;
        }
    }
}

/* The trailer (profile-checksum.h) of a buffer in pieces: pprt_hash64,
 * the checksum of every version this runtime writes. */
_Static_assert(PATHPROF_FILE_VERSION >= 2, "the trailer is pprt_hash64 from version 2 on");
static int hash_piece(const unsigned char *p, size_t n, void *arg)
{
    pprt_hash64_add(arg, p, n);
    return 0;
}

void pprt_profile_encode(const struct pprt_tu *list, pid_t pid,
                         struct pprt_buf *b, uint64_t *hash_lost)
{
    struct totals t = {0, 0, 0};
    uint32_t nsections = 0;

    pprt_buf_put(b, PATHPROF_FILE_MAGIC, 8);
    pprt_buf_u32(b, PATHPROF_FILE_VERSION);
    pprt_buf_u32(b, PATHPROF_FILE_HEADER_SIZE);
    pprt_buf_u32(b, PATHPROF_MODE_COUNT);
    pprt_buf_u32(b, 0);                  /* flags */
    pprt_buf_u64(b, (uint64_t)pid);
    pprt_buf_u64(b, (uint64_t)time(NULL));
    pprt_buf_u32(b, 0);                  /* nsections, patched */
    pprt_buf_u32(b, 0);
    pprt_buf_u64(b, 0);                  /* payload_size, patched */
    pprt_buf_u64(b, 0);

    size_t len;
    struct section program = begin_section(b, PATHPROF_SECTION_PROGRAM);
    char *exe = pprt_exe_path(&len);
    put_string(b, exe, exe ? len : 0);
    free(exe);
    char *cmd = pprt_command_line(&len);
    put_string(b, cmd, cmd ? len : 0);
    free(cmd);
    size_t totals_at = b->len;
    pprt_buf_u64(b, 0); /* array_updates, patched once the TUs are done */
    pprt_buf_u64(b, 0); /* hash_updates, likewise */
    pprt_buf_u64(b, 0); /* lost_after_write: reserved */
    end_section(b, program);
    nsections++;

    /* Before the counts it qualifies: a reader meets "sampled" first. */
    struct pprt_sampling smp;
    if (pprt_sampling_totals(&smp)) {
        struct section at = begin_section(b, PATHPROF_SECTION_SAMPLING);
        pprt_buf_u64(b, smp.sample_n);
        pprt_buf_u64(b, smp.burst);
        pprt_buf_u64(b, smp.bursts);
        pprt_buf_u64(b, smp.gap_checks);
        pprt_buf_u64(b, smp.burst_checks);
        end_section(b, at);
        nsections++;
    }

    struct pprt_written_pages w;
    pprt_written_pages_open(&w);
    for (const struct pprt_tu *tu = list; tu; tu = tu->next, nsections++)
        encode_tu(b, tu, &w, &t);
    pprt_written_pages_close(&w);

    if (pprt_stream_used()) {
        size_t from = b->len;
        pprt_stream_encode(b, &nsections);
        if (!b->failed)
            sum_tu_sections(b, from, &t);
        pprt_buf_patch_u32(b, HDR_MODE, PATHPROF_MODE_STREAM);
    }

    pprt_buf_patch_u64(b, totals_at, t.array_updates);
    pprt_buf_patch_u64(b, totals_at + 8, t.hash_updates);
    pprt_buf_patch_u32(b, HDR_NSECTIONS, nsections);
    pprt_buf_patch_u64(b, HDR_PAYLOAD_SIZE, pprt_buf_size(b) - PATHPROF_FILE_HEADER_SIZE);
    if (!b->failed) {
        struct pprt_hash64_state h;
        pprt_hash64_begin(&h);
        pprt_buf_pieces(b, hash_piece, &h);
        pprt_buf_u64(b, pprt_hash64_end(&h));
    }
    *hash_lost += t.hash_lost;
}
