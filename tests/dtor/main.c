/* tests/dtor-order.t: calls the library, linked to it, or (built with
 * -DDLOPEN, run as `main LIBRARY N`) in N cycles of dlopen and dlclose. */
#include <stdio.h>
#ifdef DLOPEN
#include <dlfcn.h>
#include <stdlib.h>
#else
int lib_step(int i);
#endif

int main(int argc, char **argv)
{
    long s = 0;
#ifdef DLOPEN
    int n = argc > 2 ? atoi(argv[2]) : 1;
    for (int c = 0; c < n; c++) {
        void *h = dlopen(argv[1], RTLD_NOW);
        if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
        int (*step)(int) = (int (*)(int))dlsym(h, "lib_step");
        if (!step) { fprintf(stderr, "%s\n", dlerror()); return 1; }
        for (int i = 0; i < 100; i++)
            s += step(i);
        dlclose(h);
    }
#else
    (void)argc; (void)argv;
    for (int i = 0; i < 100; i++)
        s += lib_step(i);
#endif
    printf("%ld\n", s);
    return 0;
}
