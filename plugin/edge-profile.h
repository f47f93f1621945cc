/* edge-profile.h - a pathprof profile as TPP's edge profile
 * (edge-profile=FILE, docs/tpp.md): the CLI's own reader checks the file
 * (cli/read/profile_read.c), and every CFG edge's count is the sum of the
 * counts of the recorded paths that take it (cli/query/flow.c).  Written
 * in C, so that the plugin's C++ never sees the CLI's types, whose names
 * (pp_edge, pp_node) are the plugin's too. */
#ifndef PATHPROF_EDGE_PROFILE_H
#define PATHPROF_EDGE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One CFG edge of a profiled function, by GCC's bb->index (0 ENTRY, 1
   EXIT), and the number of times it ran.  */
struct pp_ep_edge {
  int32_t src_bb, dst_bb;
  uint64_t count;
};

/* One block, by bb->index, and the number of times it ran.  */
struct pp_ep_block {
  int32_t bb;
  uint64_t count;
};

struct pp_ep_func {
  const char *name;
  const char *file;            /* "" when the profile has none */
  uint64_t checksum;           /* of its Ball-Larus DAG (plugin/metadata.cc) */
  /* NULL when the path counts are every path's, exactly; else why not
     (tpp, ppp or sampling build): such a function cannot be the source.  */
  const char *inexact;
  size_t nedges, nblocks;
  struct pp_ep_edge *edges;    /* ascending (src_bb, dst_bb) */
  struct pp_ep_block *blocks;  /* ascending bb */
};

/* Reads PATH (once per compilation).  Returns NULL, or a message (static
   storage) saying what is wrong with the file, without its name.  */
const char *pp_ep_load (const char *path);

/* The function NAME of FILE: the one with that name, file and CHECKSUM
   (a header's function has one entry per distinct copy), else the first
   with that name and file (the caller reports the changed checksum), else
   the only one with that name and CHECKSUM (the file name as given to gcc
   may differ between the two builds), else NULL.  */
const struct pp_ep_func *pp_ep_find (const char *name, const char *file,
                                     uint64_t checksum);

/* The number of functions read, for messages.  */
size_t pp_ep_nfuncs (void);

#ifdef __cplusplus
}
#endif

#endif
