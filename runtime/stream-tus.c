/* stream-tus.c - the stream TU table (see stream-tus.h) and the lookups
 * analyzers make in it (analyzer.h, analyzer-services.h). */
#include "stream-tus.h"
#include "analyzer-services.h"
#include "analyzer-host.h"
#include "message.h"
#include "pathprof-abi.h"
#include "rcu.h"

#include <stdlib.h>
#include <string.h>

struct tu_table {
    uint64_t count; /* atomic: entries [0, count) are complete */
    uint64_t cap;
    struct pprt_stream_tu *tu[];
};

char pprt_rcu_gp_token;

static struct tu_table *table; /* RCU-published */
static uint64_t next_path_base = 1, next_fn_base = 1;

/* The table's count, kept apart: application threads ask for it (vfork,
 * the profile's writer), and they hold no RCU read lock, so they may not
 * read a table that a registration is replacing. */
uint64_t pprt_stream_tus_registered; /* read by pprt_stream_tus_total (stream-tus.h) */

static int append(struct pprt_stream_tu *tu)
{
    struct tu_table *t = table;
    uint64_t n = t ? t->count : 0;
    if (t == NULL || n == t->cap) {
        uint64_t cap = t ? 2 * t->cap : 16;
        struct tu_table *bigger = malloc(sizeof *bigger + cap * sizeof bigger->tu[0]);
        if (bigger == NULL)
            return -1;
        bigger->cap = cap;
        bigger->count = n;
        if (n)
            memcpy(bigger->tu, t->tu, n * sizeof t->tu[0]);
        PPRT_RCU_PUBLISH(table, bigger);
        if (t) {
            /* Readers that loaded the old table may still be searching it. */
            pprt_rcu_synchronize();
            free(t);
        }
        t = bigger;
    }
    t->tu[n] = tu;
    __atomic_store_n(&t->count, n + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&pprt_stream_tus_registered, n + 1, __ATOMIC_RELEASE);
    return 0;
}

int pprt_stream_tus_add(const unsigned char *meta, uint64_t meta_len,
                        uint64_t *bases, struct pprt_meta_range *ranges)
{
    char name[600];
    uint64_t npaths = pprt_meta_ncounters(meta);
    uint32_t nfuncs = pprt_meta_nfuncs(meta);
    struct pprt_stream_tu *tu = calloc(1, sizeof *tu);
    if (tu == NULL ||
        npaths >= PATHPROF_STREAM_UNREGISTERED_BASE - next_path_base ||
        nfuncs >= PATHPROF_STREAM_UNREGISTERED_BASE - next_fn_base) {
        free(tu);
        free(ranges);
        pprt_meta_tu_name(meta, meta_len, name, sizeof name);
        pprt_error("cannot register stream translation unit %s: %s; its paths "
                   "will not be in the profile", name,
                   tu ? "the process ran out of path indices" : "out of memory");
        return -1;
    }
    tu->meta = meta;
    tu->meta_len = meta_len;
    tu->tu_base = next_path_base;
    tu->npaths = npaths;
    tu->fn_base = next_fn_base;
    tu->nfuncs = nfuncs;
    tu->tu_id = pprt_stream_tus_total();
    tu->section = tu->tu_id;
    tu->bases = bases;
    tu->ranges = ranges;
    tu->nderived = pprt_meta_stream_nderived(meta, meta_len);
    tu->derived = tu->nderived ? bases + PATHPROF_STREAM_DERIVED_BASE : NULL;
    if (append(tu) != 0) {
        free(tu);
        free(ranges);
        pprt_meta_tu_name(meta, meta_len, name, sizeof name);
        pprt_error("out of memory registering stream translation unit %s; its "
                   "paths will not be in the profile", name);
        return -1;
    }
    next_path_base += npaths;
    next_fn_base += nfuncs;
    /* Only now that the map knows the range: an event carrying these bases
     * must always find its TU. */
    __atomic_store_n(&bases[0], tu->tu_base, __ATOMIC_RELAXED);
    __atomic_store_n(&bases[1], tu->fn_base, __ATOMIC_RELAXED);
    return 0;
}

