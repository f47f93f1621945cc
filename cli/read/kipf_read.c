/* kipf_read.c - strict reader of the KIPF section (docs/format.md, sec. 3).
 *
 * The same rules as the rest of the reader: every count is compared with
 * the bytes left before anything is allocated from it, and every node must
 * be consistent with the section and the profile's TUs:
 * - its label names an existing TU section, function and path ID, and the
 *   ID decodes in that function's graph;
 * - a sequence lies within one activation of one function, so a child has
 *   its parent's function;
 * - it is at most k deep, its count is non-zero and at least the sum of
 *   its children's;
 * - the announced children fit in the bytes left (a lying nchildren cannot
 *   make the reader wait for nodes that do not exist), and the forest has
 *   no more nodes than the section announces (memory is allocated for
 *   those, never more than the bytes left could hold);
 * - the totals of the section (nodes, leaves, leaf depths) match the forest;
 * - no two siblings have one label (checked as they come when the file is
 *   in order, else by kipf_merge()). */
#include <inttypes.h>
#include <stdlib.h>

#include "base/bytes.h"
#include "base/largest.h"
#include "kipf_raw.h"
#include "path_memo.h"

/* A node's size: fixed, or at least this in the compact encoding (a child:
 * path ID, count and children in one byte each; docs/format.md). */
#define NODE_SIZE 32u
#define COMPACT_NODE_MIN 3u
#define FIXED_SIZE (4 + 4 + 5 * 8 + 4 + 4)
#define LEVEL_SIZE 24u

static bool read_fixed(struct pp_cursor *c, struct pp_kipf *k, struct pp_error *err)
{
    uint32_t reserved, i, want;

    if (pp_cursor_left(c) < FIXED_SIZE)
        return pp_fail(err, "truncated in its fixed part");
    k->k = pp_take_u32(c);
    k->flags = pp_take_u32(c);
    k->threads = pp_take_u64(c);
    k->events = pp_take_u64(c);
    k->ksf_nodes = pp_take_u64(c);
    k->kipf_nodes = pp_take_u64(c);
    k->hash_ops = pp_take_u64(c);
    k->nlevels = pp_take_u32(c);
    reserved = pp_take_u32(c);
    if (k->k < 1 || k->k > KIPF_MAX_K)
        return pp_fail(err, "k = %" PRIu32 " (1 to %u)", k->k, KIPF_MAX_K);
    if (k->flags & ~(KIPF_FLAG_PRUNED | KIPF_FLAG_COMPACT))
        return pp_fail(err, "unknown flags 0x%" PRIx32, k->flags);
    if (reserved != 0)
        return pp_fail(err, "reserved field is %" PRIu32 ", not 0", reserved);
    want = k->k == 1 ? 1 : 2 * k->k - 2;
    if (k->nlevels != want)
        return pp_fail(err, "%" PRIu32 " k-SF levels, k = %" PRIu32 " has %" PRIu32,
                       k->nlevels, k->k, want);
    if (k->nlevels > pp_cursor_left(c) / LEVEL_SIZE)
        return pp_fail(err, "%" PRIu32 " levels do not fit in the %zu bytes left",
                       k->nlevels, pp_cursor_left(c));
    k->levels = calloc(k->nlevels, sizeof *k->levels);
    if (!k->levels)
        return pp_fail(err, "out of memory");
    for (i = 0; i < k->nlevels; i++) {
        struct kipf_level *l = &k->levels[i];
        l->nodes = pp_take_u64(c);
        l->internal = pp_take_u64(c);
        l->children = pp_take_u64(c);
        if (l->internal > l->nodes || l->children < l->internal)
            return pp_fail(err, "k-SF level %" PRIu32 ": %" PRIu64 " nodes, %" PRIu64
                                " internal, %" PRIu64 " children do not add up",
                           i, l->nodes, l->internal, l->children);
    }
    if (!pp_get_u64(c, &k->leaves) || !pp_get_u64(c, &k->leaf_depth_sum) ||
        !pp_get_u64(c, &k->nroots))
        return pp_fail(err, "truncated before the forest");
    return true;
}

