/* profile-merge.c - adding one profile to the merge accumulator (see
 * profile-merge.h).  The input is checked as it is read: every length
 * against the bytes left, every label against the TU it names, so a
 * damaged or hostile file ends in an error, never in a bad read or a
 * profile that would not read back. */
#include "profile-merge.h"
#include "profile-merge-state.h"
#include "fnv.h"
#include "le-bytes.h"
#include "pathprof-abi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The analyzers' section tags (analyzers/ksf/write.h and
 * analyzers/ksf-pruned/write.h; repeated, the runtime sits below them). */
#define TAG_KIPF 4u
#define TAG_KPRUNE 5u
#define KIPF_COMPACT 2u
#define MAX_K 64u

struct cur {
    const unsigned char *p;
    size_t len, pos;
};

static int fail(struct pprt_merge_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(struct pprt_merge_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static size_t left(const struct cur *c) { return c->len - c->pos; }

static int get_u32(struct cur *c, uint32_t *v)
{
    if (left(c) < 4)
        return -1;
    *v = pprt_get_u32(c->p + c->pos);
    c->pos += 4;
    return 0;
}

static int get_u64(struct cur *c, uint64_t *v)
{
    if (left(c) < 8)
        return -1;
    *v = pprt_get_u64(c->p + c->pos);
    c->pos += 8;
    return 0;
}

static int get_uleb(struct cur *c, uint64_t *v)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (left(c) < 1)
            return -1;
        unsigned char b = c->p[c->pos++];
        if (shift == 63 && (b & 0x7e))
            return -1; /* more than 64 bits */
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

static int add(uint64_t *into, uint64_t v, struct pprt_merge_error *err, const char *what)
{
    if (__builtin_add_overflow(*into, v, into))
        return fail(err, "%s add up to more than 2^64 - 1", what);
    return 0;
}

/* Grows *ARRAY of ELEM-byte items to hold NEED. */
static int grow(void *array, size_t *cap, size_t need, size_t elem)
{
    void **a = array;
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 4 / elem)
            return -1;
        n *= 2;
    }
    void *bigger = realloc(*a, n * elem);
    if (!bigger)
        return -1;
    *a = bigger;
    *cap = n;
    return 0;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

/* Open addressing tables hold index + 1 (0: empty) and double at half
 * load; HASH_OF recomputes an entry's hash when they grow. */
static int rehash(size_t **slots, size_t *nslots, size_t count,
                  uint64_t (*hash_of)(const void *ctx, size_t v), const void *ctx)
{
    if ((count + 1) * 2 <= *nslots)
        return 0;
    size_t n = *nslots ? *nslots * 2 : 64;
    size_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < *nslots; i++) {
        size_t v = (*slots)[i];
        if (!v)
            continue;
        size_t j = hash_of(ctx, v - 1) & (n - 1);
        while (s[j])
            j = (j + 1) & (n - 1);
        s[j] = v;
    }
    free(*slots);
    *slots = s;
    *nslots = n;
    return 0;
}

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
    return mix(h);
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
    if (len < PATHPROF_META_HEADER_SIZE || memcmp(b, PATHPROF_META_MAGIC, 4) != 0)
        return fail(err, "the metadata does not start with \"%s\"", PATHPROF_META_MAGIC);
    if (pprt_get_u32(b + 4) != PATHPROF_META_VERSION)
        return fail(err, "metadata version %u, this pathprof reads %u", pprt_get_u32(b + 4),
                    PATHPROF_META_VERSION);
    uint32_t nfuncs = pprt_get_u32(b + 8), nstrings = pprt_get_u32(b + 12);
    uint64_t strtab = pprt_get_u64(b + 16);
    if (nfuncs > (len - PATHPROF_META_HEADER_SIZE) / PATHPROF_META_DIRENT_SIZE)
        return fail(err, "%u functions do not fit in the metadata", nfuncs);
    if (strtab > len || nstrings > (len - strtab) / 4)
        return fail(err, "the string table lies outside the metadata");
    uint32_t *offs = malloc(((size_t)nstrings + 1) * sizeof *offs);
    tu->funcs = calloc((size_t)nfuncs + 1, sizeof *tu->funcs);
    if (!offs || !tu->funcs) {
        free(offs);
        return fail(err, "out of memory");
    }
    uint64_t at = strtab;
    for (uint32_t i = 0; i < nstrings; i++) {
        if (len - at < 4 || pprt_get_u32(b + at) > len - at - 4) {
            free(offs);
            return fail(err, "string %u runs past the metadata", i);
        }
        offs[i] = (uint32_t)at;
        at += 4 + (uint64_t)pprt_get_u32(b + at);
    }
    tu->nfuncs = nfuncs;
    for (uint32_t i = 0; i < nfuncs; i++) {
        const unsigned char *d = b + PATHPROF_META_HEADER_SIZE + (size_t)i * PATHPROF_META_DIRENT_SIZE;
        struct mg_func *f = &tu->funcs[i];
        if (blob_string(offs, nstrings, b, pprt_get_u32(d), &f->name, &f->name_len) != 0 ||
            blob_string(offs, nstrings, b, pprt_get_u32(d + 4), &f->file, &f->file_len) != 0) {
            free(offs);
            return fail(err, "function %u names a string beyond the %u of the table", i,
                        nstrings);
        }
        f->checksum = pprt_get_u64(d + 8);
        f->flags = pprt_get_u32(d + 16);
        f->npaths = pprt_get_u64(d + 24);
        f->nverify = (f->flags & PATHPROF_FN_VERIFY) ? pprt_get_u32(d + 48) : 0;
        if (f->nverify && !(f->verify = calloc(f->nverify, sizeof *f->verify))) {
            free(offs);
            return fail(err, "out of memory");
        }
    }
    free(offs);
    return 0;
}

