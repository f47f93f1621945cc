/* wpp_hot.c - hot subpaths on a grammar (see wpp_hot.h). */
#include "wpp_hot.h"

#include <stdlib.h>
#include <string.h>

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t s;
    return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t s;
    return __builtin_mul_overflow(a, b, &s) ? UINT64_MAX : s;
}

/* ---- a map from strings of terminals to their subpath ------------------ */

struct strmap {
    struct wpp_subs *subs;
    size_t *slot; /* index + 1 into subs, 0 empty */
    size_t mask;
};

static uint64_t hash_str(const uint64_t *t, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ t[i]) * 0x100000001b3ull, h ^= h >> 29;
    return h;
}

static bool map_init(struct strmap *m, struct wpp_subs *subs)
{
    m->subs = subs;
    m->mask = 1023;
    m->slot = calloc(m->mask + 1, sizeof *m->slot);
    return m->slot != NULL;
}

static bool map_grow(struct strmap *m)
{
    size_t mask = m->mask * 2 + 1;
    size_t *slot = calloc(mask + 1, sizeof *slot);
    if (!slot)
        return false;
    for (size_t i = 0; i < m->subs->n; i++) {
        const struct wpp_sub *s = &m->subs->v[i];
        size_t j = hash_str(s->terms, s->len) & mask;
        while (slot[j])
            j = (j + 1) & mask;
        slot[j] = i + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->mask = mask;
    return true;
}

/* The subpath T[0..n), added when ADD (else NULL when absent). */
static struct wpp_sub *map_get(struct strmap *m, const uint64_t *t, uint32_t n, bool add,
                               bool *nomem)
{
    size_t j = hash_str(t, n) & m->mask;
    for (; m->slot[j]; j = (j + 1) & m->mask) {
        struct wpp_sub *s = &m->subs->v[m->slot[j] - 1];
        if (s->len == n && memcmp(s->terms, t, n * sizeof *t) == 0)
            return s;
    }
    if (!add)
        return NULL;
    struct wpp_subs *v = m->subs;
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        struct wpp_sub *nv = realloc(v->v, cap * sizeof *nv);
        if (!nv)
            return *nomem = true, NULL;
        v->v = nv;
        v->cap = cap;
    }
    struct wpp_sub *s = &v->v[v->n];
    memset(s, 0, sizeof *s);
    s->terms = malloc(n * sizeof *t);
    if (!s->terms)
        return *nomem = true, NULL;
    memcpy(s->terms, t, n * sizeof *t);
    s->len = n;
    m->slot[j] = ++v->n;
    if (v->n * 2 > m->mask && !map_grow(m))
        return *nomem = true, NULL;
    return s;
}

/* ---- per-rule prefixes, suffixes and frequencies ------------------------ */

struct rules {
    const struct wpp_grammar *g;
    uint32_t L;
    uint64_t *freq;
    uint64_t *pre, *suf; /* L terminals per rule */
    uint32_t *npre, *nsuf;
};

static void rules_free(struct rules *r)
{
    free(r->freq), free(r->pre), free(r->suf), free(r->npre), free(r->nsuf);
}

static bool rules_init(struct rules *r, const struct wpp_grammar *g, uint32_t L)
{
    uint64_t n = g->nrules;
    memset(r, 0, sizeof *r);
    r->g = g;
    r->L = L;
    r->freq = calloc(n, sizeof *r->freq);
    r->pre = malloc(n * L * sizeof *r->pre);
    r->suf = malloc(n * L * sizeof *r->suf);
    r->npre = calloc(n, sizeof *r->npre);
    r->nsuf = calloc(n, sizeof *r->nsuf);
    if (!r->freq || !r->pre || !r->suf || !r->npre || !r->nsuf)
        return rules_free(r), false;
    r->freq[n - 1] = 1;
    for (uint64_t i = n; i-- > 0;)
        for (uint64_t k = g->first[i]; k < g->first[i + 1]; k++)
            if (g->rhs[k] & 1)
                r->freq[g->rhs[k] >> 1] = sat_add(r->freq[g->rhs[k] >> 1], r->freq[i]);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t *p = r->pre + i * L, *s = r->suf + i * L;
        uint32_t np = 0;
        for (uint64_t k = g->first[i]; k < g->first[i + 1] && np < L; k++) {
            uint64_t x = g->rhs[k];
            if (!(x & 1))
                p[np++] = x >> 1;
            else
                for (uint32_t j = 0; j < r->npre[x >> 1] && np < L; j++)
                    p[np++] = r->pre[(x >> 1) * L + j];
        }
        r->npre[i] = np;
        /* The suffix, filled from its end. */
        uint64_t tmp[64];
        uint32_t ns = 0;
        for (uint64_t k = g->first[i + 1]; k-- > g->first[i] && ns < L;) {
            uint64_t x = g->rhs[k];
            if (!(x & 1))
                tmp[ns++] = x >> 1;
            else {
                uint32_t cn = r->nsuf[x >> 1];
                for (uint32_t j = cn; j-- > 0 && ns < L;)
                    tmp[ns++] = r->suf[(x >> 1) * L + j];
            }
        }
        for (uint32_t j = 0; j < ns; j++)
            s[j] = tmp[ns - 1 - j];
        r->nsuf[i] = ns;
    }
    return true;
}

