/* hb-annotate.c - finding ThreadSanitizer at run time (see hb-annotate.h). */
#include "hb-annotate.h"

#if !defined(__SANITIZE_THREAD__)
#include <dlfcn.h>

struct pp_hb_fns pp_hb;

void pp_hb_init(void)
{
    /* Both or neither: half an edge would be worse than none. */
    void *acquire = dlsym(RTLD_DEFAULT, "__tsan_acquire");
    void *release = dlsym(RTLD_DEFAULT, "__tsan_release");
    if (acquire && release) {
        pp_hb.acquire = (void (*)(void *))acquire;
        pp_hb.release = (void (*)(void *))release;
    }
}
#else
/* An empty translation unit is not ISO C. */
typedef int pp_hb_annotate_is_inline;
#endif
