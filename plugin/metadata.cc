/* metadata.cc - serialises the TU metadata blob (docs/format.md, section 2)
 * and emits it with the counter array and the constructor/destructor that
 * register both with the runtime.  Everything is little-endian, written
 * byte by byte, so the blob does not depend on the host. */
#include "gcc-headers.h"
#include "metadata.h"
#include "build-signature.h"
#include "dag.h"
#include "pathprof-abi.h"
#include "options.h"
#include "string-table.h"
#include "tpp.h"

#include <algorithm>
#include <map>
#include <string>

typedef std::vector<unsigned char> bytes;

static bytes directory;          /* 64-byte entries */
static bytes details;            /* detail records, offsets relative */
static std::vector<uint64_t> detail_pos;  /* per function, into DETAILS */
static uint32_t nfuncs;
static uint64_t ncounters_total;
static tree counters_var;

static void
put32 (bytes *b, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    b->push_back ((unsigned char) (v >> (8 * i)));
}

static void
put64 (bytes *b, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    b->push_back ((unsigned char) (v >> (8 * i)));
}

static void
patch64 (bytes *b, size_t at, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    (*b)[at + i] = (unsigned char) (v >> (8 * i));
}

/* LEB128, 7 bits a byte, least significant first.  */
static void
put_uleb (bytes *b, uint64_t v)
{
  while (v >= 0x80)
    {
      b->push_back ((unsigned char) (v | 0x80));
      v >>= 7;
    }
  b->push_back ((unsigned char) v);
}

/* A signed difference, zigzag-coded (0, -1, 1, -2 ... as 0, 1, 2, 3 ...)
   so that a small one of either sign takes one byte.  */