/* Refuses a function that the profiles added before know under the same
 * name and file only with other checksums: another build of it. */
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
            else if (t->first_input != input && !other) {
                other = g;
                other_tu = v >> 32;
            }
        }
        if (other && !same)
            return fail(err, "function %.*s (%.*s) differs between %s and %s (CFG checksums "
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
        if (rehash(&m->fn_slots, &m->fn_nslots, m->fn_n, fn_hash_of, m) != 0)
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
    uint64_t h = mix(pprt_fnv1a64(PPRT_FNV64_BASIS, blob, len));
    if (m->tu_nslots) {
        for (size_t j = h & (m->tu_nslots - 1); m->tu_slots[j]; j = (j + 1) & (m->tu_nslots - 1)) {
            const struct mg_tu *t = &m->tus[m->tu_slots[j] - 1];
            if (t->hash == h && t->len == len && memcmp(t->blob, blob, len) == 0) {
                *out = m->tu_slots[j] - 1;
                return 0;
            }
        }
    }
    if (m->ntus >= 0xffffffffu || grow(&m->tus, &m->tucap, m->ntus + 1, sizeof *m->tus) != 0 ||
        rehash(&m->tu_slots, &m->tu_nslots, m->ntus, tu_hash_of, m) != 0)
        return fail(err, "out of memory");
    struct mg_tu *t = &m->tus[m->ntus];
    *t = (struct mg_tu){.len = len, .hash = h, .first_input = input};
    if (!(t->blob = malloc(len ? len : 1)))
        return fail(err, "out of memory");
    memcpy(t->blob, blob, len);
    m->ntus++; /* counted now so that pprt_merge_free frees it */
    if (parse_blob(t, err) != 0 || check_build(m, t, input, err) != 0)
        return -1;
    if (index_functions(m, m->ntus - 1) != 0)
        return fail(err, "out of memory");
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
        if (id >= f->npaths || (i && id <= prev) || count == 0)
            return fail(err, "function %.*s: path record %llu (path %llu, count %llu) is "
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
        return fail(err, "out of memory");
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
                return fail(err, "the counts of path %llu of %.*s add up to more than "
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

static int read_tu(struct pprt_merge *m, struct cur *c, size_t input, size_t *tu_out,
                   struct pprt_merge_error *err)
{
    uint64_t meta_len;
    if (get_u64(c, &meta_len) != 0 || meta_len > left(c))
        return fail(err, "the metadata length exceeds the section");
    const unsigned char *blob = c->p + c->pos;
    c->pos += meta_len;
    size_t pad = (8 - meta_len % 8) % 8;
    if (left(c) < pad)
        return fail(err, "truncated in the padding");
    for (size_t i = 0; i < pad; i++)
        if (c->p[c->pos + i])
            return fail(err, "non-zero padding after the metadata");
    c->pos += pad;
    if (find_tu(m, blob, meta_len, input, tu_out, err) != 0)
        return -1;
    struct mg_tu *t = &m->tus[*tu_out];
    for (uint32_t i = 0; i < t->nfuncs; i++) {
        struct mg_func *f = &t->funcs[i];
        uint64_t n;
        if (get_u64(c, &n) != 0 || n > left(c) / 16)
            return fail(err, "function %u: its path records run past the section", i);
        if (add_records(f, c->p + c->pos, n, err) != 0)
            return -1;
        c->pos += 16 * n;
        if (f->nverify > left(c) / 8)
            return fail(err, "function %u: its edge counts run past the section", i);
        for (uint32_t e = 0; e < f->nverify; e++, c->pos += 8)
            if (add(&f->verify[e], pprt_get_u64(c->p + c->pos), err, "direct edge counts") != 0)
                return -1;
    }
    if (left(c))
        return fail(err, "%zu unexplained bytes at its end", left(c));
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

static int read_program(struct pprt_merge *m, struct cur *c, struct pprt_merge_error *err)
{
    struct mg_program *p = &m->program;
    uint32_t plen, clen;
    const unsigned char *prog, *cmd;
    if (get_u32(c, &plen) != 0 || plen > left(c))
        return fail(err, "truncated");
    prog = c->p + c->pos;
    c->pos += plen;
    if (get_u32(c, &clen) != 0 || clen > left(c))
        return fail(err, "truncated");
    cmd = c->p + c->pos;
    c->pos += clen;
    uint64_t a, h, l;
    if (get_u64(c, &a) || get_u64(c, &h) || get_u64(c, &l) || left(c))
        return fail(err, "its totals are truncated or followed by unexplained bytes");
    int first = !p->present;
    if (merge_text(&p->program, prog, plen, several_programs, first) != 0 ||
        merge_text(&p->cmdline, cmd, clen, several_commands, first) != 0)
        return fail(err, "out of memory");
    p->present = 1;
    if (add(&p->array_updates, a, err, "array updates") || add(&p->hash_updates, h, err, "hash updates") ||
        add(&p->lost_after_write, l, err, "lost counts"))
        return -1;
    uint64_t both;
    if (__builtin_add_overflow(p->array_updates, p->hash_updates, &both))
        return fail(err, "the update totals add up to more than 2^64 - 1");
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

static int read_stream(struct pprt_merge *m, struct cur *c, struct pprt_merge_error *err)
{
    struct mg_stream *s = &m->stream;
    uint32_t policy, chunk, chunks, nthreads, nnames;
    uint64_t v[7];
    if (left(c) < 16 + 7 * 8 + 4)
        return fail(err, "truncated");
    get_u32(c, &policy);
    get_u32(c, &chunk);
    get_u32(c, &chunks);
    get_u32(c, &nthreads);
    for (int i = 0; i < 7; i++)
        get_u64(c, &v[i]);
    get_u32(c, &nnames);
    if (policy != PATHPROF_POLICY_BLOCK && policy != PATHPROF_POLICY_DROP)
        return fail(err, "unknown policy %u", policy);
    for (uint32_t i = 0; i < nnames; i++) {
        uint32_t len;
        if (get_u32(c, &len) != 0 || len > left(c))
            return fail(err, "analyzer name %u truncated", i);
        if (len == 0 || memchr(c->p + c->pos, 0, len) || memchr(c->p + c->pos, ',', len))
            return fail(err, "analyzer name %u is empty or holds a NUL or a comma", i);
        if (add_name(s, c->p + c->pos, len) != 0)
            return fail(err, "out of memory");
        c->pos += len;
    }
    if (left(c) != (size_t)nthreads * 16)
        return fail(err, "%zu bytes of per-thread statistics for %u analyzer threads",
                    left(c), nthreads);
    if (nthreads > s->nthreads) {
        uint64_t *t = realloc(s->threads, (size_t)nthreads * 16);
        if (!t)
            return fail(err, "out of memory");
        memset(t + 2 * (size_t)s->nthreads, 0, (size_t)(nthreads - s->nthreads) * 16);
        s->threads = t;
        s->nthreads = nthreads;
    }
    for (uint32_t i = 0; i < 2 * nthreads; i++, c->pos += 8)
        if (add(&s->threads[i], pprt_get_u64(c->p + c->pos), err, "analyzer thread figures"))
            return -1;
    /* The worst of the runs: a drop policy anywhere makes the sum inexact. */
    s->policy = max32(s->policy, policy);
    s->chunk_events = max32(s->chunk_events, chunk);
    s->chunks = max32(s->chunks, chunks);
    uint64_t *sum[7] = {&s->producers, &s->events, &s->dropped, &s->late, &s->resync,
                        &s->unknown, &s->blocked_ns};
    for (int i = 0; i < 7; i++)
        if (add(sum[i], v[i], err, "stream counters"))
            return -1;
    s->present = 1;
    return 0;
}

/* ---- KIPF: forests merged node by node ---- */

static uint64_t knode_hash(size_t parent, uint32_t tu, uint32_t func, uint64_t id)
{
    return mix(mix((uint64_t)parent * 0x9e3779b97f4a7c15ull ^ id) ^
               ((uint64_t)tu << 32 | func));
}

static uint64_t knode_hash_of(const void *ctx, size_t v)
{
    const struct mg_knode *n = &((const struct mg_kipf *)ctx)->nodes[v];
    return knode_hash(n->parent, n->tu, n->func, n->path_id);
}

static int knode(struct mg_kipf *k, size_t parent, uint32_t tu, uint32_t func, uint64_t id,
                 uint64_t count, size_t *out, struct pprt_merge_error *err)
{
    if (rehash(&k->slots, &k->nslots, k->n, knode_hash_of, k) != 0)
        return fail(err, "out of memory");
    size_t j = knode_hash(parent, tu, func, id) & (k->nslots - 1);
    for (; k->slots[j]; j = (j + 1) & (k->nslots - 1)) {
        struct mg_knode *n = &k->nodes[k->slots[j] - 1];
        if (n->parent == parent && n->tu == tu && n->func == func && n->path_id == id) {
            *out = k->slots[j] - 1;
            return add(&n->count, count, err, "k-IPF node counts");
        }
    }
    if (grow(&k->nodes, &k->cap, k->n + 1, sizeof *k->nodes) != 0)
        return fail(err, "out of memory");
    k->nodes[k->n] = (struct mg_knode){parent, tu, func, id, count};
    k->slots[j] = k->n + 1;
    *out = k->n++;
    return 0;
}

static int read_kipf(struct pprt_merge *m, struct cur *c, const size_t *tumap, size_t ntus,
                     struct pprt_merge_error *err)
{
    struct mg_kipf *k = &m->kipf;
    uint32_t kk, flags, nlevels, reserved;
    uint64_t threads, events, ksf_nodes, kipf_nodes, hash_ops, leaves, depth_sum, nroots;
    if (get_u32(c, &kk) || get_u32(c, &flags) || get_u64(c, &threads) || get_u64(c, &events) ||
        get_u64(c, &ksf_nodes) || get_u64(c, &kipf_nodes) || get_u64(c, &hash_ops) ||
        get_u32(c, &nlevels) || get_u32(c, &reserved))
        return fail(err, "truncated in its fixed part");
    if (kk < 1 || kk > MAX_K || (flags & ~KIPF_COMPACT) || reserved)
        return fail(err, "k = %u, flags 0x%x: not a KIPF section this pathprof reads", kk,
                    flags);
    if (nlevels != (kk == 1 ? 1 : 2 * kk - 2) || nlevels > left(c) / 24)
        return fail(err, "%u k-SF levels for k = %u", nlevels, kk);
    if (k->present && k->k != kk)
        return fail(err, "its k-iteration paths have k = %u, the profiles before k = %u: "
                    "merge runs with the same PATHPROF_K", kk, k->k);
    if (!k->present) {
        k->k = kk;
        k->nlevels = nlevels;
        if (!(k->levels = calloc((size_t)nlevels * 3, sizeof *k->levels)))
            return fail(err, "out of memory");
    }
    for (uint32_t i = 0; i < nlevels * 3; i++, c->pos += 8)
        if (add(&k->levels[i], pprt_get_u64(c->p + c->pos), err, "k-SF level figures"))
            return -1;
    if (get_u64(c, &leaves) || get_u64(c, &depth_sum) || get_u64(c, &nroots))
        return fail(err, "truncated before the forest");
    if (add(&k->threads, threads, err, "thread counts") || add(&k->events, events, err, "event counts") ||
        add(&k->ksf_nodes, ksf_nodes, err, "k-SF node counts") ||
        add(&k->hash_ops, hash_ops, err, "hash operation counts"))
        return -1;
    k->present = 1;
    /* Preorder: a stack of open nodes and the children each still owes. */
    struct open { size_t node; uint64_t owed; uint32_t tu, func; } *stack;
    if (!(stack = malloc((MAX_K + 1) * sizeof *stack)))
        return fail(err, "out of memory");
    int depth = 0, rc = 0;
    uint64_t seen = 0;
    stack[0] = (struct open){MG_NONE, nroots, 0, 0};
    while (rc == 0) {
        while (depth >= 0 && stack[depth].owed == 0)
            depth--;
        if (depth < 0)
            break;
        stack[depth].owed--;
        uint64_t tu = stack[depth].tu, func = stack[depth].func, id, count, nchildren;
        if (seen++ >= kipf_nodes) {
            rc = fail(err, "more nodes than the %llu announced", (unsigned long long)kipf_nodes);
            break;
        }
        if (flags & KIPF_COMPACT) {
            if ((depth == 0 && (get_uleb(c, &tu) || get_uleb(c, &func))) || get_uleb(c, &id) ||
                get_uleb(c, &count) || get_uleb(c, &nchildren)) {
                rc = fail(err, "node %llu truncated", (unsigned long long)seen - 1);
                break;
            }
        } else {
            uint32_t t32, f32, n32, r32;
            if (get_u32(c, &t32) || get_u32(c, &f32) || get_u64(c, &id) || get_u64(c, &count) ||
                get_u32(c, &n32) || get_u32(c, &r32)) {
                rc = fail(err, "node %llu truncated", (unsigned long long)seen - 1);
                break;
            }
            if (depth > 0 && (t32 != tu || f32 != func)) {
                rc = fail(err, "node %llu lies in another function than its parent",
                          (unsigned long long)seen - 1);
                break;
            }
            tu = t32, func = f32, nchildren = n32;
        }
        if (tu >= ntus || func >= m->tus[tumap[tu]].nfuncs ||
            id >= m->tus[tumap[tu]].funcs[func].npaths || count == 0 ||
            (nchildren && depth + 1 >= (int)kk) || nchildren > kipf_nodes) {
            rc = fail(err, "node %llu (TU %llu, function %llu, path %llu, count %llu, %llu "
                      "children) does not fit the profile", (unsigned long long)seen - 1,
                      (unsigned long long)tu, (unsigned long long)func, (unsigned long long)id,
                      (unsigned long long)count, (unsigned long long)nchildren);
            break;
        }
        size_t node = 0;
        if ((rc = knode(k, stack[depth].node, (uint32_t)tumap[tu], (uint32_t)func, id, count,
                        &node, err)) != 0)
            break;
        if (nchildren)
            stack[++depth] = (struct open){node, nchildren, (uint32_t)tu, (uint32_t)func};
    }
    free(stack);
    if (rc == 0 && (seen != kipf_nodes || left(c)))
        rc = fail(err, "the forest has %llu nodes and %zu bytes after them, the section "
                  "announces %llu", (unsigned long long)seen, left(c),
                  (unsigned long long)kipf_nodes);
    (void)leaves, (void)depth_sum;
    return rc;
}

/* ---- KPRUNE: bounds added, an absent sequence costing the floor ---- */

static uint64_t seq_hash(const struct mg_plen *l, uint32_t tu, uint32_t func, const uint64_t *ids,
                         uint32_t n)
{
    (void)l;
    uint64_t h = mix((uint64_t)tu << 32 | func);
    for (uint32_t i = 0; i < n; i++)
        h = mix(h ^ ids[i]);
    return h;
}

struct seq_ctx { const struct mg_plen *l; uint32_t n; };

static uint64_t seq_hash_of(const void *ctx, size_t v)
{
    const struct seq_ctx *s = ctx;
    const struct mg_seq *q = &s->l->seqs[v];
    return seq_hash(s->l, q->tu, q->func, s->l->ids + q->ids, s->n);
}

static int read_plength(struct pprt_merge *m, struct cur *c, uint32_t n, struct mg_plen *l,
                        const size_t *tumap, size_t ntus, size_t input,
                        struct pprt_merge_error *err)
{
    uint64_t total, floor, nseqs, lower = 0;
    if (get_u64(c, &total) || get_u64(c, &floor) || get_u64(c, &nseqs))
        return fail(err, "length %u truncated", n);
    if (floor > total || nseqs > left(c) / (24 + 8 * (uint64_t)n))
        return fail(err, "length %u: floor %llu, %llu occurrences, %llu sequences do not add "
                    "up", n, (unsigned long long)floor, (unsigned long long)total,
                    (unsigned long long)nseqs);
    uint64_t floor_before = l->floor;
    uint64_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
    if (!ids)
        return fail(err, "out of memory");
    struct seq_ctx ctx = {l, n};
    int rc = 0;
    for (uint64_t i = 0; i < nseqs && rc == 0; i++) {
        uint32_t tu, func;
        uint64_t count, e;
        get_u32(c, &tu);
        get_u32(c, &func);
        get_u64(c, &count);
        get_u64(c, &e);
        for (uint32_t j = 0; j < n; j++)
            get_u64(c, &ids[j]);
        int bad = tu >= ntus || func >= m->tus[tumap[tu]].nfuncs || count == 0 || e > count ||
                  __builtin_add_overflow(lower, count - e, &lower) || lower > total;
        for (uint32_t j = 0; j < n && !bad; j++)
            bad = ids[j] >= m->tus[tumap[tu]].funcs[func].npaths;
        if (bad) {
            rc = fail(err, "length %u: sequence %llu does not fit the profile", n,
                      (unsigned long long)i);
            break;
        }
        uint32_t at = (uint32_t)tumap[tu];
        if (rehash(&l->slots, &l->nslots, l->n, seq_hash_of, &ctx) != 0) {
            rc = fail(err, "out of memory");
            break;
        }
        size_t j = seq_hash(l, at, func, ids, n) & (l->nslots - 1);
        struct mg_seq *found = NULL;
        for (; l->slots[j]; j = (j + 1) & (l->nslots - 1)) {
            struct mg_seq *q = &l->seqs[l->slots[j] - 1];
            if (q->tu == at && q->func == func && memcmp(l->ids + q->ids, ids, n * sizeof *ids) == 0) {
                found = q;
                break;
            }
        }
        if (!found) {
            /* Listed by no profile before: there it ran at most floor times. */
            if (grow(&l->seqs, &l->cap, l->n + 1, sizeof *l->seqs) != 0 ||
                grow(&l->ids, &l->idcap, l->nids + n, sizeof *l->ids) != 0) {
                rc = fail(err, "out of memory");
                break;
            }
            found = &l->seqs[l->n];
            *found = (struct mg_seq){at, func, floor_before, floor_before, l->nids, 0};
            memcpy(l->ids + l->nids, ids, n * sizeof *ids);
            l->nids += n;
            l->slots[j] = ++l->n;
        }
        found->seen = input + 1;
        if (add(&found->count, count, err, "pruned sequence bounds") ||
            add(&found->err, e, err, "pruned sequence bounds"))
            rc = -1;
    }
    free(ids);
    if (rc)
        return rc;
    /* Listed before but not here: in this profile it ran at most floor times. */
    for (size_t i = 0; i < l->n; i++)
        if (l->seqs[i].seen != input + 1 &&
            (add(&l->seqs[i].count, floor, err, "pruned sequence bounds") ||
             add(&l->seqs[i].err, floor, err, "pruned sequence bounds")))
            return -1;
    if (add(&l->floor, floor, err, "pruned floors") || add(&l->total, total, err, "occurrences"))
        return -1;
    return 0;
}

static int read_kprune(struct pprt_merge *m, struct cur *c, const size_t *tumap, size_t ntus,
                       size_t input, struct pprt_merge_error *err)
{
    struct mg_kprune *k = &m->kprune;
    uint32_t kk, flags;
    uint64_t budget, mm, threads, events, epochs, analyzers, peak;
    if (get_u32(c, &kk) || get_u32(c, &flags) || get_u64(c, &budget) || get_u64(c, &mm) ||
        get_u64(c, &threads) || get_u64(c, &events) || get_u64(c, &epochs) ||
        get_u64(c, &analyzers) || get_u64(c, &peak))
        return fail(err, "truncated in its fixed part");
    if (kk < 1 || kk > MAX_K || flags || (budget && !mm) || !analyzers)
        return fail(err, "k = %u, flags 0x%x, budget %llu, m %llu, %llu analyzers: not a "
                    "KPRUNE section this pathprof reads", kk, flags,
                    (unsigned long long)budget, (unsigned long long)mm,
                    (unsigned long long)analyzers);
    if (k->present && k->k != kk)
        return fail(err, "its pruned paths have k = %u, the profiles before k = %u: merge "
                    "runs with the same PATHPROF_K", kk, k->k);
    /* An unbounded run lists any number of sequences, a bounded merge may
     * list only m per analyzer thread: the two do not add up. */
    if (k->present && (k->budget == 0) != (budget == 0))
        return fail(err, "pruned and unpruned k-iteration paths (PATHPROF_PRUNE %llu and "
                    "%llu bytes) cannot be merged", (unsigned long long)k->budget,
                    (unsigned long long)budget);
    if (!k->present) {
        k->k = kk;
        if (!(k->len = calloc(kk, sizeof *k->len)))
            return fail(err, "out of memory");
        k->present = 1;
    }
    if (budget > k->budget)
        k->budget = budget;
    if (mm > k->m)
        k->m = mm;
    if (peak > k->peak)
        k->peak = peak;
    if (add(&k->threads, threads, err, "thread counts") || add(&k->events, events, err, "event counts") ||
        add(&k->epochs, epochs, err, "epoch counts") ||
        add(&k->analyzers, analyzers, err, "analyzer thread counts"))
        return -1;
    for (uint32_t n = 1; n <= kk; n++)
        if (read_plength(m, c, n, &k->len[n - 1], tumap, ntus, input, err) != 0)
            return -1;
    if (left(c))
        return fail(err, "%zu unexplained bytes after the last length", left(c));
    return 0;
}

/* ---- the envelope ---- */

struct pprt_merge *pprt_merge_new(void) { return calloc(1, sizeof(struct pprt_merge)); }

size_t pprt_merge_count(const struct pprt_merge *m) { return m->ninputs; }

static int check_envelope(const unsigned char *d, size_t len, uint32_t *nsections,
                          struct pprt_merge_error *err)
{
    if (len < 8 || memcmp(d, PATHPROF_FILE_MAGIC, 8) != 0)
        return fail(err, "not a pathprof profile (it does not start with \"%s\")",
                    PATHPROF_FILE_MAGIC);
    if (len < PATHPROF_FILE_HEADER_SIZE + 8)
        return fail(err, "truncated: %zu bytes", len);
    if (pprt_get_u32(d + 8) != PATHPROF_FILE_VERSION)
        return fail(err, "profile format version %u, this pathprof reads version %u",
                    pprt_get_u32(d + 8), PATHPROF_FILE_VERSION);
    if (pprt_get_u32(d + 12) != PATHPROF_FILE_HEADER_SIZE)
        return fail(err, "header size %u, expected %u", pprt_get_u32(d + 12),
                    PATHPROF_FILE_HEADER_SIZE);
    uint64_t payload = pprt_get_u64(d + 48);
    if (payload != len - PATHPROF_FILE_HEADER_SIZE - 8)
        return fail(err, "the header announces %llu payload bytes, the file holds %zu",
                    (unsigned long long)payload, len - PATHPROF_FILE_HEADER_SIZE - 8);
    uint64_t stored = pprt_get_u64(d + len - 8);
    uint64_t computed = pprt_fnv1a64(PPRT_FNV64_BASIS, d, len - 8);
    if (stored != computed)
        return fail(err, "checksum mismatch (stored %016llx, computed %016llx): the file is "
                    "damaged", (unsigned long long)stored, (unsigned long long)computed);
    uint32_t mode = pprt_get_u32(d + 16);
    if (mode != PATHPROF_MODE_COUNT && mode != PATHPROF_MODE_STREAM)
        return fail(err, "profile mode %u is not known", mode);
    *nsections = pprt_get_u32(d + 40);
    return 0;
}

int pprt_merge_add(struct pprt_merge *m, const unsigned char *d, size_t len, const char *name,
                   struct pprt_merge_error *err)
{
    uint32_t nsections = 0;
    if (check_envelope(d, len, &nsections, err) != 0)
        return -1;
    uint32_t mode = pprt_get_u32(d + 16);
    if (m->ninputs && mode != m->mode)
        return fail(err, "a %s-mode profile cannot be merged with %s-mode ones: they come "
                    "from different builds", mode == PATHPROF_MODE_STREAM ? "stream" : "count",
                    m->mode == PATHPROF_MODE_STREAM ? "stream" : "count");
    char **names = realloc(m->names, (m->ninputs + 1) * sizeof *names);
    if (!names)
        return fail(err, "out of memory");
    m->names = names;
    if (!(names[m->ninputs] = strdup(name)))
        return fail(err, "out of memory");
    size_t input = m->ninputs++;
    uint64_t pid = pprt_get_u64(d + 24), time = pprt_get_u64(d + 32);
    if (input == 0)
        m->pid = pid;
    else if (pid != m->pid)
        m->pid_mixed = 1;
    if (time > m->time)
        m->time = time;
    m->mode = mode;

    /* First pass: framing, PROGRAM, TU and STREAM (the k-iteration
     * sections name TUs by their rank among the TU sections, so they
     * wait for the second). */
    size_t *tumap = malloc(((size_t)nsections + 1) * sizeof *tumap), ntus = 0;
    if (!tumap)
        return fail(err, "out of memory");
    struct cur c = {d, len - 8, PATHPROF_FILE_HEADER_SIZE};
    size_t kipf_at = 0, kprune_at = 0;
    uint64_t kipf_len = 0, kprune_len = 0;
    int seen_program = 0, seen_stream = 0, rc = 0;
    for (uint32_t s = 0; s < nsections && rc == 0; s++) {
        uint32_t tag, reserved;
        uint64_t slen;
        if (get_u32(&c, &tag) || get_u32(&c, &reserved) || get_u64(&c, &slen) || slen > left(&c)) {
            rc = fail(err, "section %u of %u runs past the payload", s, nsections);
            break;
        }
        struct cur sc = {c.p, c.pos + slen, c.pos};
        size_t at = c.pos;
        c.pos += slen;
        int *once = tag == PATHPROF_SECTION_PROGRAM ? &seen_program
                  : tag == PATHPROF_SECTION_STREAM ? &seen_stream : NULL;
        if (once && (*once)++) {
            rc = fail(err, "two sections of tag %u: which one holds the run is unknown", tag);
            break;
        }
        switch (tag) {
        case PATHPROF_SECTION_PROGRAM:
            rc = read_program(m, &sc, err);
            break;
        case PATHPROF_SECTION_TU:
            rc = read_tu(m, &sc, input, &tumap[ntus], err);
            ntus++;
            break;
        case PATHPROF_SECTION_STREAM:
            rc = read_stream(m, &sc, err);
            break;
        case TAG_KIPF:
        case TAG_KPRUNE:
            if ((tag == TAG_KIPF ? kipf_at : kprune_at) != 0) {
                rc = fail(err, "two %s sections: which one holds the run is unknown",
                          tag == TAG_KIPF ? "KIPF" : "KPRUNE");
                break;
            }
            *(tag == TAG_KIPF ? &kipf_at : &kprune_at) = at;
            *(tag == TAG_KIPF ? &kipf_len : &kprune_len) = slen;
            break;
        default:
            rc = fail(err, "section %u has tag %u, which this pathprof cannot merge "
                      "(a newer pathprof wrote it?)", s, tag);
        }
        if (rc)
            snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                     " (section %u, tag %u)", s, tag);
    }
    if (rc == 0 && left(&c))
        rc = fail(err, "%zu payload bytes after the last of the %u sections", left(&c),
                  nsections);
    if (rc == 0 && kipf_at) {
        struct cur sc = {d, kipf_at + kipf_len, kipf_at};
        rc = read_kipf(m, &sc, tumap, ntus, err);
        if (rc)
            snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                     " (KIPF section)");
    }
    if (rc == 0 && kprune_at) {
        struct cur sc = {d, kprune_at + kprune_len, kprune_at};
        rc = read_kprune(m, &sc, tumap, ntus, input, err);
        if (rc)
            snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg),
                     " (KPRUNE section)");
    }
    free(tumap);
    return rc;
}

void pprt_merge_free(struct pprt_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->ntus; i++) {
        struct mg_tu *t = &m->tus[i];
        for (uint32_t j = 0; t->funcs && j < t->nfuncs; j++) {
            free(t->funcs[j].rec);
            free(t->funcs[j].verify);
        }
        free(t->funcs);
        free(t->blob);
    }
    free(m->tus);
    free(m->tu_slots);
    free(m->fn_slots);
    free(m->program.program);
    free(m->program.cmdline);
    for (size_t i = 0; i < m->stream.nnames; i++)
        free(m->stream.names[i]);
    free(m->stream.names);
    free(m->stream.threads);
    free(m->kipf.levels);
    free(m->kipf.nodes);
    free(m->kipf.slots);
    for (uint32_t n = 0; m->kprune.len && n < m->kprune.k; n++) {
        free(m->kprune.len[n].seqs);
        free(m->kprune.len[n].ids);
        free(m->kprune.len[n].slots);
    }
    free(m->kprune.len);
    for (size_t i = 0; i < m->ninputs; i++)
        free(m->names[i]);
    free(m->names);
    free(m);
}
