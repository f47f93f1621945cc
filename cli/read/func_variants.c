/* func_variants.c - telling apart the builds of one function.
 *
 * One source file compiled two ways (zlib's gzlib.c with and without
 * -fPIC, a C file compiled again as C++, a header's static function
 * included by two files) gives two copies of a function with one name and
 * file but other checksums; a profile keeps them side by side
 * (docs/runtime.md, "Many processes"). Each copy's label says what its
 * TU's build line (docs/format.md, section 2) has that the others' lack
 * ("with -fPIC"), or lacks ("without -fPIC"); copies whose lines do not
 * tell them apart are named by checksum. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

/* The I-th item of a build line (items one a line), or NULL past the end. */
static const char *item(const char *line, size_t i, size_t *len)
{
    const char *s = line;
    for (; i > 0; i--) {
        s = strchr(s, '\n');
        if (!s)
            return NULL;
        s++;
    }
    const char *e = strchr(s, '\n');
    *len = e ? (size_t)(e - s) : strlen(s);
    return s;
}

/* Whether LINE holds the item S (LEN bytes) at a position of the same
 * kind: 0 the language, 1 the file compiled, 2 on an option. */
static bool has_item(const char *line, const char *s, size_t len, size_t kind)
{
    size_t n;
    if (!line)
        return false;
    for (size_t i = kind; ; i++) {
        const char *t = item(line, i, &n);
        if (!t)
            return false;
        if (n == len && memcmp(t, s, len) == 0)
            return true;
        if (kind < 2)
            return false;
    }
}

struct label {
    char *s;
    size_t len, cap;
};

static bool put(struct label *l, const char *s, size_t n)
{
    if (l->len + n + 1 > l->cap) {
        size_t cap = (l->len + n + 1) * 2;
        char *p = realloc(l->s, cap);
        if (!p)
            return false;
        l->s = p;
        l->cap = cap;
    }
    memcpy(l->s + l->len, s, n);
    l->len += n;
    l->s[l->len] = '\0';
    return true;
}

/* A class: the copies group[b .. e) of one checksum (several TUs built
 * alike, or built otherwise to the same CFG); a copy whose TU has no build
 * line has no item. */
struct cls {
    struct pp_func_meta **m;
    size_t n;
};

static bool in_all(struct cls c, const char *s, size_t len, size_t kind)
{
    for (size_t i = 0; i < c.n; i++)
        if (!has_item(c.m[i]->build, s, len, kind))
            return false;
    return true;
}

static bool in_any(struct cls c, const char *s, size_t len, size_t kind)
{
    for (size_t i = 0; i < c.n; i++)
        if (has_item(c.m[i]->build, s, len, kind))
            return true;
    return false;
}

/* Whether item S of kind KIND tells class A from class B: every build of
 * A has it, none of B has it. */
static bool tells(struct cls a, struct cls b, const char *s, size_t len, size_t kind)
{
    return in_all(a, s, len, kind) && !in_any(b, s, len, kind);
}

/* Appends one item to label L: languages and files as "as X", "from X",
 * options after one "with " (WITH) or "without ". */
static bool add(struct label *l, bool *options, bool with, const char *s, size_t len,
                size_t kind)
{
    static const char *const kind_word[] = {"as ", "from "};
    const char *lead = kind < 2 ? kind_word[kind] : *options ? " " : with ? "with " : "without ";
    if (l->len && (kind < 2 || !*options) && !put(l, ", ", 2))
        return false;
    *options = *options || kind == 2;
    return put(l, lead, strlen(lead)) && put(l, s, len);
}

/* The label of class C among CL[0 .. ncl): what all of C's builds have
 * and all of some other class's lack ("as GNU C++17, with -fPIC"); when
 * nothing, the options all of another class has and none of C
 * ("without -DVARIANT"). */
