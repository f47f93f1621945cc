/* output-path.c - expansion of the PATHPROF_OUT pattern. */
#include "output-path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pprt_expand_output(const char *pattern, pid_t pid)
{
    char pidstr[24];
    int pidlen = snprintf(pidstr, sizeof pidstr, "%ld", (long)pid);
    size_t len = 0;
    for (const char *s = pattern; *s; s++) {
        if (s[0] == '%' && s[1] == 'p') {
            len += (size_t)pidlen;
            s++;
        } else {
            if (s[0] == '%' && s[1] == '%')
                s++;
            len++;
        }
    }
    char *out = malloc(len + 1), *o = out;
    if (out == NULL)
        return NULL;
    for (const char *s = pattern; *s; s++) {
        if (s[0] == '%' && s[1] == 'p') {
            memcpy(o, pidstr, (size_t)pidlen);
            o += pidlen;
            s++;
        } else {
            if (s[0] == '%' && s[1] == '%')
                s++;
            *o++ = *s;
        }
    }
    *o = '\0';
    return out;
}

char *pprt_fallback_output(const char *dir, pid_t pid)
{
    size_t len = strlen(dir) + 64;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%s/pathprof.%ld.out", dir, (long)pid);
    return out;
}