struct pprt_stream_tu *pprt_stream_tus_find(const uint64_t *bases)
{
    struct tu_table *t = table;
    for (uint64_t i = 0; t && i < t->count; i++)
        if (t->tu[i]->bases == bases)
            return t->tu[i];
    return NULL;
}

/* The counts of an unloaded TU's obvious paths, before the library's
 * memory goes: 0, or -1 out of memory. */
static int snapshot_derived(struct pprt_stream_tu *tu)
{
    if (tu->nderived == 0)
        return 0;
    uint64_t *copy = malloc(tu->nderived * sizeof *copy);
    if (copy == NULL)
        return -1;
    for (uint64_t k = 0; k < tu->nderived; k++)
        copy[k] = __atomic_load_n(&tu->derived[k], __ATOMIC_RELAXED);
    __atomic_store_n(&tu->derived, copy, __ATOMIC_RELEASE);
    return 0;
}

void pprt_stream_tus_zero_derived(void)
{
    struct tu_table *t = table;
    for (uint64_t i = 0; t && i < t->count; i++)
        for (uint64_t k = 0; t->tu[i]->derived && k < t->tu[i]->nderived; k++)
            __atomic_store_n((uint64_t *)&t->tu[i]->derived[k], 0, __ATOMIC_RELAXED);
}

int pprt_stream_tus_plain_derived(char *name, size_t size)
{
    struct tu_table *t = PPRT_RCU_DEREF(table);
    uint64_t n = t ? __atomic_load_n(&t->count, __ATOMIC_ACQUIRE) : 0;
    for (uint64_t i = 0; i < n; i++) {
        const struct pprt_stream_tu *tu = t->tu[i];
        const unsigned char *meta = PPRT_RCU_DEREF(tu->meta);
        if (tu->nderived == 0 || meta == NULL)
            continue;
        for (uint32_t f = 0; f < tu->nfuncs; f++) {
            struct pprt_meta_fn fn;
            pprt_meta_fn(meta, f, &fn);
            if ((fn.flags & PATHPROF_FN_TPP_DERIVED) && !(fn.flags & PATHPROF_FN_ATOMIC)) {
                pprt_meta_tu_name(meta, tu->meta_len, name, size);
                return 1;
            }
        }
    }
    return 0;
}

void pprt_stream_tus_unload(struct pprt_stream_tu *tu, int snapshot)
{
    tu->bases = NULL;
    if (!snapshot)
        return;
    /* The same library loaded again and unloaded again: share the first
     * unloaded instance's copy, and its profile section. */
    struct tu_table *t = table;
    const unsigned char *copy = NULL;
    for (uint64_t i = 0; i < t->count && copy == NULL; i++) {
        struct pprt_stream_tu *s = t->tu[i];
        if (s != tu && s->bases == NULL && s->section == s->tu_id && s->meta &&
            s->meta_len == tu->meta_len && memcmp(s->meta, tu->meta, tu->meta_len) == 0) {
            copy = s->meta;
            tu->section = s->tu_id;
        }
    }
    unsigned char *m = NULL;
    if (copy == NULL && (m = malloc(tu->meta_len)) != NULL) {
        memcpy(m, tu->meta, tu->meta_len);
        copy = m;
    }
    if (copy == NULL || snapshot_derived(tu) != 0) {
        free(m);
        char name[600];
        pprt_meta_tu_name(tu->meta, tu->meta_len, name, sizeof name);
        /* Without a copy the analyzers would read freed memory: drop
         * the TU from lookups instead (its later events are unknown). */
        pprt_error("out of memory saving stream translation unit %s as it is "
                   "unloaded; its paths will not be in the profile", name);
        __atomic_store_n(&tu->npaths, 0, __ATOMIC_RELEASE);
        __atomic_store_n(&tu->derived, NULL, __ATOMIC_RELEASE);
        pprt_rcu_synchronize();
        PPRT_RCU_PUBLISH(tu->meta, NULL);
        tu->meta_len = 0;
        return;
    }
    PPRT_RCU_PUBLISH(tu->meta, copy);
    /* After this no reader holds the library's blob (analyzers keep
     * pp_path_ref.meta only within one consume call, inside their
     * read-side section). */
    pprt_rcu_synchronize();
}

