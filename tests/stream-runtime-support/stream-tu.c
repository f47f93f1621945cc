/* stream-tu.c - the synthetic stream TU (see stream-tu.h). */
#include "stream-tu.h"
#include "synthetic-tu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void st_register(struct st_tu *tu, uint32_t flags_xor)
{
    struct syn_fn fns[ST_MAX_FUNCS];
    uint64_t off = 0;
    for (uint32_t i = 0; i < tu->nfuncs; i++) {
        tu->offset[i] = off;
        fns[i] = (struct syn_fn){tu->name[i], tu->file, PATHPROF_FN_STREAM ^ flags_xor,
                                 10 * (i + 1), tu->npaths[i], off, 0, 0};
        off += tu->npaths[i];
    }
    tu->total = off;
    tu->blob_len = syn_build_blob(tu->blob, sizeof tu->blob, fns, tu->nfuncs, off);
    __pathprof_register_stream_tu(PATHPROF_ABI_VERSION, tu->blob, tu->blob_len,
                                  tu->bases);
}

void st_unregister(struct st_tu *tu)
{
    __pathprof_unregister_stream_tu(tu->bases);
}

void st_expect_init(struct st_expect *e, const struct st_tu *tu)
{
    e->tu = tu;
    e->counts = calloc(tu->total ? tu->total : 1, sizeof *e->counts);
    e->events = e->words = 0;
    if (e->counts == NULL)
        abort();
}

void st_expect_add(struct st_expect *into, const struct st_expect *from)
{
    for (uint64_t i = 0; i < into->tu->total; i++)
        into->counts[i] += from->counts[i];
    into->events += from->events;
    into->words += from->words;
}

void st_expect_free(struct st_expect *e)
{
    free(e->counts);
    e->counts = NULL;
}

void st_expect_write(const struct st_expect *e, const char *path)
{
    FILE *f = fopen(path, "a");
    if (f == NULL) {
        perror(path);
        exit(70);
    }
    const struct st_tu *tu = e->tu;
    fprintf(f, "tu %s\n", tu->file);
    for (uint32_t i = 0; i < tu->nfuncs; i++)
        for (uint64_t id = 0; id < tu->npaths[i]; id++)
            if (e->counts[tu->offset[i] + id])
                fprintf(f, "%s %llu %llu\n", tu->name[i], (unsigned long long)id,
                        (unsigned long long)e->counts[tu->offset[i] + id]);
    fprintf(f, "events %llu\nwords %llu\n", (unsigned long long)e->events,
            (unsigned long long)e->words);
    fclose(f);
}

void st_emit_paths(const struct st_tu *tu, struct st_expect *e, uint64_t seed,
                   uint64_t n)
{
    const char *m = getenv("ST_MARKERS");
    int markers = m == NULL || strcmp(m, "0") != 0;
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t r = st_rand(&s);
        uint32_t f = (uint32_t)(r % tu->nfuncs);
        uint64_t id = (r >> 8) % tu->npaths[f];
        if (markers && (r >> 40) % 37 == 0) {
            /* A marker pair: its payload word is any non-zero value, here
             * one that would look like a valid path event if blpp read it
             * as one. */
            st_emit(PATHPROF_MARK(PATHPROF_MARK_ENTER, tu->bases[1] + f));
            st_emit(tu->bases[0] + tu->offset[f]);
            e->words += 2;
        }
        uint64_t flags = (r >> 50) & 3; /* START and RET, any combination */
        st_emit((tu->bases[0] + tu->offset[f] + id) | flags << 61);
        e->counts[tu->offset[f] + id]++;
        e->events++;
        e->words++;
    }
}
