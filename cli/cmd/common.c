/* common.c - what the subcommands share (see commands.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "query/func_find.h"
#include "out/text_out.h"

void error_in_file(const char *file, const char *msg)
{
    fputs("pathprof: ", stderr);
    out_safe(stderr, file);
    fputs(": ", stderr);
    out_safe(stderr, msg);
    fputc('\n', stderr);
}

int usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("pathprof: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'pathprof --help' for more information.\n", stderr);
    return EXIT_TROUBLE;
}

bool load_profile(const char *path, struct pp_profile *p)
{
    return load_profile_keep(path, p, NULL);
}

bool load_profile_keep(const char *path, struct pp_profile *p, const struct kipf_keep *keep)
{
    struct pp_error err;
    if (profile_read_keep(path, p, keep, &err))
        return true;
    error_in_file(path, err.msg);
    return false;
}

int load_one_section(const char *path, struct pp_profile *p, uint32_t tag, const char *kind,
                     const char *missing, const char *decoded, unsigned char **data,
                     size_t *at, size_t *len)
{
    size_t count = 0, flen;
    char msg[300];
    struct pp_error err;
    /* The bytes the sections' places refer to: an accumulated file's
     * parts summed once, by the read itself. */
    if (!profile_read_bytes(path, p, NULL, data, &flen, &err)) {
        error_in_file(path, err.msg);
        return EXIT_TROUBLE;
    }
    for (size_t i = 0; i < p->nsections; i++)
        if (p->sections[i].tag == tag) {
            *at = p->sections[i].at + 16;
            *len = (size_t)p->sections[i].length;
            count++;
        }
    int rc = 0;
    if (count != 1) {
        if (count)
            snprintf(msg, sizeof msg, "more than one %s section: which one is right is not known",
                     kind);
        else
            snprintf(msg, sizeof msg, "no %s section (%s)", kind, missing);
        rc = count ? EXIT_TROUBLE : EXIT_NOT_FOUND;
    } else if (p->broken[PP_PART_TU_META] != PP_NO_SECTION) {
        snprintf(msg, sizeof msg, "a TU section is damaged: %s cannot be decoded", decoded);
        rc = EXIT_TROUBLE;
    } else if (*at > flen || *len > flen - *at) {
        snprintf(msg, sizeof msg, "%s section: past the end", kind);
        rc = EXIT_TROUBLE;
    }
    if (rc != 0) {
        error_in_file(path, msg);
        free(*data);
        *data = NULL;
        profile_free(p);
    }
    return rc;
}

bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    unsigned long long x;
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    x = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *v = x;
    return true;
}

bool find_one_function(const struct pp_profile *p, const char *path, const char *spec,
                       size_t *index, int *status)
{
    size_t *found = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *found);
    size_t n, i;

    if (!found) {
        error_in_file(path, "out of memory");
        *status = EXIT_TROUBLE;
        return false;
    }
    n = func_find(p, spec, found);
    if (n == 1) {
        *index = found[0];
        free(found);
        return true;
    }
    fputs("pathprof: ", stderr);
    out_safe(stderr, path);
    if (n == 0) {
        fputs(": no function '", stderr);
        out_safe(stderr, spec);
        fputs("' (pathprof report --json lists them all)\n", stderr);
    } else {
        fputs(": '", stderr);
        out_safe(stderr, spec);
        fprintf(stderr, "' names %zu functions:", n);
        for (i = 0; i < n; i++) {
            const struct pp_func_meta *m = p->funcs[found[i]].meta;
            fputs(i ? ", " : " ", stderr);
            out_safe(stderr, m->file ? m->file : "?");
            fputc(':', stderr);
            out_safe(stderr, m->name);
        }
        fputs("; name one as FILE:NAME\n", stderr);
    }
    free(found);
    *status = EXIT_NOT_FOUND;
    return false;
}

int finish_output(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pathprof: error writing the output: %s\n", strerror(errno));
        return EXIT_TROUBLE;
    }
    return status;
}
