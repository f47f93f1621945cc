/* cpu-list.c - parsing PATHPROF_CPUS and choosing the default CPU. */
#include "cpu-list.h"

#include <sched.h>
#include <stdlib.h>

static int parse_cpu(const char **s, long *out)
{
    if (**s < '0' || **s > '9')
        return -1;
    char *end;
    long v = strtol(*s, &end, 10);
    if (v < 0 || v >= CPU_SETSIZE)
        return -1;
    *s = end;
    *out = v;
    return 0;
}

int pprt_parse_cpu_list(const char *s, int **cpus, uint32_t *ncpus)
{
    cpu_set_t want, allowed;
    CPU_ZERO(&want);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return -1;
    for (;;) {
        long lo, hi;
        if (parse_cpu(&s, &lo) != 0)
            return -1;
        hi = lo;
        if (*s == '-') {
            s++;
            if (parse_cpu(&s, &hi) != 0 || hi < lo)
                return -1;
        }
        for (long c = lo; c <= hi; c++) {
            if (!CPU_ISSET((int)c, &allowed))
                return -1;
            CPU_SET((int)c, &want);
        }
        if (*s == '\0')
            break;
        if (*s++ != ',')
            return -1;
    }
    int n = CPU_COUNT(&want);
    int *v = malloc((size_t)n * sizeof *v);
    if (v == NULL)
        return -1;
    for (int c = 0, i = 0; c < CPU_SETSIZE && i < n; c++)
        if (CPU_ISSET(c, &want))
            v[i++] = c;
    free(*cpus);
    *cpus = v;
    *ncpus = (uint32_t)n;
    return 0;
}

int pprt_default_cpu(void)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2)
        return -1;
    for (int c = CPU_SETSIZE - 1; c >= 0; c--)
        if (CPU_ISSET(c, &allowed))
            return c;
    return -1;
}