/* One node's own fields; PARENT is NULL for a root. */
static bool read_node(struct pp_cursor *c, const struct pp_profile *p, bool compact,
                      const struct kipf_raw *parent, struct kipf_raw *n, uint32_t *nchildren,
                      uint32_t *nblocks, struct path_memo *memo, struct pp_error *err)
{
    const struct pp_func_meta *m;
    uint32_t reserved;

    if (compact) {
        uint64_t tu = parent ? parent->tu : 0, func = parent ? parent->func : 0, nch = 0;
        if ((!parent && (!pp_get_uleb(c, &tu) || !pp_get_uleb(c, &func))) ||
            !pp_get_uleb(c, &n->id) || !pp_get_uleb(c, &n->count) || !pp_get_uleb(c, &nch))
            return pp_fail(err, "truncated or a number of more than 64 bits");
        if (tu > UINT32_MAX || func > UINT32_MAX || nch > UINT32_MAX)
            return pp_fail(err, "TU %" PRIu64 ", function %" PRIu64 ", %" PRIu64
                                " children: beyond 32 bits", tu, func, nch);
        n->tu = (uint32_t)tu;
        n->func = (uint32_t)func;
        *nchildren = (uint32_t)nch;
    } else {
        n->tu = pp_take_u32(c);
        n->func = pp_take_u32(c);
        n->id = pp_take_u64(c);
        n->count = pp_take_u64(c);
        *nchildren = pp_take_u32(c);
        reserved = pp_take_u32(c);
        if (reserved != 0)
            return pp_fail(err, "reserved field is %" PRIu32 ", not 0", reserved);
    }
    n->first = n->next = KIPF_NONE;
    if (n->tu >= p->ntus)
        return pp_fail(err, "TU %" PRIu32 ", the profile has %zu TU sections", n->tu,
                       p->ntus);
    if (n->func >= p->tus[n->tu].nfuncs)
        return pp_fail(err, "function %" PRIu32 ", TU %" PRIu32 " has %" PRIu32, n->func,
                       n->tu, p->tus[n->tu].nfuncs);
    m = &p->tus[n->tu].funcs[n->func];
    if (parent && (parent->tu != n->tu || parent->func != n->func))
        return pp_fail(err, "function %s, its parent's is %s: a k-iteration path lies "
                            "within one function", m->name,
                       p->tus[parent->tu].funcs[parent->func].name);
    if (!path_memo_nblocks(memo, m, n->id, nblocks, err))
        return pp_context(err, "function %s", m->name);
    if (n->count == 0)
        return pp_fail(err, "count 0");
    return true;
}

/* Where read_forest puts the nodes.  In order (the runtime writes siblings
 * in (TU, function, path ID) order): straight into k->nodes, which is then
 * the forest the commands read, as kipf_merge would have made it, provided
 * no function has two copies (MAP one-to-one).  Otherwise into RAW, linked,
 * for kipf_merge.  Reading in order stops, with OUT_OF_ORDER set and no
 * error, at the first two siblings out of order: the caller reads again
 * into RAW (a valid profile need not be in order). */
struct forest_sink {
    bool in_order;
    struct kipf_raw *raw;      /* !in_order */
    struct kipf_node *nodes;   /* in_order */
    const size_t *map, *off;   /* in_order: label (TU, function) -> profile function */
    bool out_of_order;
    /* In order, for one ranking (kipf.h, struct kipf_keep): NODES grows to
     * NKEPT of CAP, and BY_COUNT / BY_WEIGHT hold the TOP largest counts
     * and weights of the selected nodes read so far, TOTAL their number. */
    const struct kipf_keep *keep;
    size_t nkept, cap;
    struct largest by_count, by_weight;
    uint64_t total;
};

struct open_node {
    size_t node;          /* KIPF_NONE: the list of roots */
    size_t last;          /* last child read so far */
    uint64_t left;        /* children still to read */
    uint64_t sum;         /* of the children's counts, saturated */
    struct kipf_raw self; /* the node's own fields, for its children's checks */
    size_t last_func;     /* in order: the last child's profile function and path ID */
    uint64_t last_id;
    uint64_t blocks;      /* blocks of the sequence ending here */
    size_t kept;          /* keep: its index in NODES, KIPF_NONE while not kept */
};

/* Node N (its fields CUR) as the next child of O, in order.  False: out of
 * order (s->out_of_order) or two siblings with one label (err set). */
