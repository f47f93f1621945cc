/* html_out.c - escaping for HTML text and scripts (see html_out.h). */
#include "html_out.h"
#include "utf8.h"

#include <string.h>

void html_text_n(FILE *out, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str, *end = s + len;

    while (s < end) {
        size_t n;
        switch (*s) {
        case '&': fputs("&amp;", out); s++; continue;
        case '<': fputs("&lt;", out); s++; continue;
        case '>': fputs("&gt;", out); s++; continue;
        case '"': fputs("&quot;", out); s++; continue;
        case '\'': fputs("&#39;", out); s++; continue;
        default: break;
        }
        if (*s == '\t' || *s == '\n') {
            fputc(*s, out);
            s++;
        } else if (*s < 0x20 || *s == 0x7f) {
            fputc('?', out);
            s++;
        } else if ((n = utf8_len(s, (size_t)(end - s))) != 0) {
            fwrite(s, 1, n, out);
            s += n;
        } else {
            fputs("\xef\xbf\xbd", out);
            s++;
        }
    }
}

void html_text(FILE *out, const char *s)
{
    if (!s)
        s = "?";
    html_text_n(out, s, strlen(s));
}

void js_string(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t left;

    if (!s) {
        fputs("null", out);
        return;
    }
    left = strlen(str);
    fputc('"', out);
    while (left) {
        size_t n;
        if (*s == '"' || *s == '\\') {
            fputc('\\', out);
            fputc(*s, out);
            n = 1;
        } else if (*s < 0x20 || *s == 0x7f || *s == '<' || *s == '>' || *s == '&') {
            fprintf(out, "\\u%04x", *s);
            n = 1;
        } else if ((n = utf8_len(s, left)) != 0) {
            /* U+2028 and U+2029 end a line in older JavaScript. */
            if (n == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))
                fprintf(out, "\\u%04x", s[2] == 0xa8 ? 0x2028 : 0x2029);
            else
                fwrite(s, 1, n, out);
        } else {
            fputs("\\ufffd", out);
            n = 1;
        }
        s += n;
        left -= n;
    }
    fputc('"', out);
}
