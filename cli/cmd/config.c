/* config.c - `pathprof config`: the gcc flags that use this pathprof.
 *
 * The plugin and the runtime are found relative to the pathprof
 * executable itself (<bindir>/../lib), never through a path compiled in,
 * so the same binary answers correctly in the build tree (build/bin,
 * build/lib) and wherever `make install PREFIX=...` put it (PREFIX/bin,
 * PREFIX/lib). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

#define PLUGIN_NAME "pathprof.so"
#define RUNTIME_NAME "libpathprof.so"
#define SPECS_NAME "pathprof.specs"

/* The absolute, canonical <bindir>/../lib; false (message printed) if unknown. */
static bool find_libdir(char *libdir, size_t size)
{
    char exe[PATH_MAX], guess[PATH_MAX + 8];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash;

    if (n < 0) {
        fprintf(stderr, "pathprof: config: cannot find the pathprof executable "
                        "(/proc/self/exe: %s)\n", strerror(errno));
        return false;
    }
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(guess, sizeof guess, "%s/../lib", exe);
    if (!realpath(guess, libdir)) {
        fprintf(stderr, "pathprof: config: no library directory %s beside the pathprof "
                        "executable (%s); build with make or reinstall\n", guess,
                strerror(errno));
        return false;
    }
    (void)size;
    return true;
}

static bool need_file(const char *libdir, const char *name, const char *what)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", libdir, name);
    if (access(path, R_OK) == 0)
        return true;
    fprintf(stderr, "pathprof: config: the %s is not at %s (%s); build it with make or "
                    "reinstall pathprof\n", what, path, strerror(errno));
    return false;
}

static void config_usage(FILE *out)
{
    fputs("Usage: pathprof config --specs | --cflags | --libs | --plugin | --runtime-dir ...\n"
          "Prints what to add to a gcc command line to profile a program:\n"
          "  --specs        the GCC specs file that does both (plugin when compiling,\n"
          "                 runtime when linking): gcc -specs=$(pathprof config --specs)\n"
          "  --cflags       -fplugin=<absolute path of pathprof.so>\n"
          "  --libs         -L<libdir> -Xlinker -rpath=<libdir> -lpathprof -lpthread\n"
          "  --plugin       the absolute path of the plugin\n"
          "  --runtime-dir  the directory holding libpathprof.so\n"
          "Several options print their answers on one line, in order, e.g.\n"
          "  gcc $(pathprof config --cflags) -O2 prog.c $(pathprof config --libs)\n"
          "  gcc -specs=$(pathprof config --specs) -O2 prog.c\n",
          out);
}

int cmd_config(int argc, char **argv)
{
    char libdir[PATH_MAX];
    const char *sep = "";
    int a;

    if (argc < 2)
        return usage_error("config: needs --specs, --cflags, --libs, --plugin or --runtime-dir");
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            config_usage(stdout);
            return finish_output(0);
        }
        if (strcmp(argv[a], "--cflags") != 0 && strcmp(argv[a], "--libs") != 0 &&
            strcmp(argv[a], "--specs") != 0 &&
            strcmp(argv[a], "--plugin") != 0 && strcmp(argv[a], "--runtime-dir") != 0)
            return usage_error("config: unknown option '%s'", argv[a]);
    }
    if (!find_libdir(libdir, sizeof libdir))
        return EXIT_NOT_FOUND;
    /* Check everything before printing anything: a half answer in $(...)
     * would make a confusing gcc error. */
    for (a = 1; a < argc; a++) {
        bool plugin = strcmp(argv[a], "--cflags") == 0 || strcmp(argv[a], "--plugin") == 0;
        bool specs = strcmp(argv[a], "--specs") == 0;
        if (specs ? !need_file(libdir, SPECS_NAME, "GCC specs file") ||
                        !need_file(libdir, PLUGIN_NAME, "GCC plugin") ||
                        !need_file(libdir, RUNTIME_NAME, "runtime library")
            : plugin ? !need_file(libdir, PLUGIN_NAME, "GCC plugin")
                     : !need_file(libdir, RUNTIME_NAME, "runtime library"))
            return EXIT_NOT_FOUND;
    }
    for (a = 1; a < argc; a++) {
        fputs(sep, stdout);
        sep = " ";
        if (strcmp(argv[a], "--cflags") == 0)
            printf("-fplugin=%s/%s", libdir, PLUGIN_NAME);
        else if (strcmp(argv[a], "--plugin") == 0)
            printf("%s/%s", libdir, PLUGIN_NAME);
        else if (strcmp(argv[a], "--specs") == 0)
            printf("%s/%s", libdir, SPECS_NAME);
        /* No commas: build systems paste LIBS into sed expressions and
         * comma-separated lists (autotools), where -Wl,-rpath,DIR breaks.
         * One -Xlinker, not two: pkg-config drops a repeated -Xlinker. */
        else if (strcmp(argv[a], "--libs") == 0)
            printf("-L%s -Xlinker -rpath=%s -lpathprof -lpthread", libdir, libdir);
        else
            printf("%s", libdir);
    }
    putchar('\n');
    return finish_output(0);
}
