/* site.h - what `pathprof html` shows, gathered from one or more
 * profiles: each function once, its path counts summed over the profiles
 * that have it (same name, file, checksum and number of paths; a
 * different build of a function stays a function of its own), with the
 * flow through each edge and block of its numbered graph, and per source
 * file, the count of each line. */
#ifndef PATHPROF_CLI_SITE_H
#define PATHPROF_CLI_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/profile.h"

/* One profile's copy of a site function. */
struct site_member {
    size_t prof;              /* index into site->profs */
    size_t func;              /* index into that profile's funcs */
};

struct site_func {
    const struct pp_func_meta *meta;   /* the first profile's */
    uint64_t total;
    uint64_t nrecords;
    struct pp_path_count *records;     /* summed, ascending ID */
    size_t nmembers;
    struct site_member *members;
    uint64_t *edge_flow;               /* per DAG edge: runs of the paths through it */
    uint64_t *node_flow;               /* per node */
};

/* A source file's lines (1-based; line 0 unused). */
struct site_file {
    const char *name;
    uint64_t flow;            /* path counts of the functions that start in it */
    uint32_t nlines;          /* highest line any block names */
    uint64_t *count;          /* per line: the most runs of a block that holds it */
    uint8_t *state;           /* per line: enum site_line */
};

enum site_line {
    SITE_NONE,                /* no block names it */
    SITE_MISS,                /* every block that holds it never ran */
    SITE_HIT,                 /* ran, and every way out of its decisions was taken */
    SITE_PARTIAL,             /* ran, a way out of a decision on it never taken */
};

struct site {
    size_t nprofs;
    struct pp_profile *profs;
    const char *const *names; /* the profiles' file names */
    uint64_t total;
    size_t nfuncs;
    struct site_func *funcs;  /* profile order, first profile first */
    size_t nfiles;
    struct site_file *files;  /* by descending flow, then name */
};

/* Gathers NPROFS loaded profiles (whose BL counts are sound). */
bool site_build(struct site *s, struct pp_profile *profs, const char *const *names,
                size_t nprofs, struct pp_error *err);
void site_free(struct site *s);

/* The file entry named NAME, or NULL. */
const struct site_file *site_find_file(const struct site *s, const char *name);

#endif
