/* synthetic-tu.h - hand-made translation units for testing libpathprof
 * without the plugin: a metadata blob built as docs/format.md section 2
 * says, and a counter array, registered as the plugin's code would. */
#ifndef SYNTHETIC_TU_H
#define SYNTHETIC_TU_H

#include <stddef.h>
#include <stdint.h>

struct syn_fn {
    const char *name, *file;
    uint32_t flags, line;
    uint64_t npaths, counter_offset, verify_offset;
    uint32_t nverify;
};

/* Writes the blob into BUF (SIZE bytes); returns its length, 0 if too small. */
size_t syn_build_blob(unsigned char *buf, size_t size, const struct syn_fn *fns,
                      uint32_t nfuncs, uint64_t ncounters);

/* The standard test TU: five functions covering array, hash, VERIFY and an
 * untouched function.  Counter layout: */
#define SYN_ALPHA 0   /* array, 6 paths: counters [0, 6) */
#define SYN_BETA 6    /* hash slot */
#define SYN_GAMMA 7   /* array, 3 paths, VERIFY: [7, 10), verify [10, 14) */
#define SYN_GAMMA_V 10
#define SYN_DELTA 14  /* hash + VERIFY: slot 14, verify [15, 17) */
#define SYN_DELTA_V 15
#define SYN_EPSILON 17 /* array, 4 paths never taken: [17, 21) */
#define SYN_NCOUNTERS 21

/* Builds the standard TU's blob, naming its file FILE. */
size_t syn_standard_blob(unsigned char *buf, size_t size, const char *file);

#endif
