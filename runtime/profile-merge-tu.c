/* profile-merge-tu.c - an input's TU sections (functions matched by
 * metadata blob, a function of another build refused, path records added
 * by one linear merge), its PROGRAM and STREAM sections (see
 * profile-merge-tu.h). */
#include "profile-merge-tu.h"
#include "fnv.h"
#include "hash64.h"
#include "le-bytes.h"
#include "pathprof-abi.h"

#include <stdlib.h>
#include <string.h>

/* ---- TUs and functions ---- */

static uint64_t tu_hash_of(const void *ctx, size_t v)
{
    return ((const struct pprt_merge *)ctx)->tus[v].hash;
}

static uint64_t key_hash(const unsigned char *name, uint32_t nlen, const unsigned char *file,
                         uint32_t flen)
{
    uint64_t h = pprt_fnv1a64(PPRT_FNV64_BASIS, name, nlen);
    h = pprt_fnv1a64(h ^ 0xff, file, flen);
    return mg_mix(h);
}

static uint64_t fn_hash_of(const void *ctx, size_t v)
{
    const struct pprt_merge *m = ctx;
    const struct mg_func *f = &m->tus[v >> 32].funcs[v & 0xffffffffu];
    return key_hash(f->name, f->name_len, f->file, f->file_len);
}

static int same_key(const struct mg_func *a, const struct mg_func *b)
{
    return a->name_len == b->name_len && a->file_len == b->file_len &&
           memcmp(a->name, b->name, a->name_len) == 0 &&
           memcmp(a->file, b->file, a->file_len) == 0;
}

/* A string of the blob by index; "" for PATHPROF_NONE. */
static int blob_string(const uint32_t *offs, uint32_t nstrings, const unsigned char *blob,
                       uint32_t index, const unsigned char **s, uint32_t *len)
{
    if (index == PATHPROF_NONE) {
        *s = (const unsigned char *)"";
        *len = 0;
        return 0;
    }
    if (index >= nstrings)
        return -1;
    *len = pprt_get_u32(blob + offs[index]);
    *s = blob + offs[index] + 4;
    return 0;
}

/* Reads the blob's directory into TU->funcs (the blob is TU's own copy). */
static int parse_blob(struct mg_tu *tu, struct pprt_merge_error *err)
{
    const unsigned char *b = tu->blob;
    uint64_t len = tu->len;
    if (len < PATHPROF_META_HEADER_SIZE_V1 || memcmp(b, PATHPROF_META_MAGIC, 4) != 0)
        return mg_fail(err, "the metadata does not start with \"%s\"", PATHPROF_META_MAGIC);
    uint32_t version = pprt_get_u32(b + 4);
    if (version < PATHPROF_META_VERSION_OLDEST || version > PATHPROF_META_VERSION)
        return mg_fail(err, "metadata version %u, this pathprof reads versions %u to %u", version,
                       PATHPROF_META_VERSION_OLDEST, PATHPROF_META_VERSION);
    uint32_t hsize = pathprof_meta_header_size(version);
    if (len < hsize)
        return mg_fail(err, "the metadata is shorter than its %u-byte header", hsize);
    uint32_t nfuncs = pprt_get_u32(b + 8), nstrings = pprt_get_u32(b + 12);
    uint64_t strtab = pprt_get_u64(b + 16);
    uint32_t build = version >= 2 ? pprt_get_u32(b + 32) : PATHPROF_NONE;
    if (nfuncs > (len - hsize) / PATHPROF_META_DIRENT_SIZE)
        return mg_fail(err, "%u functions do not fit in the metadata", nfuncs);
    if (strtab > len || nstrings > (len - strtab) / 4)
        return mg_fail(err, "the string table lies outside the metadata");
    uint32_t *offs = malloc(((size_t)nstrings + 1) * sizeof *offs);
    tu->funcs = calloc((size_t)nfuncs + 1, sizeof *tu->funcs);
    if (!offs || !tu->funcs) {
        free(offs);
        return mg_fail(err, "out of memory");
    }
    uint64_t at = strtab;
    for (uint32_t i = 0; i < nstrings; i++) {
        if (len - at < 4 || pprt_get_u32(b + at) > len - at - 4) {
            free(offs);
            return mg_fail(err, "string %u runs past the metadata", i);
        }
        offs[i] = (uint32_t)at;
        at += 4 + (uint64_t)pprt_get_u32(b + at);
    }
    tu->nfuncs = nfuncs;
    for (uint32_t i = 0; i < nfuncs; i++) {
        const unsigned char *d = b + hsize + (size_t)i * PATHPROF_META_DIRENT_SIZE;
        struct mg_func *f = &tu->funcs[i];
        if (blob_string(offs, nstrings, b, pprt_get_u32(d), &f->name, &f->name_len) != 0 ||
            blob_string(offs, nstrings, b, pprt_get_u32(d + 4), &f->file, &f->file_len) != 0) {
            free(offs);
            return mg_fail(err, "function %u names a string beyond the %u of the table", i,
                        nstrings);
        }
        f->checksum = pprt_get_u64(d + 8);
        f->flags = pprt_get_u32(d + 16);
        f->npaths = pprt_get_u64(d + 24);
        /* ppp-uninteresting=total: the record with ID npaths is the count
         * of the paths that are not interesting (docs/format.md, section
         * 5); it adds like a path's. */
        f->nids = f->npaths;
        if ((f->flags & PATHPROF_FN_PPP) && (pprt_get_u32(d + 52) & PATHPROF_PPP_TOTAL) &&
            f->npaths != UINT64_MAX)
            f->nids++;
        f->nverify = (f->flags & PATHPROF_FN_VERIFY) ? pprt_get_u32(d + 48) : 0;
        /* Each verify edge is described in the blob (docs/format.md,
         * section 2): a count beyond its bytes is damage, not a size to
         * allocate. */
        if (f->nverify > len / (version >= 3 ? PATHPROF_META_V3_VERIFY_MIN
                                             : PATHPROF_META_VERIFY_SIZE)) {
            free(offs);
            return mg_fail(err, "function %u announces %u verify edges, more than the metadata's "
                           "%llu bytes can describe", i, f->nverify, (unsigned long long)len);
        }
        if (f->nverify && !(f->verify = calloc(f->nverify, sizeof *f->verify))) {
            free(offs);
            return mg_fail(err, "out of memory");
        }
    }
    if (build != PATHPROF_NONE &&
        blob_string(offs, nstrings, b, build, &tu->build, &tu->build_len) != 0) {
        free(offs);
        return mg_fail(err, "its build line names a string beyond the %u of the table", nstrings);
    }
    free(offs);
    return 0;
}

