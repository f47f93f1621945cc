/* vpp.c - timing sampled paths (docs/vpp.md).
 *
 * A VPP build is a stream-mode sampled build whose bursts are one check
 * long: the check that begins a burst starts exactly one path in the
 * instrumented copy, and the next check (a callee's entry, the next back
 * edge) ends the burst.  The turn that begins a burst reads the counter as
 * its very last act and arms the thread; the instrumented copy's path ends
 * call __pathprof_vpp_path, which reads the counter as its very first act,
 * stores the path event and, when armed, a VPP marker with the ticks in
 * between.  Only the timed path can end while the thread is armed: the
 * paths of callees run in the checking copy (their entry check ended the
 * burst), and a caller's path that began in an earlier burst ends only
 * after the timed path's frame returned, which ends the timed path first.
 * (A timed path abandoned by longjmp or a throw leaves the thread armed
 * until the next burst; docs/vpp.md.)
 *
 * What the interval holds besides the path: the end of the turn after the
 * first read, the return to the check and the jump into the instrumented
 * copy, and the call of __pathprof_vpp_path before the second read.  That
 * is the bias, measured at start-up as the ticks of the same two reads
 * with nothing in between (through the same kind of calls), and
 * subtracted by the analyzer. */
#include "vpp-clock.h"
#include "vpp-events.h"
#include "config.h"
#include "lifecycle.h"
#include "message.h"
#include "pathprof-abi.h"
#include "sample-state.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static __thread uint64_t vpp_t0;
static __thread uint32_t vpp_cpu;
static __thread int vpp_armed;
/* The second counter at the timed path's start; whether it was read. */
static __thread uint64_t vpp_e0;
static __thread int vpp_have_e;
/* PATHPROF_VPP_COUNTER asked for one and the probe opened it. */
static int events_on;
/* Timings dropped because the thread changed CPU during the path. */
static uint64_t migrated;

static struct pprt_vpp_clock clock_info;
static int clock_ready;
static pthread_once_t clock_once = PTHREAD_ONCE_INIT;

#if !defined(__x86_64__) && !defined(__aarch64__)
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* The counter at a path's start, after every earlier instruction and
 * before any later one; *CPU: where it was read (x86-64: TSC_AUX, which
 * Linux sets to the CPU number; elsewhere 0). */
static inline uint64_t read_start(uint32_t *cpu)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(*cpu)::"memory");
    return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
    uint64_t v;
    *cpu = 0;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
#else
    *cpu = 0;
    return mono_ns();
#endif
}

/* The counter at a path's end: rdtscp waits for the path's instructions. */
static inline uint64_t read_end_on(uint32_t *cpu)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(*cpu)::"memory");
    return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
    uint64_t v;
    *cpu = 0;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
#else
    *cpu = 0;
    return mono_ns();
#endif
}

static inline uint64_t read_end(void)
{
    uint32_t cpu;
    return read_end_on(&cpu);
}

uint64_t pprt_vpp_now(void)
{
    return read_end();
}

/* x86-64: a TSC that neither changes rate with the clock nor stops in
 * idle states (Linux's constant_tsc and nonstop_tsc) counts cycles of a
 * fixed frequency on every core; without them a timing mixes speeds. */
static int counter_unstable(void)
{
#if defined(__x86_64__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL)
        return 1;
    char line[8192];
    int constant = 0, nonstop = 0, seen = 0;
    while (!seen && fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        seen = 1;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
    }
    fclose(f);
    return !(constant && nonstop);
#else
    return 0;
#endif
}

/* The two halves of an empty timed interval, called as the turn and the
 * path end are (out of line, never inlined or analysed across), so the
 * calibration pays what a timed path pays around its own code. */
static __attribute__((noipa)) uint64_t calib_start(void)
{
    uint32_t cpu;
    return read_start(&cpu);
}

