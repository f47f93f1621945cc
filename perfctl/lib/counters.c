/* perfctl/lib/counters.c - runs one command under performance counters opened
 * with perf_event_open(2) directly (no dependency on the perf tool).
 *
 *   perfctl-counters [-o FILE] [-t SECONDS] -- COMMAND [ARG...]
 *   perfctl-counters --probe
 *
 * The command inherits stdin, stdout and stderr. The counters are opened on
 * the forked child before it execs (disabled, enable_on_exec, inherit: the
 * command's threads and children are counted, this runner is not), read
 * after it ends, and written to FILE (stderr when no -o) as lines:
 *
 *   wall_s 1.234567            elapsed time from exec to exit
 *   status exit 0 | status signal 9 | status timeout 60
 *   user_s / sys_s / maxrss_kb getrusage of the command
 *   event NAME VALUE           a counted event (scaled when multiplexed:
 *   event NAME VALUE scaled    then the line says so)
 *   event NAME n/c REASON      an event the machine did not count
 *
 * An event is "n/c" (not counted) when perf_event_open refuses it, when it
 * never ran (time_running 0), or, for a hardware event, when it reads 0 over
 * a whole command (what a virtual PMU that exposes the events but does not
 * count them gives). So a zero is never printed for an event that was not
 * counted. PERFCTL_FORCE_NO_HW=1 treats every hardware event as not
 * available (to test the fallback on a machine that has them).
 *
 * --probe opens every event on this process, runs a short loop, and prints
 * one line per event: "NAME yes" or "NAME no REASON". */
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct event {
    const char *name;
    uint32_t type;
    uint64_t config;
    int hardware;      /* a PMU event: subject to PERFCTL_FORCE_NO_HW and the zero rule */
    int fd;
    char why[96];      /* why it is not counted, when fd < 0 */
};

#define CACHE(id, op, res) ((id) | ((uint64_t)(op) << 8) | ((uint64_t)(res) << 16))

static struct event events[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1, -1, ""},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, -1, ""},
    {"l1d-misses", PERF_TYPE_HW_CACHE,
     CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), 1, -1, ""},
    {"llc-misses", PERF_TYPE_HW_CACHE,
     CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS), 1, -1, ""},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1, -1, ""},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, -1, ""},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1, ""},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0, -1, ""},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, -1, ""},
};
#define NEVENTS (sizeof events / sizeof events[0])

static int force_no_hw(void)
{
    const char *v = getenv("PERFCTL_FORCE_NO_HW");
    return v && strcmp(v, "1") == 0;
}

static int open_event(struct event *e, pid_t pid, int on_exec)
{
    if (e->hardware && force_no_hw()) {
        snprintf(e->why, sizeof e->why, "hardware events disabled by PERFCTL_FORCE_NO_HW=1");
        return -1;
    }
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = e->type;
    a.config = e->config;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    a.disabled = 1;
    a.inherit = 1;
    a.enable_on_exec = on_exec ? 1 : 0;
    a.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
    if (fd < 0 && (errno == EACCES || errno == EPERM)) {
        /* perf_event_paranoid >= 2 without privileges: user space only. */
        a.exclude_kernel = 1;
        fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
    }
    if (fd < 0)
        snprintf(e->why, sizeof e->why, "perf_event_open: %s", strerror(errno));
    e->fd = fd;
    return fd;
}

/* Formats event E's reading into OUT ("VALUE", "VALUE scaled" or "n/c REASON"). */
static void read_event(const struct event *e, char *out, size_t n)
{
    if (e->fd < 0) {
        snprintf(out, n, "n/c %s", e->why);
        return;
    }
    uint64_t v[3];
    ssize_t r = read(e->fd, v, sizeof v);
    if (r != (ssize_t)sizeof v) {
        snprintf(out, n, "n/c read: %s", r < 0 ? strerror(errno) : "short read");
        return;
    }
    if (v[2] == 0) {
        snprintf(out, n, "n/c never scheduled on the PMU (time_running 0)");
        return;
    }
    if (e->hardware && v[0] == 0) {
        snprintf(out, n, "n/c reads 0 (the PMU exposes the event but does not count it)");
        return;
    }
    if (v[2] < v[1])
        snprintf(out, n, "%.0f scaled", (double)v[0] * (double)v[1] / (double)v[2]);
    else
        snprintf(out, n, "%llu", (unsigned long long)v[0]);
}