/* Whether two TUs come from one compilation, maybe built twice: the same
 * build line (docs/format.md, section 2), or either without one (a
 * version 1 blob: we cannot tell, and take the safe side). */
static int same_compilation(const struct mg_tu *a, const struct mg_tu *b)
{
    if (!a->build || !b->build)
        return 1;
    return a->build_len == b->build_len && memcmp(a->build, b->build, a->build_len) == 0;
}

/* Refuses a function that the profiles added before know under the same
 * name and file only with other checksums, in a TU of the same
 * compilation: another build of it. The same file compiled another way
 * (other options, another language, included by another file) keeps its
 * copies side by side, each with its own counts. */
static int check_build(struct pprt_merge *m, const struct mg_tu *tu, size_t input,
                       struct pprt_merge_error *err)
{
    for (uint32_t i = 0; i < tu->nfuncs && m->fn_nslots; i++) {
        const struct mg_func *f = &tu->funcs[i];
        size_t j = key_hash(f->name, f->name_len, f->file, f->file_len) & (m->fn_nslots - 1);
        const struct mg_func *other = NULL;
        size_t other_tu = 0;
        int same = 0;
        for (; m->fn_slots[j]; j = (j + 1) & (m->fn_nslots - 1)) {
            size_t v = m->fn_slots[j] - 1;
            const struct mg_tu *t = &m->tus[v >> 32];
            const struct mg_func *g = &t->funcs[v & 0xffffffffu];
            if (!same_key(f, g))
                continue;
            if (g->checksum == f->checksum)
                same = 1;
            else if (t->first_input != input && !other && same_compilation(t, tu)) {
                other = g;
                other_tu = v >> 32;
            }
        }
        if (other && !same)
            return mg_fail(err, "function %.*s (%.*s) differs between %s and %s (CFG checksums "
                        "%016llx and %016llx): they come from different builds of the "
                        "program; merge the profiles of one build only",
                        (int)f->name_len, (const char *)f->name, (int)f->file_len,
                        (const char *)f->file, m->names[m->tus[other_tu].first_input],
                        m->names[input], (unsigned long long)other->checksum,
                        (unsigned long long)f->checksum);
    }
    return 0;
}