static bool put_in_order(struct forest_sink *s, const struct pp_profile *p,
                         const struct open_node *o, const struct kipf_raw *cur, size_t n,
                         uint32_t depth, struct pp_error *err)
{
    size_t f = s->map[s->off[cur->tu] + cur->func];
    if (o->last != KIPF_NONE) {
        if (o->last_func == f && o->last_id == cur->id)
            return pp_fail(err, "nodes %zu and %zu: siblings with one label (TU %" PRIu32
                                ", function %s, path %" PRIu64 ")", o->last, n, cur->tu,
                           p->funcs[f].meta->name, cur->id);
        if (o->last_func > f || (o->last_func == f && o->last_id > cur->id)) {
            s->out_of_order = true;
            return false;
        }
    }
    if (!s->keep)
        s->nodes[n] = (struct kipf_node){ f, cur->id, cur->count, depth, o->node, n + 1 };
    return true;
}

/* Reading for a ranking.  A node is kept when its count or its weight is
 * at least the TOP-th largest among the selected nodes read before it:
 * one that fails can never be in the first TOP of the whole forest, by
 * count or by weight, ties included, so the ranking of what is kept is
 * the whole forest's (query/kipf_paths.c ranks ties by node order, which
 * keeping preserves).  A kept node's ancestors are kept too, when it is
 * (the report prints the sequence from its root); an ancestor kept late
 * still comes before its descendants, so NODES stays in preorder. */
static bool keep_append(struct forest_sink *s, struct open_node *e, uint32_t depth,
                        size_t parent, struct pp_error *err)
{
    if (s->nkept == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        struct kipf_node *v = realloc(s->nodes, cap * sizeof *v);
        if (!v)
            return pp_fail(err, "out of memory");
        s->nodes = v;
        s->cap = cap;
    }
    size_t f = s->map[s->off[e->self.tu] + e->self.func];
    s->nodes[s->nkept] =
        (struct kipf_node){ f, e->self.id, e->self.count, depth, parent, s->nkept + 1 };
    e->kept = s->nkept++;
    return true;
}

/* STACK[1..TOP] are the open nodes from a root down to the one just read. */
static bool keep_consider(struct forest_sink *s, struct open_node *stack, int top,
                          struct pp_error *err)
{
    const struct open_node *e = &stack[top];
    const struct kipf_keep *w = s->keep;
    if (e->self.count < w->min_count || (uint32_t)top < w->min_length)
        return true;
    uint64_t weight = kipf_weight(e->self.count, e->blocks);
    s->total++;
    bool may = largest_may_rank(&s->by_count, e->self.count) ||
               largest_may_rank(&s->by_weight, weight);
    largest_add(&s->by_count, e->self.count);
    largest_add(&s->by_weight, weight);
    for (int t = 1; may && t <= top; t++)
        if (stack[t].kept == KIPF_NONE &&
            !keep_append(s, &stack[t], (uint32_t)t - 1, t > 1 ? stack[t - 1].kept : KIPF_NONE,
                         err))
            return false;
    return true;
}

static bool read_forest(struct pp_cursor *c, const struct pp_profile *p, struct pp_kipf *k,
                        struct forest_sink *s, size_t room, size_t *nread, size_t *first_root,
                        struct path_memo *memo, struct pp_error *err)
{
    struct open_node stack[KIPF_MAX_K + 1];
    uint64_t announced = k->nroots, leaves = 0, depth_sum = 0;
    bool compact = k->flags & KIPF_FLAG_COMPACT;
    size_t n = 0, node_min = compact ? COMPACT_NODE_MIN : NODE_SIZE;
    int top = 0;

