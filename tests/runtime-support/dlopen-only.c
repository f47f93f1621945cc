/* dlopen-only.c - a program that is not instrumented and not linked with
 * libpathprof; it loads an instrumented library (which pulls libpathprof
 * in), uses it and unloads it.  The runtime's exit handler then runs when
 * libpathprof itself is unloaded, so the profile is written by dlclose. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "dlopen-only: %s\n", dlerror());
        return 2;
    }
    void (*bump)(int) = (void (*)(int))dlsym(h, "dso_bump");
    if (bump == NULL)
        return 2;
    bump(0);
    bump(1);
    dlclose(h);
    printf("after dlclose\n");
    return 0;
}
