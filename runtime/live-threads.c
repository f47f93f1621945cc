/* live-threads.c - counting the program's live threads in /proc. */
#include "live-threads.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The state letter of task TID ('R', 'S', 'Z', ...), or 0 if it is gone. */
static char task_state(long tid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return 0;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    /* "tid (comm) S ...": comm may itself contain ')'. */
    char *p = strrchr(line, ')');
    return p && p[1] == ' ' ? p[2] : 0;
}

static int dead(char state) { return state == 0 || state == 'Z' || state == 'X'; }

int pprt_only_runtime_threads_left(const pid_t *runtime, uint32_t nruntime)
{
    /* Cheap test first: while the main thread lives, the answer is no. */
    if (!dead(task_state((long)getpid())))
        return 0;
    DIR *d = opendir("/proc/self/task");
    if (d == NULL)
        return 0;
    int only_runtime = 1;
    struct dirent *e;
    while (only_runtime && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        long tid = strtol(e->d_name, NULL, 10);
        int ours = 0;
        for (uint32_t i = 0; i < nruntime; i++)
            ours |= runtime[i] == tid;
        if (!ours && !dead(task_state(tid)))
            only_runtime = 0;
    }
    closedir(d);
    return only_runtime;
}