    *first_root = KIPF_NONE;
    stack[0] = (struct open_node){ KIPF_NONE, KIPF_NONE, k->nroots, 0, { 0 }, 0, 0, 0,
                                   KIPF_NONE };
    while (top >= 0) {
        struct open_node *o = &stack[top];
        const struct kipf_raw *parent = o->node == KIPF_NONE ? NULL : &o->self;
        struct kipf_raw cur;
        uint32_t nchildren = 0, nblocks = 0;

        if (o->left == 0) {
            if (parent && o->sum > parent->count)
                return pp_fail(err, "node %zu: count %" PRIu64 " below the sum of its "
                                    "children's (%" PRIu64 ")", o->node, parent->count,
                               o->sum);
            if (s->in_order && !s->keep && o->node != KIPF_NONE)
                s->nodes[o->node].end = n;
            if (s->keep && o->kept != KIPF_NONE)
                s->nodes[o->kept].end = s->nkept;
            top--;
            continue;
        }
        /* Every node announced and not yet read must still fit. */
        if (announced > pp_cursor_left(c) / node_min)
            return pp_fail(err, "%" PRIu64 " nodes announced do not fit in the %zu bytes "
                                "left (node %zu)", announced, pp_cursor_left(c), n);
        if (n == room)
            return pp_fail(err, "the section says %" PRIu64 " k-IPF nodes, the forest has "
                                "more", k->kipf_nodes);
        if (!read_node(c, p, compact, parent, &cur, &nchildren, &nblocks, memo, err))
            return pp_context(err, "node %zu (depth %d)", n, top);
        cur.depth = (uint32_t)top;
        announced = announced - 1 + nchildren;
        if (nchildren && (uint32_t)top + 1 >= k->k)
            return pp_fail(err, "node %zu at depth %d has children: with k = %" PRIu32
                                ", depth %" PRIu32 " is the deepest",
                           n, top, k->k, k->k - 1);
        if (s->in_order) {
            if (!put_in_order(s, p, o, &cur, n, (uint32_t)top, err))
                return false;
        } else {
            s->raw[n] = cur;
            if (o->last != KIPF_NONE)
                s->raw[o->last].next = n;
            else if (parent)
                s->raw[o->node].first = n;
            else
                *first_root = n;
        }
        o->last = n;
        if (s->in_order) {
            o->last_func = s->map[s->off[cur.tu] + cur.func];
            o->last_id = cur.id;
        }
        o->left--;
        o->sum = o->sum + cur.count < o->sum ? UINT64_MAX : o->sum + cur.count;
        if (nchildren == 0) {
            leaves++;
            depth_sum += (uint64_t)top;
        }
        uint64_t blocks = (top > 0 ? o->blocks : 0) + nblocks;
        stack[++top] = (struct open_node){ n, KIPF_NONE, nchildren, 0, cur, 0, 0, blocks,
                                           KIPF_NONE };
        if (s->keep && !keep_consider(s, stack, top, err))
            return false;
        n++;
    }
    *nread = n;
    if (k->kipf_nodes != n)
        return pp_fail(err, "the section says %" PRIu64 " k-IPF nodes, the forest has %zu",
                       k->kipf_nodes, n);
    if (k->leaves != leaves || k->leaf_depth_sum != depth_sum)
        return pp_fail(err, "the section says %" PRIu64 " leaves of depths summing to %" PRIu64
                            ", the forest has %" PRIu64 " summing to %" PRIu64,
                       k->leaves, k->leaf_depth_sum, leaves, depth_sum);
    return true;
}

/* MAP[g] for every file function g (kipf_merge.h) and OFF[t], the first g
 * of TU t; *ONE_TO_ONE: no two file functions are one profile function. */
static bool label_map(const struct pp_profile *p, size_t **map, size_t **off, bool *one_to_one,
                      struct pp_error *err)
{
    size_t nlabels = 0, t, g;
    bool *seen = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *seen);
    *off = malloc((p->ntus ? p->ntus : 1) * sizeof **off);
    for (t = 0; *off && t < p->ntus; t++) {
        (*off)[t] = nlabels;
        nlabels += p->tus[t].nfuncs;
    }
    *map = malloc((nlabels ? nlabels : 1) * sizeof **map);
    if (!seen || !*off || !*map) {
        free(seen);
        return pp_fail(err, "out of memory");
    }
    if (!kipf_map_functions(p, *map, err)) {
        free(seen);
        return false;
    }
    *one_to_one = true;
    for (g = 0; g < nlabels; g++) {
        *one_to_one &= !seen[(*map)[g]];
        seen[(*map)[g]] = true;
    }
    free(seen);
    return true;
}

