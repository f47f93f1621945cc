/* merge.c - `pathprof merge -o OUT IN...`: profiles of one build added
 * into one (docs/cli.md).  The adding is the runtime's own merge code
 * (runtime/profile-merge*.c), the one PATHPROF_ACCUMULATE uses at exit, so
 * an accumulated file merged here into one part holds the same sums as the
 * runtime's own merge of it.  OUT is replaced atomically and only when
 * every input was added: a refused input leaves OUT as it was. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "base/file_bytes.h"
#include "profile-merge.h"
#include "read/profile_parts.h"

#define MAX_PROFILE_BYTES ((size_t)1 << 40)

static void merge_usage(FILE *out)
{
    fputs("Usage: pathprof merge -o OUT IN...\n"
          "Adds the profiles IN (of one build of one program) into OUT: path counts,\n"
          "k-iteration path forests, pruned bounds (added conservatively), sampled\n"
          "counts of one sampling rate (other rates are refused), and the run's totals;\n"
          "whole program paths are kept side by side, one thread per input thread.\n"
          "Functions are matched by name, file and CFG checksum; a function\n"
          "built differently in two inputs is refused, naming it.  The order and the\n"
          "grouping of the inputs do not change OUT.  OUT may be one of the inputs.\n"
          "  -o, --output OUT  where the merged profile goes (replaced atomically)\n",
          out);
}

/* OUT.tmp.PID beside OUT, then rename: a reader never sees half of it. */
static int write_out(const char *out, const struct pprt_buf *b)
{
    size_t n = strlen(out) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        return ENOMEM;
    snprintf(tmp, n, "%s.tmp.%ld", out, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    int err = fd < 0 ? errno : 0;
    for (size_t done = 0; err == 0 && done < b->len;) {
        ssize_t w = write(fd, b->data + done, b->len - done);
        if (w < 0 && errno != EINTR)
            err = errno;
        else if (w > 0)
            done += (size_t)w;
    }
    if (fd >= 0 && err == 0 && fsync(fd) != 0)
        err = errno;
    if (fd >= 0 && close(fd) != 0 && err == 0)
        err = errno;
    if (err == 0 && rename(tmp, out) != 0)
        err = errno;
    if (err != 0 && fd >= 0)
        unlink(tmp);
    free(tmp);
    return err;
}

/* PATH's profile, or each part of an accumulated file (profile_parts.h),
 * a torn last part left out with a warning. */
static int add_file(struct pprt_merge *m, const char *path, const unsigned char *data,
                    size_t len, struct pprt_merge_error *err)
{
    struct pprt_parts parts;
    size_t *at = NULL;
    struct pp_error perr;
    int plan = profile_parts_plan(path, data, len, &parts, &at, &perr);
    if (plan < 0) {
        snprintf(err->msg, sizeof err->msg, "%s", perr.msg);
        return -1;
    }
    if (plan == 0)
        return pprt_merge_add(m, data, len, path, err); /* which says what is wrong */
    int rc = 0;
    for (size_t i = 0; i < parts.n && rc == 0; i++) {
        size_t n = strlen(path) + 64;
        char *name = malloc(n);
        if (!name) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            rc = -1;
            break;
        }
        snprintf(name, n, "%s (part %zu of %zu)", path, i + 1, parts.n);
        rc = pprt_merge_add(m, data + at[i], at[i + 1] - at[i], name, err);
        free(name);
    }
    free(at);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    char **in = malloc((size_t)argc * sizeof *in);
    size_t nin = 0;
    bool opts = true;
    if (!in)
        return usage_error("merge: out of memory");
    for (int a = 1; a < argc; a++) {
        const char *s = argv[a];
        if (opts && (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0)) {
            free(in);
            merge_usage(stdout);
            return finish_output(0);
        } else if (opts && strcmp(s, "--") == 0) {
            opts = false;
        } else if (opts && (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0)) {
            if (++a == argc) {
                free(in);
                return usage_error("merge: %s needs a file name", s);
            }
            out = argv[a];
        } else if (opts && strncmp(s, "--output=", 9) == 0) {
            out = s + 9;
        } else if (opts && s[0] == '-' && s[1] != '\0') {
            free(in);
            return usage_error("merge: unknown option '%s'", s);
        } else {
            in[nin++] = argv[a];
        }
    }
    if (!out || !*out || nin == 0) {
        free(in);
        return usage_error("merge: needs -o OUT and at least one profile to merge");
    }
    struct pprt_merge *m = pprt_merge_new();
    struct pprt_merge_error err;
    int status = 0;
    if (!m) {
        free(in);
        return usage_error("merge: out of memory");
    }
    for (size_t i = 0; i < nin && status == 0; i++) {
        unsigned char *data;
        size_t len;
        if (!file_bytes(in[i], MAX_PROFILE_BYTES, &data, &len)) {
            error_in_file(in[i], strerror(errno));
            status = EXIT_TROUBLE;
            break;
        }
        if (add_file(m, in[i], data, len, &err) != 0) {
            error_in_file(in[i], err.msg);
            status = EXIT_TROUBLE;
        }
        free(data);
    }
    if (status == 0) {
        struct pprt_buf b = {0};
        int e;
        if (pprt_merge_encode(m, &b, &err) != 0) {
            error_in_file(out, err.msg);
            status = EXIT_TROUBLE;
        } else if ((e = write_out(out, &b)) != 0) {
            error_in_file(out, strerror(e));
            status = EXIT_TROUBLE;
        }
        pprt_buf_free(&b);
    }
    pprt_merge_free(m);
    free(in);
    return status;
}
