/* output-path.c - expansion of the PATHPROF_OUT pattern, and what the
 * name it gives refers to (see output-path.h). */
#include "output-path.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

/* What %p, %h and %t stand for; NULL for any other letter. */
static const char *field(char c, const char *pid, const char *host, const char *now)
{
    return c == 'p' ? pid : c == 'h' ? host : c == 't' ? now : NULL;
}

char *pprt_expand_output(const char *pattern, pid_t pid)
{
    char pidstr[24], now[24], host[256];
    snprintf(pidstr, sizeof pidstr, "%ld", (long)pid);
    snprintf(now, sizeof now, "%lld", (long long)time(NULL));
    /* A host name with a slash would make a directory of it. */
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "localhost");
    host[sizeof host - 1] = '\0';
    for (char *h = host; *h; h++)
        if (*h == '/')
            *h = '_';
    /* Two passes: measure, then fill. */
    char *out = NULL;
    for (int pass = 0; pass < 2; pass++) {
        size_t len = 0;
        for (const char *s = pattern; *s; s++) {
            const char *f = s[0] == '%' ? field(s[1], pidstr, host, now) : NULL;
            if (f) {
                if (out)
                    memcpy(out + len, f, strlen(f));
                len += strlen(f);
                s++;
                continue;
            }
            if (s[0] == '%' && s[1] == '%')
                s++;
            if (out)
                out[len] = *s;
            len++;
        }
        if (out) {
            out[len] = '\0';
            break;
        }
        if (!(out = malloc(len + 1)))
            return NULL;
    }
    return out;
}

char *pprt_fallback_output(const char *dir, pid_t pid)
{
    size_t len = strlen(dir) + 64;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%s/pathprof.%ld.out", dir, (long)pid);
    return out;
}

/* The directory holding NAME, with a slash: "" for a bare name. */
static size_t dir_length(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash ? (size_t)(slash - name) + 1 : 0;
}

/* Links in /proc (/dev/stdout -> /proc/self/fd/1) are not names but open
 * files: "pipe:[123]" is no path, and a regular file behind one is the
 * program's own stdout, which a rename would detach from it. */
static int in_procfs(const char *name)
{
    size_t d = dir_length(name);
    char *dir = strndup(name, d ? d : 1);
    if (dir == NULL)
        return 0;
    if (d == 0)
        strcpy(dir, ".");
    struct statfs fs;
    int proc = statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
    free(dir);
    return proc;
}

/* NAME's link target, relative ones taken from NAME's directory. */
static char *follow(const char *name, int *err)
{
    struct stat st;
    if (lstat(name, &st) != 0) {
        *err = errno;
        return NULL;
    }
    size_t size = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
    char *target = malloc(size);
    ssize_t n = target ? readlink(name, target, size) : -1;
    if (n < 0 || (size_t)n >= size) { /* the link changed under us */
        *err = target == NULL ? ENOMEM : n < 0 ? errno : EAGAIN;
        free(target);
        return NULL;
    }
    target[n] = '\0';
    if (target[0] == '/')
        return target;
    size_t d = dir_length(name);
    char *joined = malloc(d + (size_t)n + 1);
    if (joined == NULL) {
        *err = ENOMEM;
    } else {
        memcpy(joined, name, d);
        memcpy(joined + d, target, (size_t)n + 1);
    }
    free(target);
    return joined;
}

int pprt_resolve_target(const char *name, struct pprt_target *t, const char **why)
{
    char *cur = strdup(name);
    int err = 0;
    t->name = NULL;
    if (cur == NULL) {
        *why = "could not look it up";
        return ENOMEM;
    }
    /* The kernel's own limit on links followed in one lookup. */
    for (int hops = 0; hops <= 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            err = errno;
            if (err == ENOENT || err == ENOTDIR) {
                /* Nothing there yet: creating it (beside it) will say
                 * whether the directory exists. */
                t->kind = PPRT_TARGET_REPLACE;
                t->name = cur;
                return 0;
            }
            *why = "could not look it up";
            break;
        }
        if (S_ISLNK(st.st_mode) && in_procfs(cur)) {
            if (stat(cur, &st) != 0) {
                err = errno;
                *why = "could not open the file behind its /proc link";
                break;
            }
            if (S_ISREG(st.st_mode)) {
                err = ENOTSUP;
                *why = "it is a link in /proc to a file the program has open, as "
                       "/dev/stdout is when redirected to a file; a rename would take "
                       "the file from the program: name the file itself";
                break;
            }
            /* A pipe, terminal, socket behind it: opened through the link. */
        } else if (S_ISLNK(st.st_mode)) {
            char *next = follow(cur, &err);
            if (next == NULL) {
                *why = "could not read its symbolic link";
                break;
            }
            free(cur);
            cur = next;
            continue;
        }
        if (S_ISREG(st.st_mode)) {
            t->kind = PPRT_TARGET_REPLACE;
        } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
            /* A socket cannot be opened; open says so (ENXIO). */
            t->kind = PPRT_TARGET_THROUGH;
        } else if (S_ISDIR(st.st_mode)) {
            err = EISDIR;
            *why = "a directory is never replaced: name a file in it";
            break;
        } else {
            err = ENOTSUP;
            *why = "it is a block device, which a profile never replaces: name a "
                   "regular file";
            break;
        }
        t->name = cur;
        return 0;
    }
    if (err == 0) {
        err = ELOOP;
        *why = "could not resolve its symbolic links";
    }
    free(cur);
    t->name = NULL;
    return err;
}
