/* ppp-plan.cc - which functions get preferential path numbering, and the
 * numbering itself applied to the pass's DAG (see ppp-plan.h).
 *
 * A function listed in the interesting-paths file must have the checksum
 * the file gives: otherwise its Ball-Larus IDs name other paths in this
 * build, and compiling on would count the wrong paths, so it is an error
 * that names the function; unless it is a function compiled into each TU
 * that uses it (a header's, an inline one: tu-copies.h), whose other
 * copies the file may list: this copy then counts as an unlisted one,
 * with a note.  A function the file does not list is counted
 * with plain Ball-Larus numbering (ppp-others=blpp, the default: every path
 * it runs is uninteresting, and still counted by ID) or not instrumented
 * (ppp-others=none). */
#include "gcc-headers.h"
#include "ppp-plan.h"
#include "dag.h"
#include "metadata.h"
#include "options.h"
#include "ppp-file.h"
#include "ppp-number.h"
#include "tu-copies.h"
#include "pathprof-abi.h"

#include <algorithm>

bool
pp_ppp_enabled (void)
{
  return pp_opts.ppp_file != NULL;
}

bool
pp_ppp_read_file (void)
{
  return !pp_opts.ppp_file || pp_ppp_load (pp_opts.ppp_file);
}

pp_ppp_choice
pp_ppp_plan (const pp_dag *dag, pp_layout *lay)
{
  const char *name = pp_meta_function_name ();
  const char *file = DECL_SOURCE_FILE (current_function_decl);
  uint64_t checksum = pp_meta_checksum (name, dag);
  location_t loc = DECL_SOURCE_LOCATION (current_function_decl);
  unsigned decl_line = DECL_SOURCE_LINE (current_function_decl);
  const pp_ppp_entry *e = pp_ppp_find (name, file, decl_line, checksum);

  if (!e)
    {
      if (const pp_ppp_entry *old = pp_ppp_find_changed (name, file, decl_line))
        {
          char want[24], have[24];
          snprintf (want, sizeof want, "0x%016llx", (unsigned long long) old->checksum);
          snprintf (have, sizeof have, "0x%016llx", (unsigned long long) checksum);
          if (pp_fn_has_tu_copies (current_function_decl))
            {
              /* Another TU's copy (tu-copies.h): not an error.  */
              inform (loc, "pathprof: %qs of %s: %s:%u lists a copy with "
                      "checksum %s, this translation unit has a copy with %s "
                      "(a function of a header, or an inline one, compiled "
                      "differently here); this copy has no interesting paths: %s", name,
                      file, pp_opts.ppp_file, old->line, want, have,
                      pp_opts.ppp_others_none ? "not instrumented (ppp-others=none)"
                                              : "plain Ball-Larus counting");
              return pp_opts.ppp_others_none ? PP_PPP_SKIP : PP_PPP_PLAIN;
            }
          error_at (loc, "pathprof: function %qs changed since its interesting "
                    "paths were selected: %s:%u gives checksum %s, this build "
                    "has %s; select them again from a profile of this build "
                    "(%<pathprof select%>)", name, pp_opts.ppp_file, old->line, want, have);
          /* Without a LINE the entry stands for every function of that
             name in the file: an unlisted C++ overload lands here.  */
          if (!old->decl_line)
            inform (loc, "pathprof: if %s:%u lists another overload of %qs, "
                    "give it its declaration line (FUNCTION FILE LINE CHECKSUM "
                    "PATH-ID, format version 3, as %<pathprof select%> writes "
                    "for overloads)", pp_opts.ppp_file, old->line, name);
          return PP_PPP_FAILED;
        }
      if (pp_opts.verbose)
        inform (loc, "pathprof: %qs has no interesting paths in %s: %s", name,
                pp_opts.ppp_file, pp_opts.ppp_others_none
                                      ? "not instrumented (ppp-others=none)"
                                      : "plain Ball-Larus counting");
      return pp_opts.ppp_others_none ? PP_PPP_SKIP : PP_PPP_PLAIN;
    }
  /* ppp-scope=hash: PPP only where Ball-Larus counting would hash (the
     paper's motivation); an array count is cheaper than the PPP probe.  */
  if (pp_opts.ppp_scope_hash && dag->npaths <= pp_opts.hash_threshold)
    {
      if (pp_opts.verbose)
        inform (loc, "pathprof: %qs: its paths fit an array: plain Ball-Larus "
                "counting (ppp-scope=hash)", name);
      return PP_PPP_PLAIN;
    }
  /* Both registers travel in one word (pp_ppp_pack): the Ball-Larus ID
     must fit in its low 32 bits, in stream mode in its low 31 (one more
     bit carries START, ppp-probe.h).  */
  unsigned bits = pp_stream_mode () ? 31 : 32;
  if (dag->npaths > ((unsigned __int128) 1 << bits))
    {
      char big[48];
      error_at (loc, "pathprof: function %qs has %s paths; preferential "
                "numbering needs at most 2^%u (max-paths=2^%u)", name,
                pp_u128_str (dag->npaths, big), bits, bits);
      return PP_PPP_FAILED;
    }

  std::vector<pp_ppp_edge> edges (dag->edges.size ());
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      edges[i].src = dag->edges[i].src;
      edges[i].dst = dag->edges[i].dst;
      edges[i].val = dag->edges[i].val;
      edges[i].in_tree = dag->edges[i].in_tree;
    }
  pp_ppp_result r;
  std::string why;
  char buf[48];
  if (!pp_ppp_number ((int) dag->nodes.size (), edges, e->ids, &r, &why))
    {
      error_at (loc, "pathprof: %s:%u: function %qs: %s (it has %llu paths); "
                "the file does not belong to this build", pp_opts.ppp_file, e->line,
                name, why.c_str (), (unsigned long long) dag->npaths);
      return PP_PPP_FAILED;
    }
  /* A numbering too sparse for an array falls back to the hash table,
     like a function with too many Ball-Larus paths (the paper's second
     policy); the directory holds N in 31 bits (PATHPROF_PPP_TOTAL).  */
  if (r.size > pp_opts.hash_threshold || r.size >= PATHPROF_PPP_TOTAL)
    {
      if (pp_opts.verbose)
        inform (loc, "pathprof: %qs: %llu interesting paths need %llu PPP "
                "numbers, more than hash-threshold: plain Ball-Larus counting",
                name, (unsigned long long) e->ids.size (),
                (unsigned long long) r.size);
      return PP_PPP_PLAIN;
    }
  lay->ppp_size = r.size;
  lay->ppp_end_count.assign (dag->edges.size (), 0);
  lay->ppp_end_number.assign (dag->edges.size (), 0);
  for (size_t p = 0; p < r.last_edge.size (); p++)
    if (r.last_edge[p] >= 0)
      {
        unsigned char &c = lay->ppp_end_count[r.last_edge[p]];
        c = c < 2 ? c + 1 : 2;
        lay->ppp_end_number[r.last_edge[p]] = p;
      }
  /* The Ball-Larus half as narrow as the IDs allow (plus START's bit in
     stream mode): the chord increments (PPP << shift) + BL then mostly
     fit an instruction's 32-bit immediate, where a shift of 32 made each
     a 64-bit constant to load first (bzip2: issue 18's overhead goal).  */
  unsigned shift = 1;
  while (shift < 32 && ((unsigned __int128) 1 << shift) < dag->npaths)
    shift++;
  lay->ppp_shift = shift + (pp_stream_mode () ? 1 : 0);
  lay->ppp_table = r.table;
  lay->ppp_inc = r.inc;
  if (pp_opts.verbose)
    {
      size_t n = r.table.size () - std::count (r.table.begin (), r.table.end (),
                                               (uint64_t) PP_PPP_HOLE);
      char lambda[32];
      snprintf (lambda, sizeof lambda, "%.2f", (double) r.size / (double) n);
      inform (loc, "pathprof: %qs: %llu interesting of %s paths numbered "
              "from 0 to %llu (Lambda %s)", name, (unsigned long long) n,
              pp_u128_str (dag->npaths, buf), (unsigned long long) r.size - 1, lambda);
    }
  return PP_PPP_NUMBERED;
}

void
pp_ppp_pack (const pp_dag *dag, const pp_layout *lay, pp_dag *packed)
{
  *packed = *dag;
  for (size_t i = 0; i < packed->edges.size (); i++)
    packed->edges[i].inc = (lay->ppp_inc[i] << lay->ppp_shift) + dag->edges[i].inc;
}