static bool class_label(struct label *l, const struct cls *cl, size_t ncl, size_t c)
{
    bool options = false;
    size_t len;
    const char *s;
    const char *line = cl[c].m[0]->build;
    for (size_t i = 0; line && (s = item(line, i, &len)); i++) {
        size_t kind = i < 2 ? i : 2;
        bool told = false;
        for (size_t g = 0; g < ncl && !told; g++)
            told = g != c && tells(cl[c], cl[g], s, len, kind);
        if (told && !add(l, &options, true, s, len, kind))
            return false;
    }
    if (l->len)
        return true;
    for (size_t g = 0; g < ncl; g++) {
        line = cl[g].m[0]->build;
        for (size_t i = 2; g != c && line && (s = item(line, i, &len)); i++) {
            bool listed = false; /* by an earlier class already */
            for (size_t h = 0; h < g && !listed; h++)
                listed = h != c && tells(cl[h], cl[c], s, len, 2);
            if (!listed && tells(cl[g], cl[c], s, len, 2) && !add(l, &options, false, s, len, 2))
                return false;
        }
    }
    return true;
}

static int by_name_file(const void *pa, const void *pb)
{
    const struct pp_func_meta *a = *(struct pp_func_meta *const *)pa;
    const struct pp_func_meta *b = *(struct pp_func_meta *const *)pb;
    int c = strcmp(a->name, b->name);
    if (c == 0 && (a->file || b->file))
        c = !a->file ? -1 : !b->file ? 1 : strcmp(a->file, b->file);
    if (c == 0)
        c = (a->checksum > b->checksum) - (a->checksum < b->checksum);
    return c;
}

static bool same_place(const struct pp_func_meta *a, const struct pp_func_meta *b)
{
    return strcmp(a->name, b->name) == 0 &&
           (a->file == b->file || (a->file && b->file && strcmp(a->file, b->file) == 0));
}

/* Labels the copies group[0 .. n) (one name and file, checksums ascending,
 * at least two of them differ); every copy of one checksum gets the label
 * of its class, since the report shows them merged as one function. */
static bool label_group(struct pp_func_meta **group, size_t n, struct pp_error *err)
{
    struct cls *cl = malloc(n * sizeof *cl);
    size_t ncl = 0;
    if (!cl)
        return pp_fail(err, "out of memory");
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && group[j]->checksum == group[i]->checksum; j++)
            ;
        cl[ncl++] = (struct cls){group + i, j - i};
    }
    bool ok = true;
    for (size_t c = 0; c < ncl && ok; c++) {
        struct label l = {0};
        char buf[40];
        ok = class_label(&l, cl, ncl, c);
        if (ok && !l.len) {
            snprintf(buf, sizeof buf, "checksum %016" PRIx64, cl[c].m[0]->checksum);
            ok = put(&l, buf, strlen(buf));
        }
        for (size_t i = 0; i < cl[c].n && ok; i++)
            ok = (cl[c].m[i]->variant = strdup(l.s)) != NULL;
        free(l.s);
    }
    free(cl);
    return ok || pp_fail(err, "out of memory");
}

bool func_label_variants(struct pp_profile *p, struct pp_error *err)
{
    size_t n = 0, k = 0;
    for (size_t t = 0; t < p->ntus; t++)
        n += p->tus[t].nfuncs;
    if (n < 2)
        return true;
    struct pp_func_meta **all = malloc(n * sizeof *all);
    if (!all)
        return pp_fail(err, "out of memory");
    for (size_t t = 0; t < p->ntus; t++)
        for (uint32_t i = 0; i < p->tus[t].nfuncs; i++)
            all[k++] = &p->tus[t].funcs[i];
    qsort(all, n, sizeof *all, by_name_file);
    bool ok = true;
    for (size_t i = 0, j; i < n && ok; i = j) {
        for (j = i + 1; j < n && same_place(all[i], all[j]); j++)
            ;
        if (all[j - 1]->checksum != all[i]->checksum)
            ok = label_group(all + i, j - i, err);
    }
    free(all);
    return ok;
}
