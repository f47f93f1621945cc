/* dag.h - the Ball-Larus DAG of one function: built from GCC's CFG, its
 * paths numbered (with cuts when they exceed the bound), and increments
 * placed on the chords of a maximum spanning tree.  docs/algorithms.md
 * explains each step; docs/format.md the fields that end up in the
 * metadata blob. */
#ifndef PATHPROF_DAG_H
#define PATHPROF_DAG_H

#include <stdint.h>
#include <vector>

/* Node 0 is ENTRY, node 1 is EXIT; the rest are basic blocks. */
enum { PP_ENTRY = 0, PP_EXIT = 1 };

struct pp_node {
  basic_block bb;
  int bb_index;          /* bb->index when the DAG was built */
  bool start;            /* a path starts here after an abnormal/EH edge or a cut:
                            the path register is a constant on entry */
  bool eh_pad;           /* a landing pad entered only by EH edges: the path
                            that throws ends on its EH edge (counted here) */
  bool resume;           /* stream mode: a resume point (landing pad, setjmp
                            receiver) where a RESUME marker resyncs the
                            analyzer's activation stack */
  bool cuttable;         /* may become a cut node to respect max-paths */
  unsigned __int128 npaths;  /* paths from here to EXIT (saturating) */
  uint64_t pot;          /* potential: register value on entry = partial sum - pot */
  uint32_t file;         /* string index of the statements' file, or NONE */
  uint32_t line_first, line_last;
};

/* Lines of one file holding statements of a block: [first, last].  */
struct pp_line_span {
  uint32_t file;         /* string index */
  uint32_t first, last;
};

struct pp_edge {
  int src, dst;          /* node numbers */
  unsigned kind;         /* PATHPROF_EDGE_* */
  int real_dst;          /* EXIT_DUMMY: node the real edge goes to */
  edge cfg;              /* REAL and EXIT_DUMMY: the CFG edge; else NULL */
  int64_t weight;        /* for the spanning tree */
  uint64_t val;          /* Ball-Larus value */
  uint64_t inc;          /* increment placed on the edge (0 on tree edges) */
  bool in_tree;
  bool cold;             /* TPP: on no hot ENTRY->EXIT path (tpp.cc): not
                            numbered, a path taking it is counted as cold */
  bool obvious;          /* TPP: every hot path through it is obvious (its
                            count derived): no increment, no count here */
  bool disconnected;     /* TPP: an EXIT_DUMMY for the entry or exit edge of
                            a disconnected loop (tpp-loops.cc) */
};

struct pp_dag {
  std::vector<pp_node> nodes;
  std::vector<pp_edge> edges;
  std::vector<int> node_of_bb;   /* bb->index -> node, -1 when not in the DAG */
  unsigned __int128 npaths;      /* total path IDs after cuts */
  unsigned __int128 npaths_uncut;  /* before cuts (saturates at 2^128-1) */
  unsigned ncuts;
  bool has_resume;               /* some node is a resume point */
  bool uses_entry_split;
  unsigned tpp;                  /* PP_TPP_* (tpp.h) */
  /* TPP: each obvious path not counted at its end, and the edge (index in
     edges) whose counter gives its count (tpp-obvious.cc).  */
  std::vector<std::pair<uint64_t, int> > derived;
  /* Per node: the exact lines of its statements, sorted by file index and
     line, disjoint and not adjacent (docs/format.md, "Line table").  */
  std::vector<std::vector<pp_line_span> > spans;
};

/* Where a numbering variant (TPP, tpp.h) acts inside pp_build_dag
   without dag.cc depending on it; any hook may be NULL.  ENTRY_DUMMY maps
   a node to the index of its entry dummy edge, or -1.  */
struct pp_dag_hooks {
  /* The edges exist, nothing is numbered yet.  */
  void (*before_numbering) (pp_dag *dag, std::vector<int> *entry_dummy);
  /* A cut made node W a start node whose entry dummy is edge D.  */
  void (*after_cut) (pp_dag *dag, int w, int d);
  /* Values and increments are placed.  */
  void (*after_numbering) (pp_dag *dag);
};

/* Builds, numbers and places increments for the DAG of cfun.  Returns
   false (after error ()) when the function cannot be numbered within
   pp_opts.max_paths.  May split the entry edge of cfun.  HOOKS may be
   NULL.  */
bool pp_build_dag (pp_dag *dag, const pp_dag_hooks *hooks);

/* True when BB is GCC's abnormal dispatcher block (no path goes through it). */
bool pp_is_dispatcher (basic_block bb);

/* Indices of DAG's edges, stably sorted by LESS.  */
std::vector<int> pp_edges_sorted (const pp_dag *dag,
                                  bool (*less) (const pp_edge &,
                                                const pp_edge &));

/* Prints a 128-bit count in decimal into BUF (at least 48 bytes).  */
const char *pp_u128_str (unsigned __int128 v, char *buf);

#endif
