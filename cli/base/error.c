/* error.c - building the one-line reader messages (see error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool pp_fail(struct pp_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

bool pp_context(struct pp_error *err, const char *fmt, ...)
{
    char prefix[160];
    size_t plen, mlen, room = sizeof err->msg - 1;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix - 2, fmt, ap);
    va_end(ap);
    strcat(prefix, ": ");
    plen = strlen(prefix);
    mlen = strlen(err->msg);
    /* A message too long for the buffer loses its tail, never its context. */
    if (plen + mlen > room)
        mlen = room - plen;
    memmove(err->msg + plen, err->msg, mlen);
    memcpy(err->msg, prefix, plen);
    err->msg[plen + mlen] = '\0';
    return false;
}
