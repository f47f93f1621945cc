/* fake-runtime.c - the little of the runtime the trace analyzer asks for,
 * so that its writer can be tested without the plugin or the stream: two
 * TUs whose blobs tests/trace/mktrace.pl wrote (the bases it uses), and
 * the PATHPROF_TRACE pattern from the environment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer-services.h"
#include "trace/sink.h"
#include "writer.h"

static unsigned char *blob[2];
static uint64_t blob_len[2];
static const uint64_t tu_base[2] = {1, 100}, fn_base[2] = {0, 10};

static unsigned char *slurp(const char *path, uint64_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(data = malloc((size_t)n + 1)) || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "writer: cannot read %s\n", path);
        exit(99);
    }
    fclose(f);
    *len = (uint64_t)n;
    return data;
}

void fake_runtime_load(const char *dir)
{
    char path[4096];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/tu%d.blob", dir, i);
        blob[i] = slurp(path, &blob_len[i]);
    }
}

const char *pp_trace_pattern(void)
{
    return getenv("TRACE_PATTERN");
}

uint64_t pp_tu_count(void)
{
    return 2;
}

int pp_tu_get(uint64_t tu_id, struct pp_tu_info *out)
{
    if (tu_id >= 2)
        return 0;
    memset(out, 0, sizeof *out); /* fields the trace does not read */
    out->meta = blob[tu_id];
    out->meta_len = blob_len[tu_id];
    out->tu_base = tu_base[tu_id];
    out->fn_base = fn_base[tu_id];
    return 1;
}

/* PATHPROF_SYNC as the runtime reads it (0 unless "1"). */
int pp_sync_files(void)
{
    const char *v = getenv("PATHPROF_SYNC");
    return v != NULL && strcmp(v, "1") == 0;
}
