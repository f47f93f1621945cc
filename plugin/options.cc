/* options.cc - parsing and checking the plugin arguments. */
#include "gcc-headers.h"
#include "options.h"

#include <fnmatch.h>
#include <string.h>
#include <errno.h>
#include <stdlib.h>

struct pp_options pp_opts = {
  PP_MODE_COUNT,
  (unsigned __int128) 1 << 32, /* max_paths: IDs fit in 32 bits */
  (uint64_t) 1 << 18,          /* hash_threshold: 2 MiB of counters at most */
  PP_UPDATE_DEFAULT,
  PP_CONST_CALLS_USER,
  false,
  false,
  false,
  NULL, NULL, NULL, NULL,
  NULL, false, false, false,   /* ppp_file, ppp_others_none, ppp_scope_hash, ppp_total */
  false, 0, 0, NULL, true,     /* tpp, tpp_i, tpp_j, edge_profile, tpp_obvious */
  false, false, false,         /* vpp, mode_given, sampling_given */
  true                         /* loop_counts */
};

/* Parses "N" or "2^K" into *OUT; at most 2^64-1, since a path count of
   the metadata is a u64.  */
static bool
parse_count (const char *s, unsigned __int128 *out)
{
  if (!s || !*s)
    return false;
  if (s[0] == '2' && s[1] == '^')
    {
      char *end;
      errno = 0;
      unsigned long k = strtoul (s + 2, &end, 10);
      if (errno || *end || end == s + 2 || k > 63)
        return false;
      *out = (unsigned __int128) 1 << k;
      return true;
    }
  unsigned __int128 v = 0;
  for (const char *p = s; *p; p++)
    {
      if (*p < '0' || *p > '9')
        return false;
      v = v * 10 + (unsigned) (*p - '0');
      if (v > (unsigned __int128) UINT64_MAX)
        return false;
    }
  *out = v;
  return true;
}

static bool
parse_flag (const char *value, bool *out)
{
  if (!value || !strcmp (value, "1") || !strcmp (value, "yes"))
    *out = true;
  else if (!strcmp (value, "0") || !strcmp (value, "no"))
    *out = false;
  else
    return false;
  return true;
}

/* tpp=I,J (docs/tpp.md); the rest of TPP is tpp*.cc.  */
/* "N": a whole percentage, 0 to 100.  */
static bool
parse_percent (const char *s, const char *end, unsigned *out)
{
  if (s == end || end - s > 3)
    return false;
  unsigned v = 0;
  for (const char *p = s; p < end; p++)
    {
      if (*p < '0' || *p > '9')
        return false;
      v = v * 10 + (unsigned) (*p - '0');
    }
  if (v > 100)
    return false;
  *out = v;
  return true;
}

static bool
parse_tpp (const char *value)
{
  const char *comma = value ? strchr (value, ',') : NULL;
  unsigned i, j;
  if (!comma || !parse_percent (value, comma, &i)
      || !parse_percent (comma + 1, comma + strlen (comma), &j))
    {
      error ("pathprof: bad value %qs for plugin argument %<tpp%>; give "
             "%<I,J%>, two whole percentages from 0 to 100: I the cold edge "
             "threshold, J the loop disconnection threshold, as in "
             "%<TPP(i, j)%> of the TPP paper", value ? value : "");
      return false;
    }
  pp_opts.tpp = true;
  pp_opts.tpp_i = i;
  pp_opts.tpp_j = j;
  return true;
}

static bool
check_tpp (void)
{
  /* mode=stream is fine: obvious paths emit nothing, their counters stay
     in memory, and the runtime refuses the analyzers that need every
     path in order (docs/tpp.md, "Streams").  */
  /* Hot IDs must stay far below the poison (tpp.h).  */
  if (pp_opts.max_paths > PP_TPP_MAX_PATHS)
    pp_opts.max_paths = PP_TPP_MAX_PATHS;
  return true;
}

/* vpp=yes implies sampling=yes and mode=stream; saying otherwise, or
   asking for something sampling refuses, is an error naming the
   argument.  */
