/* main.c - the program of tests/cli-merge-wpp.t: `main ORDER N` dlopens
 * the two libraries in ORDER ("12" or "21") and calls each one's work(N),
 * so the two runs register the libraries' TUs in different orders and
 * give them different path and function bases: the merge must move each
 * run's whole program paths to bases of its own. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static int call(const char *dir, char which, int n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/lib%c.so", dir, which);
    void *h = dlopen(path, RTLD_NOW);
    if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return -1;
    }
    int (*work)(int) = (int (*)(int))dlsym(h, which == '1' ? "work1" : "work2");
    return work ? work(n) : -1;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    long s = 0;
    for (const char *o = argv[2]; *o; o++) {
        int r = call(argv[1], *o, atoi(argv[3]));
        if (r < 0)
            return 1;
        s += r;
    }
    printf("%ld\n", s);
    return 0;
}
