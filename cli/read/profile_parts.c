/* profile_parts.c - summing the parts of an accumulated profile file
 * (profile_parts.h). */
#include "profile_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/text_out.h"
#include "profile-merge.h"

void profile_parts_warn_torn(const char *path, size_t bytes)
{
    /* Once per file: a command may read one file more than once. */
    static char *warned;
    if (warned && strcmp(warned, path) == 0)
        return;
    free(warned);
    warned = strdup(path);
    fputs("pathprof: ", stderr);
    out_safe(stderr, path);
    fprintf(stderr, ": warning: its last %zu bytes are an addition that did not finish (a "
                    "process killed while adding its profile, or one adding it now): not read\n",
            bytes);
}

int profile_parts_plan(const char *path, const unsigned char *data, size_t len,
                       struct pprt_parts *parts, size_t **at, struct pp_error *err)
{
    if (pprt_profile_parts(data, len, parts, at) != 0) {
        pp_fail(err, "out of memory");
        return -1;
    }
    if (parts->n == 0 || (parts->n == 1 && (parts->whole == len || !parts->torn))) {
        free(*at);
        *at = NULL;
        return 0;
    }
    if (parts->whole < len && !parts->torn) {
        free(*at);
        *at = NULL;
        pp_fail(err, "%zu bytes after its %zu parts (from byte %zu) are not a profile",
                len - parts->whole, parts->n, parts->whole);
        return -1;
    }
    if (parts->torn && path)
        profile_parts_warn_torn(path, len - parts->whole);
    return 1;
}

bool profile_parts_sum(const char *path, unsigned char **data, size_t *len,
                       struct pp_error *err)
{
    struct pprt_parts parts;
    size_t *at = NULL;
    int plan = profile_parts_plan(path, *data, *len, &parts, &at, err);
    if (plan == 0)
        return true;
    if (plan < 0) {
        free(*data);
        *data = NULL;
        return false;
    }
    if (parts.n == 1) {
        *len = parts.whole;
        free(at);
        return true;
    }
    struct pprt_merge *m = pprt_merge_new();
    struct pprt_merge_error merr;
    struct pprt_buf sum = {0};
    bool ok = m != NULL || pp_fail(err, "out of memory");
    for (size_t i = 0; ok && i < parts.n; i++) {
        char name[64];
        snprintf(name, sizeof name, "part %zu of %zu", i + 1, parts.n);
        if (pprt_merge_add(m, *data + at[i], at[i + 1] - at[i], name, &merr) != 0)
            ok = pp_fail(err, "part %zu of %zu (bytes %zu to %zu) cannot be added to the "
                              "others: %s", i + 1, parts.n, at[i], at[i + 1], merr.msg);
    }
    if (ok && pprt_merge_encode(m, &sum, &merr) != 0)
        ok = pp_fail(err, "%s", merr.msg);
    if (ok) {
        /* NUL-terminated, as file_bytes leaves what it reads. */
        pprt_buf_put(&sum, "", 1);
        ok = !sum.failed || pp_fail(err, "out of memory");
        sum.len--;
    }
    pprt_merge_free(m);
    free(at);
    free(*data);
    *data = NULL;
    if (!ok) {
        pprt_buf_free(&sum);
        return false;
    }
    *data = sum.data;
    *len = sum.len;
    return true;
}