static int probe(void)
{
    for (size_t i = 0; i < NEVENTS; i++) {
        struct event *e = &events[i];
        if (open_event(e, 0, 0) >= 0) {
            ioctl(e->fd, PERF_EVENT_IOC_RESET, 0);
            ioctl(e->fd, PERF_EVENT_IOC_ENABLE, 0);
        }
    }
    volatile uint64_t x = 1;
    for (int i = 0; i < 20000000; i++)
        x = x * 6364136223846793005ull + (uint64_t)i;
    char buf[160];
    for (size_t i = 0; i < NEVENTS; i++) {
        struct event *e = &events[i];
        if (e->fd >= 0)
            ioctl(e->fd, PERF_EVENT_IOC_DISABLE, 0);
        read_event(e, buf, sizeof buf);
        /* Software counts such as cpu-migrations may truly be 0 here. */
        if (strncmp(buf, "n/c ", 4) == 0)
            printf("%s no %s\n", e->name, buf + 4);
        else
            printf("%s yes\n", e->name);
    }
    return 0;
}

static volatile sig_atomic_t timed_out;
static void on_alarm(int sig)
{
    (void)sig;
    timed_out = 1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: perfctl-counters [-o FILE] [-t SECONDS] -- COMMAND [ARG...]\n"
                    "       perfctl-counters --probe\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *outname = NULL;
    long timeout = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--probe") == 0)
            return probe();
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            outname = argv[++i];
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            char *end;
            timeout = strtol(argv[++i], &end, 10);
            if (*end || timeout < 0) {
                fprintf(stderr, "perfctl-counters: -t wants whole seconds, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else
            usage();
    }
    if (i >= argc)
        usage();

    int go[2];
    if (pipe(go) != 0) {
        perror("perfctl-counters: pipe");
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("perfctl-counters: fork");
        return 1;
    }
    if (child == 0) {
        /* Own process group, so a timeout can kill everything it started. */
        setpgid(0, 0);
        close(go[1]);
        char c;
        if (read(go[0], &c, 1) != 1)
            _exit(127);
        close(go[0]);
        execvp(argv[i], argv + i);
        fprintf(stderr, "perfctl-counters: cannot run %s: %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    setpgid(child, child);
    close(go[0]);
    for (size_t j = 0; j < NEVENTS; j++)
        open_event(&events[j], child, 1);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: waitpid returns EINTR */
    sigaction(SIGALRM, &sa, NULL);
    signal(SIGINT, SIG_IGN);  /* a ^C reaches the child's group; report it */
    if (timeout > 0)
        alarm((unsigned)timeout);

    double t0 = now();
    if (write(go[1], "x", 1) != 1) {
        perror("perfctl-counters: pipe write");
        kill(child, SIGKILL);
    }
    close(go[1]);
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    for (;;) {
        pid_t r = wait4(child, &st, 0, &ru);
        if (r == child)
            break;
        if (r < 0 && errno == EINTR) {
            if (timed_out) {
                kill(-child, SIGKILL);
                kill(child, SIGKILL);
            }
            continue;
        }
        perror("perfctl-counters: wait4");
        return 1;
    }
    double t1 = now();
    alarm(0);
    /* A process group that outlives the command (daemonised helpers) would
     * keep counting into our fds: the command is what we measure. */
    kill(-child, SIGKILL);

    FILE *out = stderr;
    if (outname && !(out = fopen(outname, "w"))) {
        fprintf(stderr, "perfctl-counters: cannot write %s: %s\n", outname, strerror(errno));
        return 1;
    }
    fprintf(out, "wall_s %.6f\n", t1 - t0);
    if (timed_out)
        fprintf(out, "status timeout %ld\n", timeout);
    else if (WIFSIGNALED(st))
        fprintf(out, "status signal %d\n", WTERMSIG(st));
    else
        fprintf(out, "status exit %d\n", WEXITSTATUS(st));
    fprintf(out, "user_s %.6f\nsys_s %.6f\nmaxrss_kb %ld\n",
            (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
            (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6, ru.ru_maxrss);
    char buf[160];
    for (size_t j = 0; j < NEVENTS; j++) {
        read_event(&events[j], buf, sizeof buf);
        fprintf(out, "event %s %s\n", events[j].name, buf);
    }
    if (out != stderr && fclose(out) != 0) {
        fprintf(stderr, "perfctl-counters: writing %s: %s\n", outname, strerror(errno));
        return 1;
    }
    if (timed_out)
        return 124;
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}
