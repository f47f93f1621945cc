/* text_out.h - printing names that come from a profile.
 *
 * Function and file names in a profile are bytes from a file that may be
 * damaged; printed raw, a newline or an escape sequence in them would
 * break the one-line error promise or the terminal. These helpers print
 * every control byte as '?'. */
#ifndef PATHPROF_CLI_TEXT_OUT_H
#define PATHPROF_CLI_TEXT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph/meta.h"

void out_safe(FILE *out, const char *s);
/* "name (file:line)", or "name" when the file is unknown; then the
 * build's variant when the profile has several ("[with -fPIC]"). */
void out_func(FILE *out, const struct pp_func_meta *f);
/* "ENTRY", "EXIT" or "bb N" for a node number, into BUF. */
void node_name(char *buf, size_t size, const struct pp_func_meta *f, uint32_t node);
/* The same, printed. */
void out_node(FILE *out, const struct pp_func_meta *f, uint32_t node);
/* "file:first" or "file:first-last". */
void out_lines(FILE *out, const char *file, uint32_t first, uint32_t last);
/* Space-separated flag names ("hash cut atomic verify"), "-" when none. */
void out_flags(FILE *out, uint32_t flags);

#endif
