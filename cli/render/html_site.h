/* html_site.h - `pathprof html`: a static site, no server and nothing
 * fetched (CSS and JavaScript inline, so it works offline and from
 * file://): index.html ranks the functions and files by path flow and
 * gives each profile's header; one page per source file shows its lines
 * coloured by how often they ran (run / never run / a decision with a way
 * never taken, as gcovr colours lines) and, beside them, each function's
 * hottest paths: choosing one lights up the lines it runs and shows the
 * way it took at each branch. Below come the views each function has
 * (html_views.c): k-iteration path trees, pruned bounds, and later ones. */
#ifndef PATHPROF_CLI_HTML_SITE_H
#define PATHPROF_CLI_HTML_SITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "query/site.h"
#include "source_lines.h"

/* TOP: paths listed per function. */
struct html_options {
    uint64_t top;
};

/* Page frame (html_page.c): doctype, title, inline CSS, the error hook
 * that records any script error in the page (data-js-errors on <html>),
 * and at the end the script that makes paths selectable. */
void html_page_begin(FILE *out, const char *title);
void html_page_end(FILE *out);

/* The file page's name for site file FI: "f12.html". */
void html_file_page_name(char *buf, size_t size, size_t fi);
/* The site file a function starts in, or SIZE_MAX. */
size_t html_func_file(const struct site *s, size_t func);
/* A function's name, and its variant label when the profile holds other
 * builds of it ("[with -fPIC]", cli/read/func_variants.c). */
void html_func_name(FILE *out, const struct pp_func_meta *m);

bool html_index(FILE *out, const struct site *s, struct source_cache *src,
                const struct html_options *o, struct pp_error *err);
bool html_source(FILE *out, const struct site *s, size_t fi, struct source_cache *src,
                 const struct html_options *o, struct pp_error *err);

/* The views of one function below its source (html_views.c). */
bool html_func_views(FILE *out, const struct site *s, size_t func, struct source_cache *src,
                     const struct html_options *o, struct pp_error *err);

#endif
