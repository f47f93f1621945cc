/* tpp-counts.cc - where TPP's edge counts come from (tpp-counts.h).
 *
 * With edge-profile=FILE, FILE is a pathprof profile of a plain
 * Ball-Larus build of the same source, with the same options: cfun's plain
 * DAG (numbered without hooks, as that build numbered it) must have the
 * checksum the profile records for the function, or its edges would not
 * be the ones counted.  GCC's own counts (-fprofile-use) are then not
 * read, even when present. */
#include "gcc-headers.h"
#include "tpp-counts.h"
#include "edge-profile.h"
#include "options.h"
#include "tu-copies.h"

#include <stdio.h>

/* FILE: 0 not read yet, 1 read, -1 unreadable (reported once).  */
static int file_state;
/* cfun's entry in FILE, NULL when it has none.  */
static const pp_ep_func *current;

/* A count read from the .gcda is precise; GCC guesses the counts of a
   function that never ran in training (all its counts were 0), and a
   guess is no measurement: such a block has no flow, as in a profile.  */
static gcov_type
gcc_count (profile_count c)
{
  if (!c.initialized_p () || !c.precise_p ())
    return 0;
  gcov_type g = c.to_gcov_type ();
  return g < 0 ? 0 : g;
}

static gcov_type
clamp (uint64_t n)
{
  return n > (uint64_t) INTTYPE_MAXIMUM (gcov_type) ? INTTYPE_MAXIMUM (gcov_type)
                                                    : (gcov_type) n;
}

static bool
load_file (void)
{
  if (file_state == 0)
    {
      const char *why = pp_ep_load (pp_opts.edge_profile);
      if (why)
        {
          error ("pathprof: %s (plugin argument %<edge-profile%>): %s",
                 pp_opts.edge_profile, why);
          file_state = -1;
        }
      else
        file_state = 1;
    }
  return file_state == 1;
}

bool
pp_tpp_counts_begin (const char *name, uint64_t checksum)
{
  current = NULL;
  if (!pp_opts.edge_profile)
    return true;
  if (!load_file ())
    return false;
  const char *file = DECL_SOURCE_FILE (current_function_decl);
  location_t loc = DECL_SOURCE_LOCATION (current_function_decl);
  const pp_ep_func *f = pp_ep_find (name, file, checksum);
  if (!f)
    {
      if (pp_opts.verbose)
        inform (loc, "pathprof: %qs is not in %s: no edge profile", name,
                pp_opts.edge_profile);
      return true;
    }
  /* First: a tpp or ppp profile's checksums are of other DAGs.  */
  if (f->inexact)
    {
      error_at (loc, "pathprof: function %qs of %s cannot take its edge "
                "counts from %s: %s; profile a plain Ball-Larus build "
                "(plugin argument %<edge-profile%>)", name, file,
                pp_opts.edge_profile, f->inexact);
      return false;
    }
  if (f->checksum != checksum)
    {
      char want[24], have[24];
      snprintf (want, sizeof want, "0x%016llx", (unsigned long long) f->checksum);
      snprintf (have, sizeof have, "0x%016llx", (unsigned long long) checksum);
      if (pp_fn_has_tu_copies (current_function_decl))
        {
          /* A copy the profile does not have (tu-copies.h).  */
          inform (loc, "pathprof: %qs of %s: %s has a copy with checksum %s, "
                  "this translation unit has a copy with %s (a function of a "
                  "header, or an inline one, compiled differently here): no "
                  "edge profile for this copy", name, file, pp_opts.edge_profile, want, have);
          return true;
        }
      error_at (loc, "pathprof: function %qs of %s changed since %s was "
                "profiled: its control flow graph has checksum %s there and "
                "%s in this build (same source and options needed, "
                "plugin argument %<edge-profile%>)", name, file,
                pp_opts.edge_profile, want, have);
      return false;
    }
  current = f;
  return true;
}

bool
pp_tpp_counts_known (void)
{
  if (pp_opts.edge_profile)
    return current != NULL;
  return profile_status_for_fn (cfun) == PROFILE_READ;
}

gcov_type
pp_tpp_edge_count (edge e)
{
  if (!pp_opts.edge_profile)
    return gcc_count (e->count ());
  if (!current)
    return 0;
  size_t lo = 0, hi = current->nedges;
  int s = e->src->index, d = e->dest->index;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      const pp_ep_edge &m = current->edges[mid];
      if (m.src_bb < s || (m.src_bb == s && m.dst_bb < d))
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < current->nedges && current->edges[lo].src_bb == s
      && current->edges[lo].dst_bb == d)
    return clamp (current->edges[lo].count);
  return 0;
}

gcov_type
pp_tpp_block_count (basic_block bb)
{
  if (!pp_opts.edge_profile)
    return gcc_count (bb->count);
  if (!current)
    return 0;
  size_t lo = 0, hi = current->nblocks;
  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      if (current->blocks[mid].bb < bb->index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < current->nblocks && current->blocks[lo].bb == bb->index)
    return clamp (current->blocks[lo].count);
  return 0;
}

const char *
pp_tpp_counts_source (void)
{
  return pp_opts.edge_profile ? pp_opts.edge_profile : "GCC's -fprofile-use";
}
