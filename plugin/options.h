/* options.h - the plugin's command-line arguments
 * (-fplugin-arg-pathprof-NAME=VALUE), parsed once in plugin_init.
 * docs/plugin-args.md is the user-facing table; keep both in step. */
#ifndef PATHPROF_OPTIONS_H
#define PATHPROF_OPTIONS_H

#include <stdint.h>

struct plugin_argument;

enum pp_update { PP_UPDATE_DEFAULT, PP_UPDATE_SINGLE, PP_UPDATE_ATOMIC };
enum pp_mode { PP_MODE_COUNT, PP_MODE_STREAM };
/* Which const/pure callees become ordinary calls
   (callee-flags.cc): all but those of system headers, or all.  */
enum pp_const_calls { PP_CONST_CALLS_USER, PP_CONST_CALLS_ALL };

struct pp_options {
  enum pp_mode mode;
  /* Upper bound on the number of path IDs of one function (IDs lie in
     [0, max_paths)).  Stored as a 128-bit value so 2^64 is expressible. */
  unsigned __int128 max_paths;
  uint64_t hash_threshold;
  enum pp_update update;
  enum pp_const_calls const_calls;
  bool verbose;
  bool verify;
  /* sampling=yes: a checking copy of each function beside the
     instrumented one (plugin/sampling.cc, docs/sampling.md).  */
  bool sampling;
  /* Colon-separated glob lists; NULL means "not given". */
  const char *include;
  const char *exclude;
  const char *include_file;
  const char *exclude_file;
  /* ppp=FILE (NULL: no PPP), ppp-others=none and ppp-scope=hash
     (ppp-plan.cc).  */
  const char *ppp_file;
  bool ppp_others_none;
  bool ppp_scope_hash;
  /* ppp-uninteresting=total: a PPP function's other paths only as a total
     (ppp-probe.cc), not by ID in the hash table.  */
  bool ppp_total;
  /* tpp=I,J (tpp.cc): targeted path profiling, cold edge threshold I and
     loop disconnection threshold J, in percent.  */
  bool tpp;
  unsigned tpp_i, tpp_j;
  const char *edge_profile; /* edge-profile=FILE: TPP's edge counts from a
                               pathprof profile (tpp-counts.cc), NULL: GCC's */
  bool tpp_obvious;     /* tpp-obvious: obvious-path elimination (default on) */
  /* vpp=yes: variational path profiling (docs/vpp.md): sampling with
     bursts of one path, in stream mode, the instrumented copy's path ends
     timed by the runtime.  mode_given/sampling_given: whether mode= and
     sampling= were on the command line (vpp implies them).  */
  bool vpp;
  bool mode_given, sampling_given;
  /* loop-counts (default 1): count mode counts the iterations of a loop
     whose body is one path at its exits (loop-counts.h).  */
  bool loop_counts;
};

/* With tpp, hot path IDs stay below this bound, far from the poisoned
   register values (tpp.h).  */
#define PP_TPP_MAX_PATHS ((unsigned __int128) 1 << 61)

extern struct pp_options pp_opts;

/* Parses ARGV; reports every bad argument with error () and returns false
   if there was any. */
bool pp_parse_options (int argc, struct plugin_argument *argv);

/* True in stream mode (docs/streaming.md).  */
bool pp_stream_mode (void);

/* True when the function NAME defined in FILE passes the include/exclude
   filters. */
bool pp_function_selected (const char *name, const char *file);

/* True when array counters of this compilation use atomic updates. */
bool pp_atomic_updates (void);

#endif