static uint64_t
zigzag (int64_t v)
{
  return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

static void
put_sleb (bytes *b, int64_t v)
{
  put_uleb (b, zigzag (v));
}

static int64_t
delta (uint64_t to, uint64_t from)
{
  return (int64_t) (to - from);
}

/* The nodes and the hot edges of a version 3 detail record: each node's
   file (0 none, else string index + 1) relative to the node before's
   (the first's to 0), its first line relative to the last node's with
   lines (the first's to the function's line), each edge's source and
   value relative to the edge before's (a value to 0 after a new source);
   a node without lines clears the low bit of its file word and writes
   none.  */
static void
put_graph (const pp_dag *dag, const std::vector<int> &order, uint32_t nhot,
           uint32_t fn_line)
{
  put_uleb (&details, dag->nodes.size ());
  uint64_t prev_code = 0;
  uint64_t prev_line = fn_line;
  for (size_t i = 0; i < dag->nodes.size (); i++)
    {
      const pp_node &n = dag->nodes[i];
      uint64_t code = n.file == PATHPROF_NONE ? 0 : (uint64_t) n.file + 1;
      bool lines = n.line_first != 0 || n.line_last != 0;
      put_uleb (&details, (uint64_t) n.bb_index);
      put_uleb (&details, zigzag (delta (code, prev_code)) << 1 | (lines ? 1 : 0));
      prev_code = code;
      if (lines)
        {
          put_sleb (&details, delta (n.line_first, prev_line));
          put_sleb (&details, delta (n.line_last, n.line_first));
          prev_line = n.line_first;
        }
    }
  put_uleb (&details, nhot);
  uint64_t prev_src = 0, prev_val = 0;
  for (size_t k = 0; k < order.size (); k++)
    {
      const pp_edge &e = dag->edges[order[k]];
      if (e.cold)
        continue;
      gcc_assert (e.kind < 4 && (uint64_t) e.src >= prev_src);
      if ((uint64_t) e.src != prev_src)
        prev_val = 0;
      gcc_assert (e.val >= prev_val);
      put_uleb (&details, (uint64_t) e.src - prev_src);
      put_uleb (&details, (uint64_t) e.dst << 2 | e.kind);
      if (e.kind == PATHPROF_EDGE_EXIT_DUMMY)
        put_uleb (&details, (uint64_t) e.real_dst);
      put_uleb (&details, e.val - prev_val);
      put_sleb (&details, (int64_t) e.inc);
      prev_src = (uint64_t) e.src;
      prev_val = e.val;
    }
}

/* The line table of a version 3 record: per node its number of spans,
   each span's file and first line relative to the span before's file
   and last line (the first's to 0 and the function's line), its last
   line after its first.  */
static void
put_lines (const pp_dag *dag, uint32_t fn_line)
{
  uint64_t prev_file = 0;
  uint64_t prev_last = fn_line;
  for (size_t i = 0; i < dag->nodes.size (); i++)
    {
      static const std::vector<pp_line_span> none;
      const std::vector<pp_line_span> &sp
          = i < dag->spans.size () ? dag->spans[i] : none;
      put_uleb (&details, sp.size ());
      for (size_t k = 0; k < sp.size (); k++)
        {
          gcc_assert (sp[k].last >= sp[k].first);
          put_sleb (&details, delta (sp[k].file, prev_file));
          put_sleb (&details, delta (sp[k].first, prev_last));
          put_uleb (&details, sp[k].last - sp[k].first);
          prev_file = sp[k].file;
          prev_last = sp[k].last;
        }
    }
}

static uint64_t
fnv (uint64_t h, const void *p, size_t n)
{
  const unsigned char *c = (const unsigned char *) p;
  for (size_t i = 0; i < n; i++)
    {
      h ^= c[i];
      h *= 0x100000001b3ULL;
    }
  return h;
}

/* Identifies this build of the function: its name, the DAG's shape and its
   numbering, so that a profile can be matched to the right code.  */
uint64_t
pp_meta_checksum (const char *name, const pp_dag *dag)
{
  uint64_t h = fnv (0xcbf29ce484222325ULL, name, strlen (name));
  for (size_t i = 0; i < dag->nodes.size (); i++)
    h = fnv (h, &dag->nodes[i].bb_index, sizeof (int));
  for (size_t i = 0; i < dag->edges.size (); i++)
    {
      const pp_edge &e = dag->edges[i];
      if (e.cold)
        continue;
      int v[4] = { e.src, e.dst, (int) e.kind, e.real_dst };
      h = fnv (h, v, sizeof v);
      h = fnv (h, &e.val, sizeof e.val);
    }
  return h;
}

static bool
decoder_order (const pp_edge &a, const pp_edge &b)
{
  if (a.src != b.src)
    return a.src < b.src;
  return a.val < b.val;
}

const char *
pp_meta_function_name (void)
{
  tree decl = current_function_decl;
  /* Nested functions of one file may share a source name; their assembler
     names (inner.0, inner.1) tell them apart.  */
  return decl_function_context (decl)
             ? IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl))
             : function_name (cfun);
}

