/* interesting_write.h - the interesting-paths file (docs/format.md,
 * "Interesting paths"): one line per path, function, file, CFG checksum
 * and Ball-Larus path ID, which `pathprof select` writes and the plugin's
 * ppp=FILE reads. */
#ifndef PATHPROF_CLI_INTERESTING_WRITE_H
#define PATHPROF_CLI_INTERESTING_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "query/rank.h"
#include "read/profile.h"

/* What the file's comment says it was selected from. */
struct interesting_source {
    const char *profile;   /* the profile's file name */
    double cover;
    uint64_t covered;      /* path executions the selected paths stand for */
};

/* Writes PATHS (sorted by function, then ID) of P. Names and files that
 * hold a blank, '#', '"' or a control byte are written quoted (version 2
 * of the format), so every name round-trips. Functions whose name and
 * file another function of P shares (C++ overloads) get their declaration
 * line as a LINE field (version 3). False (ERR set) only when out of
 * memory. */
bool interesting_write(FILE *out, const struct pp_profile *p, const struct ranked_path *paths,
                       size_t n, const struct interesting_source *src, struct pp_error *err);

#endif
