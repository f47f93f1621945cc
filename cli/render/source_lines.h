/* source_lines.h - showing the source text of a path's lines.
 *
 * Profiles are self-contained, so sources are optional: a file that cannot
 * be opened (relative names are resolved against the current directory) or
 * is shorter than a range prints no text; the reports say once which
 * files were not found (source_out_missing). Each file is read once.
 *
 * With the line table a block's lines are exact (source_print_lines).
 * In older profiles a block's range runs from its first to its last
 * located statement, so it may hold lines that never run: blank lines,
 * comments, preprocessor lines and code an `#if 0` disables. Those are not
 * printed (source_is_code). */
#ifndef PATHPROF_CLI_SOURCE_LINES_H
#define PATHPROF_CLI_SOURCE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "graph/path.h"

struct source_cache;

struct source_cache *source_cache_new(void);
void source_cache_free(struct source_cache *c);

/* Prints "INDENT<range>" and, when the source is readable, its code lines
 * as "INDENT    NNN | text": at most SOURCE_MAX_LINES per range, the
 * range's last line (a statement of the block) always among them. */
#define SOURCE_MAX_LINES 12
void source_print_range(FILE *out, struct source_cache *c, const struct line_range *r,
                        const char *indent);

/* The same, printing only the lines KEEP(CTX, LINE) accepts (the range's
 * first and last line always). */
void source_print_range_kept(FILE *out, struct source_cache *c, const struct line_range *r,
                             const char *indent, bool (*keep)(void *ctx, uint32_t line),
                             void *ctx);

/* Exact lines (the line table): "INDENTfile:3-5,9" naming every line of
 * SPANS (N spans of FILE, sorted, disjoint), then, when the source is
 * readable, each of those lines as "INDENT    NNN | text", at most
 * SOURCE_MAX_LINES, the last always among them. No line is dropped as
 * not code: each holds a statement. */
void source_print_lines(FILE *out, struct source_cache *c, const char *file,
                        const struct pp_line_span *spans, uint32_t n, const char *indent);

/* Whether FILE can be read (tried once, remembered). */
bool source_readable(struct source_cache *c, const char *file);
/* Lines of a readable FILE (0 when not readable). */
uint32_t source_nlines(struct source_cache *c, const char *file);
/* Line LINE (1-based) of FILE without its newline, *len its length; NULL
 * when the file is not readable or shorter. */
const unsigned char *source_line(struct source_cache *c, const char *file, uint32_t line,
                                 size_t *len);
/* False for lines that cannot run: blank, comment only, a preprocessor
 * directive, or inside `#if 0`. True when not known (file unreadable). */
bool source_is_code(struct source_cache *c, const char *file, uint32_t line);

/* "PREFIXa.c, b.c (...)\n" naming every file looked up and not found, or
 * nothing when all were; returns how many. */
size_t source_out_missing(FILE *out, struct source_cache *c, const char *prefix);

#endif