void
pp_meta_add_function (const pp_dag *dag, const pp_layout *lay)
{
  tree decl = current_function_decl;
  const char *name = pp_meta_function_name ();
  put32 (&directory, pp_string_index (name));
  put32 (&directory, pp_string_index (DECL_SOURCE_FILE (decl)));
  put64 (&directory, pp_meta_checksum (name, dag));
  put32 (&directory, lay->flags | pp_tpp_flags (dag) | PATHPROF_FN_LINES);
  put32 (&directory, (uint32_t) DECL_SOURCE_LINE (decl));
  put64 (&directory, (uint64_t) dag->npaths);
  put64 (&directory, lay->counter_offset);
  put64 (&directory, lay->verify_offset);
  put32 (&directory, (uint32_t) lay->verify_nodes.size ());
  /* PPP's number of interesting paths, or TPP's configuration word (the
     options refuse the two together), else 0.  */
  put32 (&directory, (lay->flags & PATHPROF_FN_PPP)
                         ? (uint32_t) lay->ppp_size
                               | (pp_opts.ppp_total ? PATHPROF_PPP_TOTAL : 0)
                         : pp_tpp_config (dag));
  put64 (&directory, 0);  /* detail_offset, patched in pp_meta_finish */
  detail_pos.push_back (details.size ());
  nfuncs++;

  /* Version 3 (docs/format.md, section 2): first what the runtime reads
     in place, fixed-size; then the graph and the lines, which only the
     CLI reads, in LEB128 numbers and deltas.  */
  if (lay->flags & PATHPROF_FN_PPP)
    for (size_t i = 0; i < lay->ppp_table.size (); i++)
      put64 (&details, lay->ppp_table[i]);
  /* Grouped by source node, ascending value: the decoder's order.  Cold
     edges (TPP) have no value: the decoder never takes them.  */
  std::vector<int> order = pp_edges_sorted (dag, decoder_order);
  uint32_t nhot = 0;
  std::vector<uint32_t> emitted (dag->edges.size (), PATHPROF_NONE);
  for (size_t k = 0; k < order.size (); k++)
    if (!dag->edges[order[k]].cold)
      emitted[order[k]] = nhot++;
  /* TPP: the obvious paths counted on their defining edges.  */
  if (!dag->derived.empty ())
    {
      put32 (&details, (uint32_t) dag->derived.size ());
      for (size_t i = 0; i < dag->derived.size (); i++)
        {
          put64 (&details, dag->derived[i].first);
          put32 (&details, emitted[dag->derived[i].second]);
          put32 (&details, 0);
        }
    }
  put_graph (dag, order, nhot, (uint32_t) DECL_SOURCE_LINE (decl));
  put_uleb (&details, lay->verify_nodes.size ());
  for (size_t i = 0; i < lay->verify_nodes.size (); i++)
    {
      put_uleb (&details, (uint64_t) lay->verify_nodes[i].first);
      put_uleb (&details, (uint64_t) lay->verify_nodes[i].second);
    }
  put_lines (dag, (uint32_t) DECL_SOURCE_LINE (decl));
}