bool kipf_read(const unsigned char *body, size_t len, struct pp_profile *p,
               struct pp_error *err)
{
    struct pp_cursor c = pp_cursor_at(body, len, 0), forest;
    struct pp_kipf *k = calloc(1, sizeof *k);
    struct forest_sink s = { 0 };
    struct path_memo *memo = NULL;
    size_t nread = 0, first_root, room, *map = NULL, *off = NULL;
    bool ok, one_to_one = false;

    if (!k)
        return pp_fail(err, "out of memory");
    p->kipf = k; /* profile_free frees a partial one */
    if (!read_fixed(&c, k, err))
        return false;
    room = pp_cursor_left(&c) / (k->flags & KIPF_FLAG_COMPACT ? COMPACT_NODE_MIN : NODE_SIZE);
    if (k->nroots > room)
        return pp_fail(err, "%" PRIu64 " roots do not fit in the %zu bytes left", k->nroots,
                       pp_cursor_left(&c));
    if (k->kipf_nodes < room)
        room = (size_t)k->kipf_nodes;
    memo = path_memo_new(p);
    if (!memo)
        return pp_fail(err, "out of memory");
    ok = label_map(p, &map, &off, &one_to_one, err);
    forest = c;
    /* For one ranking, in order: only what can rank is kept. */
    if (ok && one_to_one && p->kipf_keep && p->kipf_keep->top) {
        const struct kipf_keep *w = p->kipf_keep;
        s = (struct forest_sink){ .in_order = true, .map = map, .off = off, .keep = w };
        s.by_count = (struct largest){ malloc(w->top * sizeof(uint64_t)), 0, (size_t)w->top };
        s.by_weight = (struct largest){ malloc(w->top * sizeof(uint64_t)), 0, (size_t)w->top };
        if (w->top > SIZE_MAX / 16 || !s.by_count.h || !s.by_weight.h)
            ok = pp_fail(err, "out of memory");
        else if (read_forest(&c, p, k, &s, room, &nread, &first_root, memo, err)) {
            k->nnodes = s.nkept;
            k->kept_only = true;
            k->kept_total = s.total;
        } else if (!s.out_of_order)
            ok = false;
        k->nodes = s.nodes;
        free(s.by_count.h);
        free(s.by_weight.h);
        if (ok && s.out_of_order) {
            free(k->nodes);
            k->nodes = NULL;
            c = forest; /* read it again into RAW, for kipf_merge */
        }
    }
    /* In order first: no copy of the file's nodes, no sorting, no merge. */
    else if (ok && one_to_one) {
        s = (struct forest_sink){ .in_order = true, .map = map, .off = off };
        k->nodes = s.nodes = malloc((room ? room : 1) * sizeof *k->nodes);
        if (!k->nodes)
            ok = pp_fail(err, "out of memory");
        else if (read_forest(&c, p, k, &s, room, &nread, &first_root, memo, err))
            k->nnodes = nread;
        else if (s.out_of_order)
            c = forest; /* read it again into RAW, for kipf_merge */
        else
            ok = false;
    }
    if (ok && !k->nnodes && (!one_to_one || s.out_of_order)) {
        free(k->nodes);
        k->nodes = NULL;
        s = (struct forest_sink){ .raw = malloc((room ? room : 1) * sizeof *s.raw) };
        if (!s.raw)
            ok = pp_fail(err, "out of memory");
        else
            ok = read_forest(&c, p, k, &s, room, &nread, &first_root, memo, err) &&
                 kipf_merge(p, k, s.raw, nread, first_root, err);
        free(s.raw);
    }
    if (ok && pp_cursor_left(&c) != 0)
        ok = pp_fail(err, "%zu unexplained bytes after the forest", pp_cursor_left(&c));
    path_memo_free(memo);
    free(map);
    free(off);
    return ok;
}

void kipf_free(struct pp_kipf *k)
{
    if (!k)
        return;
    free(k->levels);
    free(k->nodes);
    free(k);
}

size_t kipf_find_root(const struct pp_kipf *k, size_t func, uint64_t id)
{
    size_t i;
    for (i = k->nnodes ? 0 : KIPF_NONE; i != KIPF_NONE; i = kipf_next_sibling(k, i))
        if (k->nodes[i].func == func && k->nodes[i].id == id)
            return i;
    return KIPF_NONE;
}
