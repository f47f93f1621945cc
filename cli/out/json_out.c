/* json_out.c - JSON string escaping (see json_out.h). */
#include "json_out.h"
#include "utf8.h"

#include <stddef.h>
#include <stdint.h>

void json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    json_string_body(out, s);
    fputc('"', out);
}

void json_string_body(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;

    while (*s) {
        size_t n;
        if (*s == '"' || *s == '\\') {
            fputc('\\', out);
            fputc(*s++, out);
        } else if (*s == '\n') {
            fputs("\\n", out), s++;
        } else if (*s == '\t') {
            fputs("\\t", out), s++;
        } else if (*s < 0x20 || *s == 0x7f) {
            fprintf(out, "\\u%04x", *s++);
        } else if ((n = utf8_len(s, SIZE_MAX)) != 0) {
            fwrite(s, 1, n, out);
            s += n;
        } else {
            fputs("\\ufffd", out);
            s++;
        }
    }
}