tree
pp_meta_counters (uint64_t ncounters, uint64_t nderived)
{
  gcc_assert (!counters_var && ncounters);
  ncounters_total = ncounters;
  bool stream = pp_stream_mode ();
  /* Stream mode: the bases, then TPP's derived counters a cache line
     away, so that their increments do not dirty the line every probe
     reads its base from (docs/format.md, section 1).  */
  uint64_t nstream = nderived ? PATHPROF_STREAM_DERIVED_BASE + nderived : 2;
  tree type = build_array_type_nelts (uint64_type_node,
                                      stream ? nstream : ncounters);
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         get_identifier (stream ? "__pathprof_bases"
                                                : "__pathprof_counters"),
                         type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  TREE_ADDRESSABLE (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  SET_DECL_ALIGN (var, MAX (TYPE_ALIGN (type), 64 * BITS_PER_UNIT));
  DECL_USER_ALIGN (var) = 1;
  if (stream)
    {
      /* Until the runtime assigns the real bases, events of this TU carry
         indices no registered TU owns (pathprof-abi.h).  */
      vec<constructor_elt, va_gc> *elts = NULL;
      tree unregistered = build_int_cstu (uint64_type_node,
                                          PATHPROF_STREAM_UNREGISTERED_BASE);
      CONSTRUCTOR_APPEND_ELT (elts, size_int (0), unregistered);
      CONSTRUCTOR_APPEND_ELT (elts, size_int (1), unregistered);
      DECL_INITIAL (var) = build_constructor (type, elts);
    }
  varpool_node::finalize_decl (var);
  counters_var = var;
  return var;
}

static tree
emit_blob (const bytes &blob)
{
  tree type = build_array_type_nelts (unsigned_char_type_node, blob.size ());
  tree str = build_string ((int) blob.size (), (const char *) blob.data ());
  TREE_TYPE (str) = type;
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL,
                         get_identifier ("__pathprof_meta"), type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  TREE_READONLY (var) = 1;
  TREE_ADDRESSABLE (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  DECL_INITIAL (var) = str;
  SET_DECL_ALIGN (var, 64);
  varpool_node::finalize_decl (var);
  return var;
}

static tree
runtime_fn (const char *name, tree type)
{
  tree fn = build_fn_decl (name, type);
  TREE_NOTHROW (fn) = 1;
  return fn;
}

static tree
first_element_addr (tree array_var)
{
  tree elt = TREE_TYPE (TREE_TYPE (array_var));
  return build_fold_addr_expr (build4 (ARRAY_REF, elt, array_var,
                                       size_zero_node, NULL_TREE, NULL_TREE));
}

void
pp_meta_finish (void)
{
  if (!nfuncs)
    return;
  /* Interned before the table's size is taken.  */
  uint32_t build = pp_string_index (pp_build_signature ().c_str ());
  bytes blob;
  blob.insert (blob.end (), PATHPROF_META_MAGIC, PATHPROF_META_MAGIC + 4);
  put32 (&blob, PATHPROF_META_VERSION);
  put32 (&blob, nfuncs);
  put32 (&blob, (uint32_t) pp_string_count ());
  uint64_t strtab_offset = PATHPROF_META_HEADER_SIZE + directory.size ();
  put64 (&blob, strtab_offset);
  put64 (&blob, ncounters_total);
  put32 (&blob, build);
  put32 (&blob, 0);
  size_t dir_at = blob.size ();
  blob.insert (blob.end (), directory.begin (), directory.end ());
  for (uint32_t i = 0; i < pp_string_count (); i++)
    {
      const std::string &str = pp_string_at (i);
      put32 (&blob, (uint32_t) str.size ());
      blob.insert (blob.end (), str.begin (), str.end ());
    }
  uint64_t details_at = blob.size ();
  blob.insert (blob.end (), details.begin (), details.end ());
  for (uint32_t i = 0; i < nfuncs; i++)
    patch64 (&blob, dir_at + i * PATHPROF_META_DIRENT_SIZE + 56,
             details_at + detail_pos[i]);

  tree meta = emit_blob (blob);
  tree u64p = build_pointer_type (uint64_type_node);
  tree ucp = build_pointer_type (build_qualified_type (unsigned_char_type_node,
                                                       TYPE_QUAL_CONST));
  bool stream = pp_stream_mode ();
  tree call;
  if (stream)
    {
      tree reg_type = build_function_type_list (void_type_node,
                                                uint32_type_node, ucp,
                                                uint64_type_node, u64p,
                                                NULL_TREE);
      tree reg = runtime_fn ("__pathprof_register_stream_tu", reg_type);
      call = build_call_expr (
          reg, 4, build_int_cst (uint32_type_node, PATHPROF_ABI_VERSION),
          fold_convert (ucp, first_element_addr (meta)),
          build_int_cstu (uint64_type_node, blob.size ()),
          first_element_addr (counters_var));
    }
  else
    {
      tree reg_type = build_function_type_list (void_type_node,
                                                uint32_type_node, ucp,
                                                uint64_type_node, u64p,
                                                uint64_type_node, NULL_TREE);
      tree reg = runtime_fn ("__pathprof_register_tu", reg_type);
      call = build_call_expr (
          reg, 5, build_int_cst (uint32_type_node, PATHPROF_ABI_VERSION),
          fold_convert (ucp, first_element_addr (meta)),
          build_int_cstu (uint64_type_node, blob.size ()),
          first_element_addr (counters_var),
          build_int_cstu (uint64_type_node, ncounters_total));
    }
  tree body = NULL_TREE;
  append_to_statement_list (call, &body);
  /* Stream mode registers before user constructors run (101 is the first
     priority open to programs): events carry the TU's base, which is 0
     until registration.  */
  cgraph_build_static_cdtor ('I', body, stream ? 101 : DEFAULT_INIT_PRIORITY);

  tree unreg_type = build_function_type_list (void_type_node, u64p, NULL_TREE);
  tree unreg = runtime_fn (stream ? "__pathprof_unregister_stream_tu"
                                  : "__pathprof_unregister_tu",
                           unreg_type);
  body = NULL_TREE;
  append_to_statement_list (
      build_call_expr (unreg, 1, first_element_addr (counters_var)), &body);
  /* Unregistration (a snapshot of the counters in counting mode) runs
     after every destructor of the module a program may declare: 101 is
     the last to run.  At the default priority it ran among them, and a
     library's own destructor that runs its code (libxml2's xmlDestructor
     calling xmlCleanupParser) counted into counters already copied: lost
     in counting mode, kept in stream mode (tests/dtor-order.t).  */
  cgraph_build_static_cdtor ('D', body, 101);
}
