/* ppp-plan.h - preferential path profiling in the pass (ppp=FILE): which
 * functions get the PPP numbering, the arguments that decide it, and the
 * increments the probes add.  docs/plugin-args.md, docs/format.md. */
#ifndef PATHPROF_PPP_PLAN_H
#define PATHPROF_PPP_PLAN_H

struct pp_dag;
struct pp_layout;

/* True when ppp=FILE was given (options.cc parses ppp and ppp-others).  */
bool pp_ppp_enabled (void);
/* Reads FILE once the arguments are parsed; false after error ().  */
bool pp_ppp_read_file (void);

enum pp_ppp_choice {
  PP_PPP_NUMBERED,   /* cfun has interesting paths: lay's ppp fields set */
  PP_PPP_PLAIN,      /* no interesting paths: plain Ball-Larus counting */
  PP_PPP_SKIP,       /* no interesting paths and ppp-others=none */
  PP_PPP_FAILED      /* error () was called (a stale file, a bad ID) */
};

/* Decides for cfun, numbered as DAG, and for PP_PPP_NUMBERED fills
   lay->ppp_size, ppp_table and ppp_inc.  */
pp_ppp_choice pp_ppp_plan (const pp_dag *dag, pp_layout *lay);

/* PACKED becomes DAG with each increment carrying both registers in one
   64-bit word: the PPP increment times 2^S plus the Ball-Larus one, S =
   lay->ppp_shift (the bits of npaths, at most 32; one more in stream
   mode).  At a path's end the word is PPP number * 2^S + Ball-Larus ID
   (mod 2^64), exactly, since the Ball-Larus ID is below 2^S
   (ppp-probe.cc). */
void pp_ppp_pack (const pp_dag *dag, const pp_layout *lay, pp_dag *packed);

#endif
