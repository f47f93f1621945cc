/* stale-temporaries.c - see stale-temporaries.h. */
#include "stale-temporaries.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The PID of "BASE.tmp.PID.N" when ENTRY is such a name, else 0. */
static long temporary_pid(const char *entry, const char *base, size_t base_len)
{
    if (strncmp(entry, base, base_len) != 0 || strncmp(entry + base_len, ".tmp.", 5) != 0)
        return 0;
    const char *p = entry + base_len + 5;
    char *end;
    errno = 0;
    long pid = strtol(p, &end, 10);
    if (errno || end == p || *end != '.' || pid <= 0)
        return 0;
    p = end + 1;
    (void)strtoul(p, &end, 10);
    if (end == p || *end != '\0')
        return 0;
    return pid;
}

unsigned pprt_remove_stale_temporaries(const char *name)
{
    const char *slash = strrchr(name, '/');
    const char *base = slash ? slash + 1 : name;
    size_t base_len = strlen(base);
    char *dir = slash ? strndup(name, (size_t)(slash - name) + (slash == name)) : strdup(".");
    if (dir == NULL)
        return 0;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (dfd < 0)
        return 0;
    DIR *d = fdopendir(dfd);
    if (d == NULL) {
        close(dfd);
        return 0;
    }
    unsigned removed = 0;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = temporary_pid(e->d_name, base, base_len);
        if (pid == 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive, or not ours to judge */
        struct stat st;
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            now - st.st_mtime < PPRT_STALE_TMP_AGE_S)
            continue;
        if (unlinkat(dfd, e->d_name, 0) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}