static int index_functions(struct pprt_merge *m, size_t t)
{
    for (uint32_t i = 0; i < m->tus[t].nfuncs; i++) {
        if (mg_rehash(&m->fn_slots, &m->fn_nslots, m->fn_n, fn_hash_of, m) != 0)
            return -1;
        size_t v = (t << 32) | i;
        size_t j = fn_hash_of(m, v) & (m->fn_nslots - 1);
        while (m->fn_slots[j])
            j = (j + 1) & (m->fn_nslots - 1);
        m->fn_slots[j] = v + 1;
        m->fn_n++;
    }
    return 0;
}

/* The accumulator's TU for this blob, made (and checked) when new. */
static int find_tu(struct pprt_merge *m, const unsigned char *blob, uint64_t len,
                   size_t input, size_t *out, struct pprt_merge_error *err)
{
    uint64_t h = mg_mix(pprt_hash64(blob, len));
    if (m->tu_nslots) {
        for (size_t j = h & (m->tu_nslots - 1); m->tu_slots[j]; j = (j + 1) & (m->tu_nslots - 1)) {
            const struct mg_tu *t = &m->tus[m->tu_slots[j] - 1];
            if (t->hash == h && t->len == len && memcmp(t->blob, blob, len) == 0) {
                *out = m->tu_slots[j] - 1;
                return 0;
            }
        }
    }
    if (m->ntus >= 0xffffffffu || mg_grow(&m->tus, &m->tucap, m->ntus + 1, sizeof *m->tus) != 0 ||
        mg_rehash(&m->tu_slots, &m->tu_nslots, m->ntus, tu_hash_of, m) != 0)
        return mg_fail(err, "out of memory");
    struct mg_tu *t = &m->tus[m->ntus];
    *t = (struct mg_tu){.len = len, .hash = h, .first_input = input};
    if (!(t->blob = malloc(len ? len : 1)))
        return mg_fail(err, "out of memory");
    memcpy(t->blob, blob, len);
    m->ntus++; /* counted now so that pprt_merge_free frees it */
    if (parse_blob(t, err) != 0 || check_build(m, t, input, err) != 0)
        return -1;
    if (index_functions(m, m->ntus - 1) != 0)
        return mg_fail(err, "out of memory");
    size_t j = h & (m->tu_nslots - 1);
    while (m->tu_slots[j])
        j = (j + 1) & (m->tu_nslots - 1);
    m->tu_slots[j] = m->ntus;
    *out = m->ntus - 1;
    return 0;
}

/* Adds N records (ascending ids) to F's, both sorted: one linear merge. */
static int add_records(struct mg_func *f, const unsigned char *rec, uint64_t n,
                       struct pprt_merge_error *err)
{
    uint64_t prev = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t id = pprt_get_u64(rec + 16 * i), count = pprt_get_u64(rec + 16 * i + 8);
        if (id >= f->nids || (i && id <= prev) || count == 0)
            return mg_fail(err, "function %.*s: path record %llu (path %llu, count %llu) is "
                        "out of range, out of order or zero", (int)f->name_len,
                        (const char *)f->name, (unsigned long long)i, (unsigned long long)id,
                        (unsigned long long)count);
        prev = id;
    }
    if (n == 0)
        return 0;
    uint64_t total = f->nrec + n;
    uint64_t *out = malloc(2 * total * sizeof *out);
    if (!out)
        return mg_fail(err, "out of memory");
    uint64_t a = 0, b = 0, w = 0;
    while (a < f->nrec || b < n) {
        uint64_t ida = a < f->nrec ? f->rec[2 * a] : UINT64_MAX;
        uint64_t idb = b < n ? pprt_get_u64(rec + 16 * b) : UINT64_MAX;
        if (a < f->nrec && (b >= n || ida < idb)) {
            out[2 * w] = ida;
            out[2 * w + 1] = f->rec[2 * a + 1];
            a++;
        } else {
            out[2 * w] = idb;
            out[2 * w + 1] = pprt_get_u64(rec + 16 * b + 8);
            if (a < f->nrec && ida == idb &&
                __builtin_add_overflow(out[2 * w + 1], f->rec[2 * a + 1], &out[2 * w + 1])) {
                free(out);
                return mg_fail(err, "the counts of path %llu of %.*s add up to more than "
                            "2^64 - 1", (unsigned long long)idb, (int)f->name_len,
                            (const char *)f->name);
            }
            if (a < f->nrec && ida == idb)
                a++;
            b++;
        }
        w++;
    }
    free(f->rec);
    f->rec = out;
    f->nrec = w;
    f->cap = total;
    return 0;
}

