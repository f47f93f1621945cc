/* json_out.c - JSON string escaping (see json_out.h). */
#include "json_out.h"

#include <stddef.h>

/* Length of the valid UTF-8 sequence at S (1-4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n, i;
    unsigned cp;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, cp = s[0] & 0x1f;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, cp = s[0] & 0x0f;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, cp = s[0] & 0x07;
    else
        return 0;
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates, beyond U+10FFFF. */
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

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
        } else if ((n = utf8_len(s)) != 0) {
            fwrite(s, 1, n, out);
            s += n;
        } else {
            fputs("\\ufffd", out);
            s++;
        }
    }
}
