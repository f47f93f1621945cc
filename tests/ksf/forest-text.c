/* forest-text.c - see forest-text.h. */
#include "forest-text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sbuf {
    char *s;
    size_t len, cap;
};

static void put(struct sbuf *b, const char *t)
{
    size_t n = strlen(t);
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, t, n + 1);
    b->len += n;
}

static const struct ksf_forest *cmp_f;
static int by_label(const void *x, const void *y)
{
    uint64_t a = cmp_f->n[*(const uint32_t *)x].label, b = cmp_f->n[*(const uint32_t *)y].label;
    return a < b ? -1 : a > b;
}

static void text_list(const struct ksf_forest *f, uint32_t *v, size_t n, struct sbuf *b);

static void text_node(const struct ksf_forest *f, uint32_t x, struct sbuf *b)
{
    char t[64];
    snprintf(t, sizeof t, "%llu:%llu", (unsigned long long)f->n[x].label,
             (unsigned long long)f->n[x].count);
    put(b, t);
    size_t n = 0;
    for (uint32_t c = f->n[x].child; c; c = f->n[c].sibling)
        n++;
    if (n == 0)
        return;
    uint32_t *v = malloc(n * sizeof *v);
    n = 0;
    for (uint32_t c = f->n[x].child; c; c = f->n[c].sibling)
        v[n++] = c;
    put(b, "(");
    text_list(f, v, n, b);
    put(b, ")");
    free(v);
}

static void text_list(const struct ksf_forest *f, uint32_t *v, size_t n, struct sbuf *b)
{
    cmp_f = f;
    qsort(v, n, sizeof *v, by_label);
    for (size_t i = 0; i < n; i++) {
        if (i)
            put(b, " ");
        text_node(f, v[i], b);
    }
}

struct roots {
    uint32_t *v;
    size_t n;
};
static void add_root(uint32_t r, void *ctx)
{
    struct roots *rs = ctx;
    rs->v[rs->n++] = r;
}

char *forest_text(const struct ksf_forest *f)
{
    struct roots rs = {malloc((f->nroots + 1) * sizeof *rs.v), 0};
    struct sbuf b = {0};
    put(&b, "");
    ksf_each_root(f, add_root, &rs);
    text_list(f, rs.v, rs.n, &b);
    free(rs.v);
    return b.s;
}