int mg_read_tu(struct pprt_merge *m, struct mg_cur *c, size_t input, size_t *tu_out,
                   struct pprt_merge_error *err)
{
    uint64_t meta_len;
    if (mg_get_u64(c, &meta_len) != 0 || meta_len > mg_left(c))
        return mg_fail(err, "the metadata length exceeds the section");
    const unsigned char *blob = c->p + c->pos;
    c->pos += meta_len;
    size_t pad = (8 - meta_len % 8) % 8;
    if (mg_left(c) < pad)
        return mg_fail(err, "truncated in the padding");
    for (size_t i = 0; i < pad; i++)
        if (c->p[c->pos + i])
            return mg_fail(err, "non-zero padding after the metadata");
    c->pos += pad;
    if (find_tu(m, blob, meta_len, input, tu_out, err) != 0)
        return -1;
    struct mg_tu *t = &m->tus[*tu_out];
    for (uint32_t i = 0; i < t->nfuncs; i++) {
        struct mg_func *f = &t->funcs[i];
        uint64_t n;
        if (mg_get_u64(c, &n) != 0 || n > mg_left(c) / 16)
            return mg_fail(err, "function %u: its path records run past the section", i);
        if (!m->shallow && add_records(f, c->p + c->pos, n, err) != 0)
            return -1;
        c->pos += 16 * n;
        if (f->nverify > mg_left(c) / 8)
            return mg_fail(err, "function %u: its edge counts run past the section", i);
        if (m->shallow) {
            c->pos += 8 * (size_t)f->nverify;
            continue;
        }
        for (uint32_t e = 0; e < f->nverify; e++, c->pos += 8)
            if (mg_add(&f->verify[e], pprt_get_u64(c->p + c->pos), err, "direct edge counts") != 0)
                return -1;
    }
    if (mg_left(c))
        return mg_fail(err, "%zu unexplained bytes at its end", mg_left(c));
    return 0;
}

/* ---- PROGRAM and STREAM ---- */

static const char several_programs[] = "(several programs)";
static const char several_commands[] = "(several command lines)";

/* Keeps *HELD when S (LEN bytes) is the same, else says "several". */
static int merge_text(char **held, const unsigned char *s, uint32_t len, const char *several,
                      int first)
{
    if (!first && *held && strlen(*held) == len && memcmp(*held, s, len) == 0)
        return 0;
    char *n = first ? malloc((size_t)len + 1) : strdup(several);
    if (!n)
        return -1;
    if (first) {
        memcpy(n, s, len);
        n[len] = '\0';
        if (memchr(s, 0, len)) {
            free(n);
            n = strdup(several);
            if (!n)
                return -1;
        }
    }
    free(*held);
    *held = n;
    return 0;
}

int mg_read_program(struct pprt_merge *m, struct mg_cur *c, struct pprt_merge_error *err)
{
    struct mg_program *p = &m->program;
    uint32_t plen, clen;
    const unsigned char *prog, *cmd;
    if (mg_get_u32(c, &plen) != 0 || plen > mg_left(c))
        return mg_fail(err, "truncated");
    prog = c->p + c->pos;
    c->pos += plen;
    if (mg_get_u32(c, &clen) != 0 || clen > mg_left(c))
        return mg_fail(err, "truncated");
    cmd = c->p + c->pos;
    c->pos += clen;
    uint64_t a, h, l;
    if (mg_get_u64(c, &a) || mg_get_u64(c, &h) || mg_get_u64(c, &l) || mg_left(c))
        return mg_fail(err, "its totals are truncated or followed by unexplained bytes");
    int first = !p->present;
    if (merge_text(&p->program, prog, plen, several_programs, first) != 0 ||
        merge_text(&p->cmdline, cmd, clen, several_commands, first) != 0)
        return mg_fail(err, "out of memory");
    p->present = 1;
    if (mg_add(&p->array_updates, a, err, "array updates") || mg_add(&p->hash_updates, h, err, "hash updates") ||
        mg_add(&p->lost_after_write, l, err, "lost counts"))
        return -1;
    uint64_t both;
    if (__builtin_add_overflow(p->array_updates, p->hash_updates, &both))
        return mg_fail(err, "the update totals add up to more than 2^64 - 1");
    return 0;
}

