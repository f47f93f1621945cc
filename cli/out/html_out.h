/* html_out.h - text from a profile or a source file, safe inside HTML.
 *
 * Source files and names are arbitrary bytes: in HTML text and attribute
 * values & < > " ' are escaped, control bytes other than tab and newline become '?',
 * invalid UTF-8 becomes U+FFFD; in a <script> a JSON string also escapes
 * < > & and U+2028/9, so nothing a file holds can end the script or the
 * page's markup. */
#ifndef PATHPROF_CLI_HTML_OUT_H
#define PATHPROF_CLI_HTML_OUT_H

#include <stddef.h>
#include <stdio.h>

/* LEN bytes of S as HTML text (also valid in a quoted attribute). */
void html_text_n(FILE *out, const char *s, size_t len);
/* A NUL-terminated S; "?" for NULL. */
void html_text(FILE *out, const char *s);
/* A JSON string literal that is safe inside <script>; null for NULL. */
void js_string(FILE *out, const char *s);

#endif