static bool
check_vpp (void)
{
  const char *other = NULL;
  if (pp_opts.mode_given && pp_opts.mode != PP_MODE_STREAM)
    other = "mode=count";
  else if (pp_opts.sampling_given && !pp_opts.sampling)
    other = "sampling=no";
  else if (pp_opts.verify)
    other = "verify";
  else if (pp_opts.ppp_file)
    other = "ppp";
  else if (pp_opts.tpp)
    other = "tpp";
  if (other)
    {
      error ("pathprof: plugin argument %<vpp=yes%> cannot be combined with "
             "%qs: a VPP build is sampled (bursts of one path) and in "
             "stream mode (docs/vpp.md)", other);
      return false;
    }
  pp_opts.mode = PP_MODE_STREAM;
  pp_opts.sampling = true;
  return true;
}

static bool
parse_one (const char *key, const char *value)
{
  unsigned __int128 n;
  if (!strcmp (key, "mode"))
    {
      pp_opts.mode_given = true;
      if (value && !strcmp (value, "count"))
        pp_opts.mode = PP_MODE_COUNT;
      else if (value && !strcmp (value, "stream"))
        pp_opts.mode = PP_MODE_STREAM;
      else
        {
          error ("pathprof: bad value %qs for plugin argument %<mode%>; "
                 "use %<count%> or %<stream%>", value ? value : "");
          return false;
        }
      return true;
      return false;
    }
  if (!strcmp (key, "max-paths"))
    {
      if (parse_count (value, &n) && n >= 2)
        {
          pp_opts.max_paths = n;
          return true;
        }
      error ("pathprof: bad value %qs for plugin argument %<max-paths%>; "
             "give a number from 2 to 2^64-1, in decimal or as %<2^K%> "
             "(K at most 63)",
             value ? value : "");
      return false;
    }
  if (!strcmp (key, "hash-threshold"))
    {
      if (parse_count (value, &n) && n >= 1 && n < ((unsigned __int128) 1 << 32))
        {
          pp_opts.hash_threshold = (uint64_t) n;
          return true;
        }
      error ("pathprof: bad value %qs for plugin argument %<hash-threshold%>; "
             "give a number from 1 to 2^32-1", value ? value : "");
      return false;
    }
  if (!strcmp (key, "update"))
    {
      if (value && !strcmp (value, "single"))
        pp_opts.update = PP_UPDATE_SINGLE;
      else if (value && !strcmp (value, "atomic"))
        pp_opts.update = PP_UPDATE_ATOMIC;
      else
        {
          error ("pathprof: bad value %qs for plugin argument %<update%>; "
                 "use %<single%> or %<atomic%>", value ? value : "");
          return false;
        }
      return true;
    }
  if (!strcmp (key, "const-calls"))
    {
      if (value && !strcmp (value, "user"))
        pp_opts.const_calls = PP_CONST_CALLS_USER;
      else if (value && !strcmp (value, "all"))
        pp_opts.const_calls = PP_CONST_CALLS_ALL;
      else
        {
          error ("pathprof: bad value %qs for plugin argument "
                 "%<const-calls%>; use %<user%> (const and pure callees "
                 "outside system headers become ordinary calls) or %<all%>",
                 value ? value : "");
          return false;
        }
      return true;
    }
  if (!strcmp (key, "verbose") || !strcmp (key, "verify")
      || !strcmp (key, "tpp-obvious") || !strcmp (key, "loop-counts"))
    {
      bool *flag = !strcmp (key, "verbose") ? &pp_opts.verbose
                   : !strcmp (key, "verify") ? &pp_opts.verify
                   : !strcmp (key, "loop-counts") ? &pp_opts.loop_counts
                                             : &pp_opts.tpp_obvious;
      if (parse_flag (value, flag))
        return true;
      error ("pathprof: bad value %qs for plugin argument %qs; use 1 or 0",
             value, key);
      return false;
    }
  if (!strcmp (key, "sampling"))
    {
      /* No bare form: "sampling" alone reads too much like a rate.  */
      if (value && (!strcmp (value, "yes") || !strcmp (value, "no")))
        {
          pp_opts.sampling = !strcmp (value, "yes");
          pp_opts.sampling_given = true;
          return true;
        }
      error ("pathprof: bad value %qs for plugin argument %<sampling%>; "
             "use %<yes%> (a checking copy of each function, profiled in "
             "bursts set by %<PATHPROF_SAMPLE%> and %<PATHPROF_BURST%>) or %<no%>",
             value ? value : "");
      return false;
    }
  if (!strcmp (key, "vpp"))
    {
      if (value && (!strcmp (value, "yes") || !strcmp (value, "no")))
        {
          pp_opts.vpp = !strcmp (value, "yes");
          return true;
        }
      error ("pathprof: bad value %qs for plugin argument %<vpp%>; use "
             "%<yes%> (time sampled paths: sampling with bursts of one "
             "path, in stream mode) or %<no%>", value ? value : "");
      return false;
    }
  if (!strcmp (key, "tpp"))
    return parse_tpp (value);
  if (!strcmp (key, "edge-profile"))
    {
      if (value && *value)
        {
          pp_opts.edge_profile = value;
          return true;
        }
      error ("pathprof: plugin argument %<edge-profile%> needs a file: a "
             "pathprof profile of a plain Ball-Larus build of the same "
             "source, whose path counts give TPP its edge counts");
      return false;
    }
  const char **list = NULL;
  if (!strcmp (key, "include"))
    list = &pp_opts.include;
  else if (!strcmp (key, "exclude"))
    list = &pp_opts.exclude;
  else if (!strcmp (key, "include-file"))
    list = &pp_opts.include_file;
  else if (!strcmp (key, "exclude-file"))
    list = &pp_opts.exclude_file;
  if (list)
    {
      if (value && *value)
        {
          *list = value;
          return true;
        }
      error ("pathprof: plugin argument %qs needs a value: "
             "one or more globs separated by %<:%>", key);
      return false;
    }
  if (!strcmp (key, "ppp"))
    {
      if (value && *value)
        {
          pp_opts.ppp_file = value;
          return true;
        }
      error ("pathprof: plugin argument %<ppp%> needs a file of interesting "
             "paths (%<pathprof select PROFILE > FILE%> writes one)");
      return false;
    }
  if (!strcmp (key, "ppp-scope"))
    {
      if (value && (!strcmp (value, "all") || !strcmp (value, "hash")))
        {
          pp_opts.ppp_scope_hash = !strcmp (value, "hash");
          return true;
        }
      error ("pathprof: bad value %qs for plugin argument %<ppp-scope%>; "
             "use %<all%> or %<hash%>", value ? value : "");
      return false;
    }
  if (!strcmp (key, "ppp-others"))
    {
      if (value && (!strcmp (value, "blpp") || !strcmp (value, "none")))
        {
          pp_opts.ppp_others_none = !strcmp (value, "none");
          return true;
        }
      error ("pathprof: bad value %qs for plugin argument %<ppp-others%>; "
             "use %<blpp%> or %<none%>", value ? value : "");
      return false;
    }
  if (!strcmp (key, "ppp-uninteresting"))
    {
      if (value && (!strcmp (value, "ids") || !strcmp (value, "total")))
        {
          pp_opts.ppp_total = !strcmp (value, "total");
          return true;
        }
      error ("pathprof: bad value %qs for plugin argument %<ppp-uninteresting%>; "
             "use %<ids%> or %<total%>", value ? value : "");
      return false;
    }
  error ("pathprof: unknown plugin argument %<-fplugin-arg-pathprof-%s%>; "
         "known: mode, max-paths, hash-threshold, update, const-calls, include, "
         "exclude, include-file, exclude-file, verbose, verify, sampling, vpp, ppp, ppp-others, "
         "ppp-scope, ppp-uninteresting, tpp, tpp-obvious, edge-profile, loop-counts", key);
  return false;
}

