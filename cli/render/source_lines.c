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
    unsigned char *code;  /* per line: 1 when it may run (source_is_code) */
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
        free(c->files[i].code);
    }
    free(c->files);
    free(c);
}

static size_t line_end(const struct source_file *s, size_t start)
{
    size_t end = start;
    while (end < s->len && s->text[end] != '\n')
        end++;
    if (end > start && s->text[end - 1] == '\r') /* CRLF sources */
        end--;
    return end;
}

static bool starts_with(const unsigned char *p, const unsigned char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* Which lines can hold code. A light scan, not a preprocessor: comments
 * (also spanning lines), blank lines, directives, and `#if 0` regions
 * (nested conditionals counted) are not code; string literals that hold a
 * comment opener are rare enough to ignore. */
static void classify_lines(struct source_file *s)
{
    bool in_comment = false;
    unsigned if0_depth = 0; /* > 0: inside #if 0, counting nested #if */
    size_t i;

    for (i = 0; i < s->nlines; i++) {
        const unsigned char *p = s->text + s->line_start[i];
        const unsigned char *end = s->text + line_end(s, s->line_start[i]);
        bool code = false;

        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (!in_comment && p < end && *p == '#') {
            const unsigned char *d = p + 1;
            while (d < end && (*d == ' ' || *d == '\t'))
                d++;
            if (if0_depth) {
                if (starts_with(d, end, "if"))
                    if0_depth++;
                else if (starts_with(d, end, "endif") ||
                         (if0_depth == 1 && (starts_with(d, end, "else") ||
                                             starts_with(d, end, "elif"))))
                    if0_depth--;
            } else if (starts_with(d, end, "if 0") &&
                       (d + 4 == end || d[4] == ' ' || d[4] == '\t' || d[4] == '/')) {
                if0_depth = 1;
            }
            s->code[i] = 0;
            continue;
        }
        if (if0_depth) {
            s->code[i] = 0;
            continue;
        }
        while (p < end) {
            if (in_comment) {
                if (p + 1 < end && p[0] == '*' && p[1] == '/') {
                    in_comment = false;
                    p += 2;
                } else {
                    p++;
                }
            } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
                in_comment = true;
                p += 2;
            } else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
                break;
            } else {
                if (*p != ' ' && *p != '\t')
                    code = true;
                p++;
            }
        }
        s->code[i] = code;
    }
}

static void index_lines(struct source_file *s)
{
    size_t i, n = 1;
    for (i = 0; i < s->len; i++)
        if (s->text[i] == '\n' && i + 1 < s->len)
            n++;
    s->line_start = malloc(n * sizeof *s->line_start);
    s->code = malloc(n);
    if (!s->line_start || !s->code) {
        free(s->text);
        free(s->line_start);
        free(s->code);
        s->text = NULL;
        s->line_start = NULL;
        s->code = NULL;
        return;
    }
    s->line_start[0] = 0;
    s->nlines = 1;
    for (i = 0; i < s->len; i++)
        if (s->text[i] == '\n' && i + 1 < s->len)
            s->line_start[s->nlines++] = i + 1;
    classify_lines(s);
}

/* The cache's entry for NAME, read on first use; NULL when out of memory. */
static struct source_file *entry(struct source_cache *c, const char *name)
{
    struct source_file *s;
    size_t i;

    if (!c)
        return NULL;
    for (i = 0; i < c->n; i++)
        if (strcmp(c->files[i].name, name) == 0)
            return &c->files[i];
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
    return s;
}

/* NULL when the file cannot be read (remembered, so it is tried once). */
static struct source_file *lookup(struct source_cache *c, const char *name)
{
    struct source_file *s = entry(c, name);
    return s && s->text ? s : NULL;
}

bool source_readable(struct source_cache *c, const char *file)
{
    return lookup(c, file) != NULL;
}

uint32_t source_nlines(struct source_cache *c, const char *file)
{
    struct source_file *s = lookup(c, file);
    return s ? (s->nlines > UINT32_MAX ? UINT32_MAX : (uint32_t)s->nlines) : 0;
}

const unsigned char *source_line(struct source_cache *c, const char *file, uint32_t line,
                                 size_t *len)
{
    struct source_file *s = lookup(c, file);
    size_t start;
    if (!s || line == 0 || line > s->nlines)
        return NULL;
    start = s->line_start[line - 1];
    *len = line_end(s, start) - start;
    return s->text + start;
}

bool source_is_code(struct source_cache *c, const char *file, uint32_t line)
{
    struct source_file *s = lookup(c, file);
    if (!s || line == 0 || line > s->nlines)
        return true;
    return s->code[line - 1];
}

