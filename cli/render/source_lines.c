/* source_lines.c - reading source files once and printing line ranges. */
#include "source_lines.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/file_bytes.h"
#include "out/text_out.h"

/* Sources bigger than this are not shown (a profile may name anything). */
#define SOURCE_MAX_BYTES (64u << 20)

struct source_file {
    char *name;
    unsigned char *text;  /* NULL when unreadable */
    size_t len;
    size_t *line_start;   /* offset of line i+1 */
    size_t nlines;
};

struct source_cache {
    struct source_file *files;
    size_t n, cap;
};

struct source_cache *source_cache_new(void)
{
    return calloc(1, sizeof(struct source_cache));
}

void source_cache_free(struct source_cache *c)
{
    size_t i;
    if (!c)
        return;
    for (i = 0; i < c->n; i++) {
        free(c->files[i].name);
        free(c->files[i].text);
        free(c->files[i].line_start);
    }
    free(c->files);
    free(c);
}

static void index_lines(struct source_file *s)
{
    size_t i, n = 1;
    for (i = 0; i < s->len; i++)
        if (s->text[i] == '\n' && i + 1 < s->len)
            n++;
    s->line_start = malloc(n * sizeof *s->line_start);
    if (!s->line_start) {
        free(s->text);
        s->text = NULL;
        return;
    }
    s->line_start[0] = 0;
    s->nlines = 1;
    for (i = 0; i < s->len; i++)
        if (s->text[i] == '\n' && i + 1 < s->len)
            s->line_start[s->nlines++] = i + 1;
}

/* NULL when the file cannot be read (remembered, so it is tried once). */
static struct source_file *lookup(struct source_cache *c, const char *name)
{
    struct source_file *s;
    size_t i;

    if (!c)
        return NULL;
    for (i = 0; i < c->n; i++)
        if (strcmp(c->files[i].name, name) == 0)
            return c->files[i].text ? &c->files[i] : NULL;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        struct source_file *bigger = realloc(c->files, cap * sizeof *bigger);
        if (!bigger)
            return NULL;
        c->files = bigger;
        c->cap = cap;
    }
    s = &c->files[c->n];
    memset(s, 0, sizeof *s);
    s->name = strdup(name);
    if (!s->name)
        return NULL;
    c->n++;
    if (file_bytes(name, SOURCE_MAX_BYTES, &s->text, &s->len))
        index_lines(s);
    return s->text ? s : NULL;
}

void source_print_range(FILE *out, struct source_cache *c, const struct line_range *r,
                        const char *indent)
{
    struct source_file *s;
    uint32_t line, shown = 0;
    int width;
    char digits[16];

    fputs(indent, out);
    out_lines(out, r->file, r->first, r->last);
    fputc('\n', out);
    s = lookup(c, r->file);
    if (!s || r->first > s->nlines)
        return;
    width = snprintf(digits, sizeof digits, "%" PRIu32, r->last);
    if (width < 4)
        width = 4;
    for (line = r->first; line <= r->last && line <= s->nlines; line++) {
        size_t start = s->line_start[line - 1], end = start;
        if (shown == SOURCE_MAX_LINES) {
            fprintf(out, "%s    %*s | ... (%" PRIu32 " more lines)\n", indent, width, "",
                    r->last - line + 1);
            break;
        }
        while (end < s->len && s->text[end] != '\n')
            end++;
        if (end > start && s->text[end - 1] == '\r') /* CRLF sources */
            end--;
        fprintf(out, "%s    %*" PRIu32 " | ", indent, width, line);
        for (; start < end; start++) {
            unsigned char ch = s->text[start];
            /* Tabs and UTF-8 pass; other control bytes would garble the terminal. */
            fputc(ch == '\t' || ch >= 0x20 ? ch : '?', out);
        }
        fputc('\n', out);
        shown++;
        if (line == UINT32_MAX)
            break;
    }
}
