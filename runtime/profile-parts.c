/* profile-parts.c - splitting a profile file into its parts
 * (profile-parts.h). */
#include "profile-parts.h"
#include "le-bytes.h"
#include "pathprof-abi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The bytes at P (LEFT of them) start a part of *SIZE bytes: 1; they start
 * like one but end before it does: 0 (*SIZE is then LEFT); not a part:
 * -1. */
static int part_at(const unsigned char *p, size_t left, size_t *size)
{
    const size_t magic = sizeof PATHPROF_FILE_MAGIC - 1;
    *size = left;
    if (memcmp(p, PATHPROF_FILE_MAGIC, left < magic ? left : magic) != 0)
        return -1;
    if (left < PATHPROF_FILE_HEADER_SIZE)
        return 0;
    if (pprt_get_u32(p + 12) != PATHPROF_FILE_HEADER_SIZE)
        return -1;
    uint64_t payload = pprt_get_u64(p + 48);
    if (payload > left || left - payload < PATHPROF_FILE_HEADER_SIZE + 8)
        return 0;
    *size = (size_t)payload + PATHPROF_FILE_HEADER_SIZE + 8;
    return 1;
}

int pprt_profile_parts(const unsigned char *data, size_t len, struct pprt_parts *parts,
                       size_t **offsets)
{
    size_t cap = 0, *at = NULL;
    parts->n = parts->whole = 0;
    parts->torn = 0;
    if (offsets)
        *offsets = NULL;
    for (size_t o = 0; o < len;) {
        size_t size;
        int r = part_at(data + o, len - o, &size);
        if (r <= 0) {
            parts->torn = r == 0;
            break;
        }
        if (offsets && parts->n + 2 > cap) {
            cap = cap ? 2 * cap : 8;
            size_t *grown = realloc(at, cap * sizeof *at);
            if (!grown) {
                free(at);
                return -1;
            }
            at = grown;
        }
        if (offsets)
            at[parts->n] = o;
        parts->n++;
        o += size;
        parts->whole = o;
    }
    if (offsets) {
        if (!at && !(at = malloc(sizeof *at)))
            return -1;
        at[parts->n] = parts->whole;
        *offsets = at;
    }
    return 0;
}