bool
pp_parse_options (int argc, struct plugin_argument *argv)
{
  bool ok = true;
  for (int i = 0; i < argc; i++)
    ok &= parse_one (argv[i].key, argv[i].value);
  if (ok && pp_opts.vpp)
    ok = check_vpp ();
  if (ok && pp_opts.verify && pp_opts.mode == PP_MODE_STREAM)
    {
      error ("pathprof: plugin argument %<verify%> works in %<mode=count%> "
             "only; in stream mode the oracle is the %<trace%> analyzer");
      ok = false;
    }
  if (ok && pp_opts.verify && pp_opts.sampling)
    {
      error ("pathprof: plugin arguments %<verify%> and %<sampling=yes%> "
             "cannot be combined: the direct edge counts would be sampled "
             "too and no longer an oracle");
      ok = false;
    }
  if (ok && pp_opts.ppp_file && pp_opts.sampling)
    {
      error ("pathprof: plugin arguments %<ppp%> and %<sampling=yes%> "
             "cannot be combined (yet): a sampled PPP build is not "
             "implemented");
      ok = false;
    }
  if (ok && pp_opts.ppp_total && pp_opts.mode == PP_MODE_STREAM)
    {
      error ("pathprof: plugin argument %<ppp-uninteresting=total%> works in "
             "%<mode=count%> only: in stream mode every path end sends its "
             "event anyway, so a total would save nothing");
      ok = false;
    }
  if (ok && pp_opts.tpp && (pp_opts.ppp_file || pp_opts.sampling))
    {
      error ("pathprof: plugin argument %<tpp%> cannot be combined with "
             "%<ppp%> or %<sampling=yes%> (yet)");
      ok = false;
    }
  if (ok && pp_opts.edge_profile && !pp_opts.tpp)
    {
      error ("pathprof: plugin argument %<edge-profile%> is the edge profile "
             "of %<tpp%>: give %<tpp=I,J%> too");
      ok = false;
    }
  if (ok && pp_opts.tpp)
    ok = check_tpp ();
  return ok;
}

