/* registry.c - the TU list, snapshots of TUs that go away, and the
 * once-only hand-over of the list to the profile writer. */
#include "registry.h"
#include "hash-table.h"
#include "message.h"
#include "meta.h"
#include "pathprof-abi.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct pprt_tu *head;
static int written; /* the profile was written: no more snapshots */

void pprt_registry_lock(void) { pthread_mutex_lock(&lock); }
void pprt_registry_unlock(void) { pthread_mutex_unlock(&lock); }

void pprt_registry_add(const unsigned char *meta, uint64_t meta_len,
                       uint64_t *counters, uint64_t ncounters)
{
    struct pprt_tu *tu = calloc(1, sizeof *tu);
    if (tu == NULL) {
        char name[600];
        pprt_meta_tu_name(meta, meta_len, name, sizeof name);
        pprt_error("out of memory registering translation unit %s; its paths "
                   "will not be in the profile", name);
        return;
    }
    tu->meta = meta;
    tu->meta_len = meta_len;
    tu->counters = counters;
    tu->ncounters = ncounters;

    pthread_mutex_lock(&lock);
    struct pprt_tu **p = &head;
    for (; *p; p = &(*p)->next) {
        if (!(*p)->snapshot && (*p)->counters == counters) {
            /* A constructor run twice: counting it twice would double
             * every count of the TU. */
            pthread_mutex_unlock(&lock);
            free(tu);
            pprt_warning("translation unit registered twice (counters at %p); "
                         "the second registration is ignored", (void *)counters);
            return;
        }
    }
    *p = tu;
    pthread_mutex_unlock(&lock);
}

/* Adds the counts of SRC into DEST, two snapshots of identical blobs. */
static void merge_counts(struct pprt_tu *dest, const struct pprt_tu *src)
{
    uint32_t nfuncs = pprt_meta_nfuncs(dest->meta);
    for (uint32_t i = 0; i < nfuncs; i++) {
        struct pprt_meta_fn fn;
        pprt_meta_fn(dest->meta, i, &fn);
        if (fn.flags & PATHPROF_FN_PPP) {
            /* N counters by PPP number, then the others' hash slot. */
            for (uint64_t c = fn.counter_offset; c < fn.counter_offset + fn.ppp_size; c++)
                dest->counters[c] += src->counters[c];
            if (fn.ppp_total) /* the others' total, a plain counter */
                dest->counters[fn.counter_offset + fn.ppp_size] +=
                    src->counters[fn.counter_offset + fn.ppp_size];
            else
                pprt_hash_merge_slot(&dest->counters[fn.counter_offset + fn.ppp_size],
                                     src->counters[fn.counter_offset + fn.ppp_size]);
        } else if (fn.flags & PATHPROF_FN_HASH)
            pprt_hash_merge_slot(&dest->counters[fn.counter_offset],
                                 src->counters[fn.counter_offset]);
        else
            for (uint64_t c = fn.counter_offset; c < fn.counter_offset + fn.npaths; c++)
                dest->counters[c] += src->counters[c];
        if (fn.flags & PATHPROF_FN_VERIFY)
            for (uint64_t c = fn.verify_offset; c < fn.verify_offset + fn.nverify; c++)
                dest->counters[c] += src->counters[c];
    }
}

/* Turns a LIVE entry into a SNAPSHOT.  The hash slots are copied as they
 * are: they point to runtime-owned roots, which the snapshot adopts. */
static int take_snapshot(struct pprt_tu *tu)
{
    unsigned char *meta = malloc(tu->meta_len);
    uint64_t *counters = malloc((tu->ncounters ? tu->ncounters : 1) * sizeof *counters);
    if (meta == NULL || counters == NULL) {
        free(meta);
        free(counters);
        return -1;
    }
    memcpy(meta, tu->meta, tu->meta_len);
    /* Atomic loads: another thread may still bump these counters. */
    for (uint64_t i = 0; i < tu->ncounters; i++)
        counters[i] = __atomic_load_n(&tu->counters[i], __ATOMIC_ACQUIRE);
    tu->meta = meta;
    tu->counters = counters;
    tu->snapshot = 1;
    return 0;
}

static void free_tu(struct pprt_tu *tu)
{
    if (tu->snapshot) {
        free((void *)tu->meta);
        free(tu->counters);
    }
    free(tu);
}

void pprt_registry_remove(uint64_t *counters)
{
    pthread_mutex_lock(&lock);
    struct pprt_tu **p = &head;
    while (*p && ((*p)->snapshot || (*p)->counters != counters))
        p = &(*p)->next;
    struct pprt_tu *tu = *p;
    if (tu == NULL) {
        /* Never registered (refused at registration) or already removed. */
        pthread_mutex_unlock(&lock);
        return;
    }
    if (written) {
        *p = tu->next;
        free_tu(tu);
        pthread_mutex_unlock(&lock);
        return;
    }
    if (take_snapshot(tu) != 0) {
        char name[600];
        pprt_meta_tu_name(tu->meta, tu->meta_len, name, sizeof name);
        *p = tu->next;
        free_tu(tu);
        pthread_mutex_unlock(&lock);
        pprt_error("out of memory saving the counts of translation unit %s as "
                   "it is unloaded; they will not be in the profile", name);
        return;
    }
    /* The same library loaded and unloaded again: one section, summed,
     * rather than one per cycle. */
    for (struct pprt_tu *s = head; s; s = s->next) {
        if (s != tu && s->snapshot && s->meta_len == tu->meta_len &&
            s->ncounters == tu->ncounters &&
            memcmp(s->meta, tu->meta, tu->meta_len) == 0) {
            merge_counts(s, tu);
            *p = tu->next;
            free_tu(tu);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

int pprt_registry_empty(void)
{
    pthread_mutex_lock(&lock);
    int empty = head == NULL;
    pthread_mutex_unlock(&lock);
    return empty;
}

int pprt_registry_finish(void (*emit)(const struct pprt_tu *list, void *arg),
                         void *arg)
{
    pthread_mutex_lock(&lock);
    int first = !written;
    if (!first) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    written = 1;
    emit(head, arg);
    return 1;
}

void pprt_registry_zero_counts_in_child(void)
{
    /* The child has one thread, so plain stores are enough.  Hash tables
     * are kept (a root is never freed while the process lives) and their
     * counts set to 0. */
    for (struct pprt_tu *tu = head; tu; tu = tu->next) {
        uint32_t nfuncs = pprt_meta_nfuncs(tu->meta);
        for (uint32_t i = 0; i < nfuncs; i++) {
            struct pprt_meta_fn fn;
            pprt_meta_fn(tu->meta, i, &fn);
            uint64_t *c = tu->counters;
            if (fn.flags & PATHPROF_FN_PPP) {
                memset(c + fn.counter_offset, 0, fn.ppp_size * sizeof *c);
                pprt_hash_zero_slot(c[fn.counter_offset + fn.ppp_size]);
            } else if (fn.flags & PATHPROF_FN_HASH) {
                pprt_hash_zero_slot(c[fn.counter_offset]);
            } else {
                memset(c + fn.counter_offset, 0, fn.npaths * sizeof *c);
            }
            if (fn.flags & PATHPROF_FN_VERIFY)
                memset(c + fn.verify_offset, 0, fn.nverify * sizeof *c);
        }
    }
}
