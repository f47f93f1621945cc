/* dlopen-only-stream.c - a program that is not instrumented and not
 * linked with libpathprof; it loads a stream-mode library (which pulls
 * libpathprof in), runs it (analyzer threads start), and unloads it: the
 * runtime must drain, join its threads and write the profile before its
 * code goes away, and the program must go on unharmed. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "dlopen-only-stream: %s\n", dlerror());
        return 2;
    }
    void (*run)(uint64_t, const char *) =
        (void (*)(uint64_t, const char *))dlsym(h, "dso_run_alone");
    if (run == NULL)
        return 2;
    run(strtoull(argv[2], NULL, 10), getenv("EXPECT"));
    dlclose(h);
    printf("after dlclose\n");
    return 0;
}
