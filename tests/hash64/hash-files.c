/* hash-files.c FILE... - prints "LENGTH HASH" (hex) of each file under
 * pprt_hash64 (runtime/hash64.h), for tests/hash64.t to compare with the
 * Perl implementation written from docs/format.md; with --flips, also
 * checks that changing any one byte of each file (every bit of it, one at
 * a time) changes the hash, and prints how many changes it tried; with
 * --pieces, hashes each file through pprt_hash64_add in pieces of 1, 2,
 * ..., 40 bytes in turn (every offset against the 32-byte blocks) and
 * prints what pprt_hash64_end gives, which must be the same. */
#include "hash64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    if (!f) {
        perror(name);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *d = malloc(cap);
    size_t r;
    while (d && (r = fread(d + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            d = realloc(d, cap *= 2);
    }
    fclose(f);
    if (!d) {
        fprintf(stderr, "%s: out of memory\n", name);
        exit(2);
    }
    *len = n;
    return d;
}

int main(int argc, char **argv)
{
    int flips = argc > 1 && strcmp(argv[1], "--flips") == 0;
    int pieces = argc > 1 && strcmp(argv[1], "--pieces") == 0;
    for (int i = 1 + flips + pieces; i < argc; i++) {
        size_t len;
        unsigned char *d = slurp(argv[i], &len);
        uint64_t h = pprt_hash64(d, len);
        if (pieces) {
            struct pprt_hash64_state s;
            pprt_hash64_begin(&s);
            for (size_t at = 0, n = 1; at < len; at += n, n = n % 40 + 1)
                pprt_hash64_add(&s, d + at, n < len - at ? n : len - at);
            h = pprt_hash64_end(&s);
        }
        printf("%zu %016llx\n", len, (unsigned long long)h);
        if (flips) {
            unsigned long tried = 0, same = 0;
            for (size_t b = 0; b < len; b++)
                for (int bit = 0; bit < 8; bit++) {
                    d[b] ^= (unsigned char)(1u << bit);
                    same += pprt_hash64(d, len) == h;
                    d[b] ^= (unsigned char)(1u << bit);
                    tried++;
                }
            printf("flips %lu same %lu\n", tried, same);
        }
        free(d);
    }
    return 0;
}