static int add_name(struct mg_stream *s, const unsigned char *name, uint32_t len)
{
    for (size_t i = 0; i < s->nnames; i++)
        if (strlen(s->names[i]) == len && memcmp(s->names[i], name, len) == 0)
            return 0;
    char **n = realloc(s->names, (s->nnames + 1) * sizeof *n);
    if (!n)
        return -1;
    s->names = n;
    if (!(n[s->nnames] = malloc((size_t)len + 1)))
        return -1;
    memcpy(n[s->nnames], name, len);
    n[s->nnames++][len] = '\0';
    return 0;
}

static uint32_t max32(uint32_t a, uint32_t b) { return a > b ? a : b; }

int mg_read_stream(struct pprt_merge *m, struct mg_cur *c, struct pprt_merge_error *err)
{
    struct mg_stream *s = &m->stream;
    uint32_t policy, chunk, chunks, nthreads, nnames;
    uint64_t v[7];
    if (mg_left(c) < 16 + 7 * 8 + 4)
        return mg_fail(err, "truncated");
    mg_get_u32(c, &policy);
    mg_get_u32(c, &chunk);
    mg_get_u32(c, &chunks);
    mg_get_u32(c, &nthreads);
    for (int i = 0; i < 7; i++)
        mg_get_u64(c, &v[i]);
    mg_get_u32(c, &nnames);
    if (policy != PATHPROF_POLICY_BLOCK && policy != PATHPROF_POLICY_DROP)
        return mg_fail(err, "unknown policy %u", policy);
    for (uint32_t i = 0; i < nnames; i++) {
        uint32_t len;
        if (mg_get_u32(c, &len) != 0 || len > mg_left(c))
            return mg_fail(err, "analyzer name %u truncated", i);
        if (len == 0 || memchr(c->p + c->pos, 0, len) || memchr(c->p + c->pos, ',', len))
            return mg_fail(err, "analyzer name %u is empty or holds a NUL or a comma", i);
        if (add_name(s, c->p + c->pos, len) != 0)
            return mg_fail(err, "out of memory");
        c->pos += len;
    }
    if (mg_left(c) != (size_t)nthreads * 16)
        return mg_fail(err, "%zu bytes of per-thread statistics for %u analyzer threads",
                    mg_left(c), nthreads);
    if (nthreads > s->nthreads) {
        uint64_t *t = realloc(s->threads, (size_t)nthreads * 16);
        if (!t)
            return mg_fail(err, "out of memory");
        memset(t + 2 * (size_t)s->nthreads, 0, (size_t)(nthreads - s->nthreads) * 16);
        s->threads = t;
        s->nthreads = nthreads;
    }
    for (uint32_t i = 0; i < 2 * nthreads; i++, c->pos += 8)
        if (mg_add(&s->threads[i], pprt_get_u64(c->p + c->pos), err, "analyzer thread figures"))
            return -1;
    /* The worst of the runs: a drop policy anywhere makes the sum inexact. */
    s->policy = max32(s->policy, policy);
    s->chunk_events = max32(s->chunk_events, chunk);
    s->chunks = max32(s->chunks, chunks);
    uint64_t *sum[7] = {&s->producers, &s->events, &s->dropped, &s->late, &s->resync,
                        &s->unknown, &s->blocked_ns};
    for (int i = 0; i < 7; i++)
        if (mg_add(sum[i], v[i], err, "stream counters"))
            return -1;
    s->present = 1;
    return 0;
}

struct tu_key {
    uint64_t hash, len;
    const unsigned char *blob;
    size_t tu;
};

static int by_blob(const void *x, const void *y)
{
    const struct tu_key *a = x, *b = y;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return memcmp(a->blob, b->blob, a->len);
}

int mg_rank_tus(const struct pprt_merge *m, size_t *order, uint32_t *rank)
{
    struct tu_key *keys = malloc((m->ntus + 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (size_t i = 0; i < m->ntus; i++)
        keys[i] = (struct tu_key){m->tus[i].hash, m->tus[i].len, m->tus[i].blob, i};
    qsort(keys, m->ntus, sizeof *keys, by_blob);
    for (size_t r = 0; r < m->ntus; r++) {
        if (order)
            order[r] = keys[r].tu;
        if (rank)
            rank[keys[r].tu] = (uint32_t)r;
    }
    free(keys);
    return 0;
}
