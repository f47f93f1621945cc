/* libc-next.c - finding the C library's function behind a wrapper
 * (libc-next.h). */
#include "libc-next.h"
#include "message.h"

#include <dlfcn.h>
#include <stddef.h>

void *pprt_libc_next(const char *name, void *fallback)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (f != NULL)
        return f;
    if (fallback != NULL)
        return fallback;
    pprt_error("cannot find the C library's %s (dlsym: %s)", name, dlerror());
    return NULL;
}