/* ---- exact counts: every occurrence at the rule where it crosses -------- */

static bool count_exact(const struct rules *R, uint32_t min_len, uint32_t max_len, bool add,
                        struct strmap *m)
{
    const struct wpp_grammar *g = R->g;
    uint32_t L = R->L;
    uint64_t buf[128];
    bool nomem = false;
    for (uint64_t r = 0; r < g->nrules; r++) {
        uint64_t a = g->first[r], b = g->first[r + 1];
        for (uint64_t i = a; i < b; i++) {
            uint64_t x = g->rhs[i];
            /* Start offsets: a terminal, or within the child's last L - 1
             * symbols so that the occurrence leaves it. */
            uint32_t starts = 1;
            const uint64_t *tail = NULL;
            if (x & 1) {
                uint32_t ns = R->nsuf[x >> 1];
                starts = ns < L - 1 ? ns : L - 1;
                tail = R->suf + (x >> 1) * L + (ns - starts);
            }
            for (uint32_t st = 0; st < starts; st++) {
                uint32_t n = 0, inside;
                if (x & 1) {
                    for (uint32_t j = st; j < starts; j++)
                        buf[n++] = tail[j];
                    inside = n; /* lengths up to this stay inside the child */
                } else {
                    buf[n++] = x >> 1;
                    inside = 0;
                }
                for (uint64_t k = i + 1; k < b && n < max_len; k++) {
                    uint64_t y = g->rhs[k];
                    if (!(y & 1))
                        buf[n++] = y >> 1;
                    else
                        for (uint32_t j = 0; j < R->npre[y >> 1] && n < max_len; j++)
                            buf[n++] = R->pre[(y >> 1) * L + j];
                }
                for (uint32_t len = min_len; len <= n && len <= max_len; len++) {
                    if (len <= inside)
                        continue;
                    struct wpp_sub *s = map_get(m, buf, len, add, &nomem);
                    if (nomem)
                        return false;
                    if (s)
                        s->count = sat_add(s->count, R->freq[r]);
                }
            }
        }
    }
    return true;
}

/* ---- Fig. 7 --------------------------------------------------------------- */

struct lstr {
    uint64_t t[64];
    uint32_t n;
};

struct fig7 {
    const struct rules *R;
    const uint64_t *cost;
    uint32_t min_len, max_len;
    uint64_t min_cost;
    struct strmap *m;
    /* per rule */
    struct lstr *prefix, *suffix;
    bool *covers, *frozen;
    bool nomem;
};

static uint64_t lstr_cost(const struct fig7 *f, const struct lstr *s)
{
    uint64_t c = 0;
    for (uint32_t i = 0; i < s->n; i++)
        c = sat_add(c, f->cost[s->t[i]]);
    return c;
}