static struct pprt_stream_tu *find_tu(const struct tu_table *t, uint64_t n,
                                      uint64_t index)
{
    uint64_t lo = 0, hi = n; /* the TU is in [lo, hi) */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (t->tu[mid]->tu_base <= index)
            lo = mid;
        else
            hi = mid;
    }
    struct pprt_stream_tu *tu = n ? t->tu[lo] : NULL;
    if (tu == NULL || index < tu->tu_base ||
        index - tu->tu_base >= __atomic_load_n(&tu->npaths, __ATOMIC_ACQUIRE))
        return NULL;
    return tu;
}

static const struct pprt_meta_range *find_fn(const struct pprt_stream_tu *tu,
                                             uint64_t local)
{
    uint32_t lo = 0, hi = tu->nfuncs;
    if (hi == 0)
        return NULL;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tu->ranges[mid].offset <= local)
            lo = mid;
        else
            hi = mid;
    }
    const struct pprt_meta_range *r = &tu->ranges[lo];
    return local >= r->offset && local - r->offset < r->npaths ? r : NULL;
}

int pp_lookup_path(uint64_t index, struct pp_path_ref *out)
{
    int found = 0;
    pprt_rcu_read_lock(); /* nests inside the analyzer's own section */
    struct tu_table *t = PPRT_RCU_DEREF(table);
    struct pprt_stream_tu *tu =
        t ? find_tu(t, __atomic_load_n(&t->count, __ATOMIC_ACQUIRE), index) : NULL;
    const struct pprt_meta_range *r = tu ? find_fn(tu, index - tu->tu_base) : NULL;
    if (r) {
        out->meta = PPRT_RCU_DEREF(tu->meta);
        out->meta_len = tu->meta_len;
        out->tu_base = tu->tu_base;
        out->tu_id = tu->tu_id;
        out->func = r->func;
        /* A PPP function's index is its PPP number or N + its ID. */
        struct pprt_meta_fn fn;
        pprt_meta_fn(out->meta, r->func, &fn);
        const unsigned char *table =
            (fn.flags & PATHPROF_FN_PPP)
                ? pprt_meta_ppp_table(out->meta, out->meta_len, r->func)
                : NULL;
        out->path_id = pprt_meta_stream_path_id(&fn, table, index - tu->tu_base - r->offset);
        found = out->path_id != PATHPROF_PPP_HOLE;
    }
    pprt_rcu_read_unlock();
    return found;
}

uint64_t pp_tu_count(void)
{
    return pprt_stream_tus_total();
}

int pp_tu_get(uint64_t tu_id, struct pp_tu_info *out)
{
    struct tu_table *t = PPRT_RCU_DEREF(table);
    if (t == NULL || tu_id >= __atomic_load_n(&t->count, __ATOMIC_ACQUIRE))
        return 0;
    const struct pprt_stream_tu *tu = t->tu[tu_id];
    out->meta = PPRT_RCU_DEREF(tu->meta);
    out->meta_len = tu->meta_len;
    out->tu_base = tu->tu_base;
    out->npaths = __atomic_load_n(&tu->npaths, __ATOMIC_ACQUIRE);
    out->fn_base = tu->fn_base;
    out->section = tu->section;
    out->derived = __atomic_load_n(&tu->derived, __ATOMIC_ACQUIRE);
    out->nderived = out->derived ? tu->nderived : 0;
    return 1;
}