static __attribute__((noipa)) uint64_t calib_end(void)
{
    return read_end();
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void calibrate(void)
{
    static uint64_t d[PPRT_VPP_CALIBRATION_RUNS];
    for (unsigned i = 0; i < PPRT_VPP_CALIBRATION_RUNS; i++) {
        uint64_t t0 = calib_start();
        uint64_t t1 = calib_end();
        d[i] = t1 - t0;
    }
    qsort(d, PPRT_VPP_CALIBRATION_RUNS, sizeof d[0], cmp_u64);
    clock_info.bias = d[0];
    clock_info.bias_median = d[PPRT_VPP_CALIBRATION_RUNS / 2];
    clock_info.bias_p90 = d[PPRT_VPP_CALIBRATION_RUNS * 9 / 10];
}

static void set_up(void)
{
    pprt_set_up_once();
#if defined(__x86_64__)
    clock_info.counter = "rdtsc";
#elif defined(__aarch64__)
    clock_info.counter = "cntvct_el0";
#else
    clock_info.counter = "clock_gettime";
    clock_info.flags |= PPRT_VPP_NANOSECONDS;
#endif
    if (counter_unstable())
        clock_info.flags |= PPRT_VPP_UNSTABLE;
    if (pprt_config.burst != 1 && getenv("PATHPROF_BURST") != NULL)
        pprt_warning("PATHPROF_BURST=%llu ignored: a VPP build samples bursts "
                     "of one path", (unsigned long long)pprt_config.burst);
    pprt_config.burst = 1;
    clock_info.events = pprt_config.vpp_counter;
    if (pprt_config.vpp_counter != PPRT_VPP_EVENTS_NONE) {
        char why[160] = "";
        if (pprt_vpp_events_probe(pprt_config.vpp_counter, why, sizeof why) == 0) {
            events_on = 1;
        } else {
            clock_info.flags |= PPRT_VPP_EVENTS_UNAVAILABLE;
            pprt_warning("VPP: PATHPROF_VPP_COUNTER=cache-misses: this machine gives "
                         "no such hardware counter (%s): paths are timed without "
                         "it; the profile says so", why);
        }
    }
    calibrate();
    if (clock_info.flags & PPRT_VPP_UNSTABLE)
        pprt_warning("VPP: the cycle counter is not invariant on this machine "
                     "(no constant_tsc and nonstop_tsc in /proc/cpuinfo): "
                     "path timings mix clock speeds and may not compare; "
                     "the profile says so");
    pprt_info("VPP: timing sampled paths with %s%s, bias %llu ticks "
              "(median %llu), subtracted", clock_info.counter,
              events_on ? " and cache misses" : "",
              (unsigned long long)clock_info.bias,
              (unsigned long long)clock_info.bias_median);
    clock_info.start = read_end();
    __atomic_store_n(&clock_ready, 1, __ATOMIC_RELEASE);
}

int pprt_vpp_clock(struct pprt_vpp_clock *c)
{
    if (!__atomic_load_n(&clock_ready, __ATOMIC_ACQUIRE))
        return 0;
    *c = clock_info;
    c->migrated = __atomic_load_n(&migrated, __ATOMIC_RELAXED);
    return 1;
}

int __pathprof_sample_turn_vpp(void)
{
    if (!__atomic_load_n(&clock_ready, __ATOMIC_ACQUIRE))
        pthread_once(&clock_once, set_up);
    int began;
    int in = pprt_sample_turn_marked(1, &began);
    vpp_armed = began;
    if (began) {
        /* The second counter first, outside the timed interval. */
        if (events_on)
            vpp_e0 = pprt_vpp_events_read(&vpp_have_e);
        vpp_t0 = read_start(&vpp_cpu);
    }
    return in;
}

void __pathprof_vpp_path(uint64_t ev)
{
    uint32_t cpu;
    uint64_t t1 = read_end_on(&cpu);
    int have_e = 0;
    uint64_t e1 = 0;
    if (vpp_armed && vpp_have_e)
        e1 = pprt_vpp_events_read(&have_e);
    pprt_emit_word(ev);
    if (!vpp_armed)
        return;
    vpp_armed = 0;
    if (cpu != vpp_cpu) {
        /* Two CPUs' counters, and a path that was moved: not its time. */
        __atomic_fetch_add(&migrated, 1, __ATOMIC_RELAXED);
        return;
    }
    uint64_t d = t1 - vpp_t0;
    if (d > PATHPROF_EV_INDEX_MASK >> 5) /* 56 bits of payload: a clock jump */
        d = PATHPROF_EV_INDEX_MASK >> 5;
    pprt_emit_word(PATHPROF_MARK(PATHPROF_MARK_VPP, d));
    pprt_emit_word(vpp_t0);
    if (have_e) {
        uint64_t e = e1 - vpp_e0; /* a counter going back (never): as 56 bits at most */
        if (e > PATHPROF_EV_INDEX_MASK >> 5)
            e = PATHPROF_EV_INDEX_MASK >> 5;
        pprt_emit_word(PATHPROF_MARK(PATHPROF_MARK_VPP_EVENTS, e));
        pprt_emit_word(PATHPROF_MARK_FILLER);
    }
}
