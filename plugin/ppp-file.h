/* ppp-file.h - the interesting-paths file of ppp=FILE (docs/format.md,
 * "Interesting paths"), as `pathprof select` writes it: per line a
 * function, its file, its CFG checksum and one Ball-Larus path ID. */
#ifndef PATHPROF_PPP_FILE_H
#define PATHPROF_PPP_FILE_H

#include <stdint.h>
#include <string>
#include <vector>

struct pp_ppp_entry {
  std::string name, file;     /* file "-" when unknown */
  unsigned decl_line;         /* the function's declaration line; 0 when
                                 not given (any function NAME in FILE) */
  uint64_t checksum;
  unsigned line;              /* of its first path in the file */
  std::vector<uint64_t> ids;
};

/* Reads PATH once; every malformed line is reported with error () naming
   PATH:LINE.  False when the file is unreadable or has such a line. */
bool pp_ppp_load (const char *path);

/* The entry of function NAME declared in FILE at DECL_LINE: the one with
   that name, file and CHECKSUM whose line is DECL_LINE or not given, else
   the only one with that name and CHECKSUM (the file name as given to gcc
   may differ between the two builds, lines may have moved), else NULL. */
const pp_ppp_entry *pp_ppp_find (const char *name, const char *file,
                                 unsigned decl_line, uint64_t checksum);

/* An entry with that name and file whose line is DECL_LINE or not given,
   whatever its checksum, or NULL: a function changed since the paths were
   selected.  An entry with another line is another overload. */
const pp_ppp_entry *pp_ppp_find_changed (const char *name, const char *file,
                                         unsigned decl_line);

#endif
