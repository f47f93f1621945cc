/* tests/tpp-stream.t: loads the library built from branches.c (its main
 * renamed branches_main), runs it, unloads it, and does it all again:
 * the counts of a library's obvious paths must survive its dlclose. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: dlrun LIBRARY INPUT\n");
        return 2;
    }
    for (int round = 0; round < 2; round++) {
        void *h = dlopen(argv[1], RTLD_NOW);
        if (h == NULL) {
            fprintf(stderr, "dlrun: %s\n", dlerror());
            return 1;
        }
        int (*run)(int, char **) = (int (*)(int, char **))dlsym(h, "branches_main");
        if (run == NULL) {
            fprintf(stderr, "dlrun: %s\n", dlerror());
            return 1;
        }
        char *args[] = {argv[0], argv[2], NULL};
        run(2, args);
        dlclose(h);
    }
    return 0;
}