bool
pp_stream_mode (void)
{
  return pp_opts.mode == PP_MODE_STREAM;
}

/* True when S matches one of the ':'-separated globs of LIST.  */
static bool
matches_any (const char *list, const char *s)
{
  char buf[1024];
  const char *p = list;
  while (*p)
    {
      const char *colon = strchr (p, ':');
      size_t len = colon ? (size_t) (colon - p) : strlen (p);
      if (len < sizeof buf)
        {
          memcpy (buf, p, len);
          buf[len] = 0;
          if (len && fnmatch (buf, s, 0) == 0)
            return true;
        }
      if (!colon)
        break;
      p = colon + 1;
    }
  return false;
}

bool
pp_function_selected (const char *name, const char *file)
{
  if (pp_opts.include && !matches_any (pp_opts.include, name))
    return false;
  if (pp_opts.exclude && matches_any (pp_opts.exclude, name))
    return false;
  if (pp_opts.include_file && !matches_any (pp_opts.include_file, file))
    return false;
  if (pp_opts.exclude_file && matches_any (pp_opts.exclude_file, file))
    return false;
  return true;
}

/* Whether this compilation is of threaded code: -pthread (which reaches
   cc1 only as -D_REENTRANT) or -fopenmp (whose outlined bodies run in
   several threads by design).  */
static bool
threaded_compilation (void)
{
  if (flag_openmp)
    return true;
  for (unsigned i = 0; i < save_decoded_options_count; i++)
    {
      const cl_decoded_option &o = save_decoded_options[i];
      if (o.opt_index == OPT_D && o.arg
          && (!strcmp (o.arg, "_REENTRANT") || !strncmp (o.arg, "_REENTRANT=", 11)))
        return true;
    }
  return false;
}

/* The explicit choice first (update=, then -fprofile-update); without
   one, atomic for threaded code, as the gcc driver turns -pthread into
   -fprofile-update=prefer-atomic for its own edge profiler: plain
   increments from two threads lose counts while the profile reads as
   exact (docs/plugin-args.md, "Multithreaded programs").  */
bool
pp_atomic_updates (void)
{
  if (pp_opts.update != PP_UPDATE_DEFAULT)
    return pp_opts.update == PP_UPDATE_ATOMIC;
  if (OPTION_SET_P (flag_profile_update))
    return flag_profile_update != PROFILE_UPDATE_SINGLE;
  return flag_profile_update != PROFILE_UPDATE_SINGLE || threaded_compilation ();
}
