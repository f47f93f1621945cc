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
 * - the totals of the section (nodes, leaves, leaf depths) match the forest.
 * Siblings with equal labels are caught by kipf_merge(). */
#include <inttypes.h>
#include <stdlib.h>

#include "base/bytes.h"
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
                      struct path_memo *memo, struct pp_error *err)
{
    const struct pp_func_meta *m;
    uint32_t reserved, nblocks;

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
    if (!path_memo_nblocks(memo, m, n->id, &nblocks, err))
        return pp_context(err, "function %s", m->name);
    if (n->count == 0)
        return pp_fail(err, "count 0");
    return true;
}

struct open_node {
    size_t node;        /* KIPF_NONE: the list of roots */
    size_t last;        /* last child linked so far */
    uint64_t left;      /* children still to read */
    uint64_t sum;       /* of the children's counts, saturated */
};

static bool read_forest(struct pp_cursor *c, const struct pp_profile *p, struct pp_kipf *k,
                        struct kipf_raw *raw, size_t room, size_t *nraw, size_t *first_root,
                        struct path_memo *memo, struct pp_error *err)
{
    struct open_node stack[KIPF_MAX_K + 1];
    uint64_t announced = k->nroots, leaves = 0, depth_sum = 0;
    bool compact = k->flags & KIPF_FLAG_COMPACT;
    size_t n = 0, node_min = compact ? COMPACT_NODE_MIN : NODE_SIZE;
    int top = 0;

    *first_root = KIPF_NONE;
    stack[0] = (struct open_node){ KIPF_NONE, KIPF_NONE, k->nroots, 0 };
    while (top >= 0) {
        struct open_node *o = &stack[top];
        struct kipf_raw *parent = o->node == KIPF_NONE ? NULL : &raw[o->node];
        uint32_t nchildren = 0;

        if (o->left == 0) {
            if (parent && o->sum > parent->count)
                return pp_fail(err, "node %zu: count %" PRIu64 " below the sum of its "
                                    "children's (%" PRIu64 ")", o->node, parent->count,
                               o->sum);
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
        if (!read_node(c, p, compact, parent, &raw[n], &nchildren, memo, err))
            return pp_context(err, "node %zu (depth %d)", n, top);
        raw[n].depth = (uint32_t)top;
        announced = announced - 1 + nchildren;
        if (nchildren && (uint32_t)top + 1 >= k->k)
            return pp_fail(err, "node %zu at depth %d has children: with k = %" PRIu32
                                ", depth %" PRIu32 " is the deepest",
                           n, top, k->k, k->k - 1);
        if (o->last == KIPF_NONE) {
            if (parent)
                parent->first = n;
            else
                *first_root = n;
        } else {
            raw[o->last].next = n;
        }
        o->last = n;
        o->left--;
        o->sum = o->sum + raw[n].count < o->sum ? UINT64_MAX : o->sum + raw[n].count;
        if (nchildren == 0) {
            leaves++;
            depth_sum += (uint64_t)top;
        }
        stack[++top] = (struct open_node){ n, KIPF_NONE, nchildren, 0 };
        n++;
    }
    *nraw = n;
    if (k->kipf_nodes != n)
        return pp_fail(err, "the section says %" PRIu64 " k-IPF nodes, the forest has %zu",
                       k->kipf_nodes, n);
    if (k->leaves != leaves || k->leaf_depth_sum != depth_sum)
        return pp_fail(err, "the section says %" PRIu64 " leaves of depths summing to %" PRIu64
                            ", the forest has %" PRIu64 " summing to %" PRIu64,
                       k->leaves, k->leaf_depth_sum, leaves, depth_sum);
    return true;
}

bool kipf_read(const unsigned char *body, size_t len, struct pp_profile *p,
               struct pp_error *err)
{
    struct pp_cursor c = pp_cursor_at(body, len, 0);
    struct pp_kipf *k = calloc(1, sizeof *k);
    struct kipf_raw *raw = NULL;
    struct path_memo *memo = NULL;
    size_t nraw = 0, first_root, room;
    bool ok;

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
    raw = malloc((room ? room : 1) * sizeof *raw);
    if (raw)
        memo = path_memo_new(p);
    if (!raw || !memo) {
        free(raw);
        return pp_fail(err, "out of memory");
    }
    ok = read_forest(&c, p, k, raw, room, &nraw, &first_root, memo, err);
    if (ok && pp_cursor_left(&c) != 0)
        ok = pp_fail(err, "%zu unexplained bytes after the forest", pp_cursor_left(&c));
    if (ok)
        ok = kipf_merge(p, k, raw, nraw, first_root, err);
    path_memo_free(memo);
    free(raw);
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