static void append_terminal(struct fig7 *f, uint64_t rule, struct lstr *sub, uint64_t t)
{
    struct lstr *p = &f->prefix[rule];
    if (p->n < f->max_len && !f->frozen[rule])
        p->t[p->n++] = t;
    else
        f->covers[rule] = false;
    if (sub->n == f->max_len) { /* L-limited: the oldest symbol goes */
        memmove(sub->t, sub->t + 1, (sub->n - 1) * sizeof *sub->t);
        sub->n--;
    }
    sub->t[sub->n++] = t;
    uint64_t expense = sat_mul(lstr_cost(f, sub), f->R->freq[rule]);
    if (f->min_cost <= expense && f->min_len <= sub->n) {
        struct wpp_sub *s = map_get(f->m, sub->t, sub->n, true, &f->nomem);
        if (s) {
            s->found = sat_add(s->found, f->R->freq[rule]);
            s->cost = lstr_cost(f, sub);
        }
        sub->n = 0;
        f->frozen[rule] = true; /* the prefix stops before a hot subpath */
    }
}

static bool fig7(const struct rules *R, const uint64_t *cost, uint32_t min_len,
                 uint32_t max_len, uint64_t min_cost, struct strmap *m)
{
    const struct wpp_grammar *g = R->g;
    struct fig7 f = {R, cost, min_len, max_len, min_cost, m, NULL, NULL, NULL, NULL, false};
    f.prefix = calloc(g->nrules, sizeof *f.prefix);
    f.suffix = calloc(g->nrules, sizeof *f.suffix);
    f.covers = calloc(g->nrules, sizeof *f.covers);
    f.frozen = calloc(g->nrules, sizeof *f.frozen);
    bool ok = f.prefix && f.suffix && f.covers && f.frozen;
    /* Postorder: a rule uses only rules before it. */
    for (uint64_t r = 0; ok && r < g->nrules && !f.nomem; r++) {
        struct lstr sub = {.n = 0};
        f.covers[r] = true;
        for (uint64_t k = g->first[r]; k < g->first[r + 1]; k++) {
            uint64_t x = g->rhs[k];
            if (!(x & 1)) {
                append_terminal(&f, r, &sub, x >> 1);
                continue;
            }
            uint64_t c = x >> 1;
            for (uint32_t j = 0; j < f.prefix[c].n; j++)
                append_terminal(&f, r, &sub, f.prefix[c].t[j]);
            if (!f.covers[c]) {
                /* The child is wider than its prefix: the window goes on
                 * from the child's suffix, and this rule's prefix, which
                 * lacks the child's middle, ends here (it would no longer
                 * be the start of this rule's expansion: found on a
                 * -O0 build, whose hot subpaths were not in the trace). */
                sub = f.suffix[c];
                f.covers[r] = false;
                f.frozen[r] = true;
            }
        }
        f.suffix[r] = sub;
    }
    ok = ok && !f.nomem;
    free(f.prefix), free(f.suffix), free(f.covers), free(f.frozen);
    return ok;
}

bool wpp_hot(const struct wpp_grammar *g, const uint64_t *cost, uint32_t min_len,
             uint32_t max_len, uint64_t min_cost, bool all, struct wpp_subs *out,
             struct pp_error *err)
{
    struct rules R;
    struct strmap m;
    memset(out, 0, sizeof *out);
    if (max_len < 1 || max_len > 64 || min_len < 1 || min_len > max_len)
        return pp_fail(err, "lengths must satisfy 1 <= min <= max <= 64");
    if (!rules_init(&R, g, max_len))
        return pp_fail(err, "out of memory");
    if (!map_init(&m, out)) {
        rules_free(&R);
        return pp_fail(err, "out of memory");
    }
    bool ok = all ? count_exact(&R, min_len, max_len, true, &m)
                  : fig7(&R, cost, min_len, max_len, min_cost, &m) &&
                        count_exact(&R, min_len, max_len, false, &m);
    if (ok && all) {
        size_t k = 0;
        for (size_t i = 0; i < out->n; i++) {
            struct wpp_sub *s = &out->v[i];
            s->cost = 0;
            for (uint32_t j = 0; j < s->len; j++)
                s->cost = sat_add(s->cost, cost[s->terms[j]]);
            if (sat_mul(s->cost, s->count) >= min_cost)
                out->v[k++] = *s;
            else
                free(s->terms);
        }
        out->n = k;
    }
    free(m.slot);
    rules_free(&R);
    if (!ok) {
        wpp_subs_free(out);
        return pp_fail(err, "out of memory");
    }
    return true;
}

void wpp_subs_free(struct wpp_subs *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].terms);
    free(s->v);
    memset(s, 0, sizeof *s);
}