size_t source_out_missing(FILE *out, struct source_cache *c, const char *prefix)
{
    size_t i, n = 0;
    if (!c)
        return 0;
    for (i = 0; i < c->n; i++) {
        if (c->files[i].text)
            continue;
        fputs(n++ ? ", " : prefix, out);
        out_safe(out, c->files[i].name);
    }
    if (n)
        fputs(" (lines are shown without their text; relative names are looked up from "
              "the current directory)\n", out);
    return n;
}

static void print_line(FILE *out, const struct source_file *s, uint32_t line, int width,
                       const char *indent)
{
    size_t start = s->line_start[line - 1], end = line_end(s, start);

    fprintf(out, "%s    %*" PRIu32 " | ", indent, width, line);
    for (; start < end; start++) {
        unsigned char ch = s->text[start];
        /* Tabs and UTF-8 pass; other control bytes would garble the terminal. */
        fputc(ch == '\t' || ch >= 0x20 ? ch : '?', out);
    }
    fputc('\n', out);
}

/* Both printers show at most SOURCE_MAX_LINES lines: the first ones, then
 * one line that says how many were left out, then the last one. */
static bool elide_here(uint32_t shown, uint64_t total, uint32_t line, uint32_t last)
{
    return shown == SOURCE_MAX_LINES - 1 && total > SOURCE_MAX_LINES && line != last;
}

static void print_elision(FILE *out, const struct source_file *s, uint64_t more, uint32_t last,
                          int width, const char *indent)
{
    fprintf(out, "%s    %*s | ... (%" PRIu64 " more lines)\n", indent, width, "", more);
    if (last <= s->nlines)
        print_line(out, s, last, width, indent);
}

void source_print_range(FILE *out, struct source_cache *c, const struct line_range *r,
                        const char *indent)
{
    source_print_range_kept(out, c, r, indent, NULL, NULL);
}

void source_print_range_kept(FILE *out, struct source_cache *c, const struct line_range *r,
                             const char *indent, bool (*keep)(void *ctx, uint32_t line),
                             void *ctx)
{
    struct source_file *s;
    uint32_t line, last, shown = 0, ncode = 0;
    int width;
    char digits[16];

    fputs(indent, out);
    out_lines(out, r->file, r->first, r->last);
    fputc('\n', out);
    s = lookup(c, r->file);
    if (!s || r->first > s->nlines)
        return;
    last = r->last < s->nlines ? r->last : (uint32_t)s->nlines;
    for (line = r->first; line <= last; line++) {
        ncode += s->code[line - 1] && (!keep || keep(ctx, line));
        if (line == UINT32_MAX)
            break;
    }
    width = snprintf(digits, sizeof digits, "%" PRIu32, r->last);
    if (width < 4)
        width = 4;
    for (line = r->first; line <= last; line++) {
        /* The first and last lines hold statements of the range even when
         * the scan thinks otherwise (a statement after a comment opener). */
        if ((s->code[line - 1] && (!keep || keep(ctx, line))) || line == r->first ||
            line == last) {
            if (elide_here(shown, ncode, line, last)) {
                print_elision(out, s, ncode - shown - 1, last, width, indent);
                break;
            }
            print_line(out, s, line, width, indent);
            shown++;
        }
        if (line == UINT32_MAX)
            break;
    }
}

void source_print_lines(FILE *out, struct source_cache *c, const char *file,
                        const struct pp_line_span *spans, uint32_t n, const char *indent)
{
    struct source_file *s;
    uint32_t k, line, last, shown = 0;
    uint64_t total = 0;
    int width;
    char digits[16];

    if (n == 0)
        return;
    fputs(indent, out);
    out_safe(out, file);
    for (k = 0; k < n; k++) {
        fprintf(out, k ? ",%" PRIu32 : ":%" PRIu32, spans[k].first);
        if (spans[k].last != spans[k].first)
            fprintf(out, "-%" PRIu32, spans[k].last);
        total += (uint64_t)spans[k].last - spans[k].first + 1;
    }
    fputc('\n', out);
    s = lookup(c, file);
    if (!s)
        return;
    last = spans[n - 1].last;
    width = snprintf(digits, sizeof digits, "%" PRIu32, last);
    if (width < 4)
        width = 4;
    for (k = 0; k < n; k++) {
        for (line = spans[k].first; line <= spans[k].last && line <= s->nlines; line++) {
            if (elide_here(shown, total, line, last)) {
                print_elision(out, s, total - shown - 1, last, width, indent);
                return;
            }
            print_line(out, s, line, width, indent);
            shown++;
            if (line == UINT32_MAX)
                break;
        }
    }
}
