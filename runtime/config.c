/* config.c - the table of PATHPROF_* environment variables and their parsing.
 *
 * This table is the one place that knows which variables exist.  A variable
 * that starts with PATHPROF_ but is not in it is reported, because a typo
 * (PATHPROF_OUTPUT=...) silently ignored costs a user a whole profiling run. */
#include "config.h"
#include "analyzer-host.h"
#include "cpu-list.h"
#include "message.h"
#include "pathprof-abi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pprt_config pprt_config;

struct env_var {
    const char *name;
    const char *default_value;
    const char *accepted; /* said in the warning about a bad value */
    /* Returns 0 and updates CFG, or -1 when VALUE is not acceptable. */
    int (*parse)(const char *value, struct pprt_config *cfg);
};

static int parse_out(const char *value, struct pprt_config *cfg);
static int parse_quiet(const char *value, struct pprt_config *cfg);
static int parse_verbose(const char *value, struct pprt_config *cfg);
static int parse_accumulate(const char *value, struct pprt_config *cfg);
static int parse_sync(const char *value, struct pprt_config *cfg);
static int parse_chunk(const char *value, struct pprt_config *cfg);
static int parse_chunks(const char *value, struct pprt_config *cfg);
static int parse_analyzers(const char *value, struct pprt_config *cfg);
static int parse_analyzer(const char *value, struct pprt_config *cfg);
static int parse_cpus(const char *value, struct pprt_config *cfg);
static int parse_policy(const char *value, struct pprt_config *cfg);
static int parse_trace(const char *value, struct pprt_config *cfg);
static int parse_delay(const char *value, struct pprt_config *cfg);
static int parse_pause(const char *value, struct pprt_config *cfg);
static int parse_accumulate_delay(const char *value, struct pprt_config *cfg);
static int parse_k(const char *value, struct pprt_config *cfg);
static int parse_ksf_workers(const char *value, struct pprt_config *cfg);
static int parse_ksf_build(const char *value, struct pprt_config *cfg);
static int parse_prune(const char *value, struct pprt_config *cfg);
static int parse_wpp_max(const char *value, struct pprt_config *cfg);
static int parse_sample(const char *value, struct pprt_config *cfg);
static int parse_burst(const char *value, struct pprt_config *cfg);
static int parse_vpp_outlier(const char *value, struct pprt_config *cfg);
static int parse_vpp_counter(const char *value, struct pprt_config *cfg);

static const struct env_var env_vars[] = {
    {"PATHPROF_OUT", "pathprof.out",
     "a non-empty file name; %p is replaced by the process id, %h by the host name, "
     "%t by the time in seconds, %% by %",
     parse_out},
    {"PATHPROF_QUIET", "1", "0 or 1", parse_quiet},
    {"PATHPROF_VERBOSE", "0", "0 or 1", parse_verbose},
    {"PATHPROF_ACCUMULATE", "0", "0 or 1", parse_accumulate},
    {"PATHPROF_SYNC", "0", "0 or 1", parse_sync},
    {"PATHPROF_ANALYZER", "blpp",
     "a comma-separated list of built-in analyzers",
     parse_analyzer},
    {"PATHPROF_ANALYZERS", "1", "a number of analyzer threads from 1 to 64",
     parse_analyzers},
    {"PATHPROF_CPUS", "auto",
     "auto, none, or a list of CPUs the process may run on, like 1 or 0-1,3",
     parse_cpus},
    {"PATHPROF_POLICY", "block", "block or drop", parse_policy},
    {"PATHPROF_CHUNK", "8192", "a power of two from 16 to 16777216", parse_chunk},
    {"PATHPROF_CHUNKS", "4", "a number of chunks per thread from 2 to 256",
     parse_chunks},
    {"PATHPROF_TRACE", "pathprof.trace",
     "a non-empty file name; %p is replaced by the process id, %h by the host name, "
     "%t by the time in seconds, %% by %",
     parse_trace},
    {"PATHPROF_K", "8", "a number of BL paths per k-iteration path from 1 to 64 (ksf)",
     parse_k},
    {"PATHPROF_KSF_WORKERS", "0",
     "a number of k-SF worker threads per ksf analyzer thread from 0 (none) to 16",
     parse_ksf_workers},
    {"PATHPROF_KSF_BUILD", "links",
     "links (the k-IPF built through suffix links) or slabs (the k-SF of Fig. 6, then Fig. 7) "
     "(ksf, ksf-pruned)",
     parse_ksf_build},
    {"PATHPROF_PRUNE", "off",
     "off, or a memory size per analyzer thread from 64K to 1T, like 65536, 512K, 16M or 1G "
     "(ksf-pruned)", parse_prune},
    {"PATHPROF_WPP_MAX", "2M",
     "a memory size per producer thread from 64K to 1T, like 65536, 512K, 16M or 1G (wpp)",
     parse_wpp_max},
    {"PATHPROF_SAMPLE", "1/10000",
     "0 (never), or 1/N with N from 1 (always) to 1000000000000: the mean number of "
     "checks between bursts (code built with sampling=yes)", parse_sample},
    {"PATHPROF_BURST", "100",
     "a number of checks per burst from 1 to 1000000000 (code built with sampling=yes)",
     parse_burst},
    {"PATHPROF_VPP_OUTLIER", "16777216",
     "a number of counter ticks from 0 (keep every timing) to 72057594037927935 (vpp)",
     parse_vpp_outlier},
    {"PATHPROF_VPP_COUNTER", "none",
     "none or cache-misses: a second hardware counter read around each timed path (vpp)",
     parse_vpp_counter},
    {"PATHPROF_TEST_ANALYZER_DELAY_NS", "0",
     "a number of nanoseconds from 0 to 1000000000 (for tests only)", parse_delay},
    {"PATHPROF_TEST_ANALYZER_PAUSE_NS", "0",
     "a number of nanoseconds from 0 to 1000000000 (for tests only)", parse_pause},
    {"PATHPROF_TEST_ACCUMULATE_DELAY_MS", "0",
     "a number of milliseconds from 0 to 60000 (for tests only)", parse_accumulate_delay},
};

#define N_ENV_VARS (sizeof env_vars / sizeof env_vars[0])
#define PREFIX "PATHPROF_"

/* A file name pattern with %p, %h, %t and %%, made absolute now (see
 * config.h). */
static int parse_pattern(const char *value, char **pattern)
{
    if (*value == '\0')
        return -1;
    for (const char *s = value; *s; s++) {
        if (*s != '%')
            continue;
        if (s[1] != 'p' && s[1] != 'h' && s[1] != 't' && s[1] != '%')
            return -1; /* an unknown %x would be a surprise file name */
        s++;
    }
    char *abs;
    char cwd[4096];
    if (value[0] == '/' || getcwd(cwd, sizeof cwd) == NULL) {
        abs = strdup(value);
    } else {
        size_t a = strlen(cwd), b = strlen(value);
        abs = malloc(a + 1 + b + 1);
        if (abs) {
            memcpy(abs, cwd, a);
            abs[a] = '/';
            memcpy(abs + a + 1, value, b + 1);
        }
    }
    if (abs == NULL)
        return -1;
    free(*pattern);
    *pattern = abs;
    return 0;
}

static int parse_out(const char *value, struct pprt_config *cfg)
{
    return parse_pattern(value, &cfg->out_pattern);
}

static int parse_trace(const char *value, struct pprt_config *cfg)
{
    return parse_pattern(value, &cfg->trace_pattern);
}

/* A plain decimal number in [MIN, MAX]: no sign, no spaces, no suffix. */
static int parse_number(const char *value, uint64_t min, uint64_t max, uint64_t *out)
{
    if (*value < '0' || *value > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_chunk(const char *value, struct pprt_config *cfg)
{
    uint64_t v;
    /* A power of two: the chunk index arithmetic and the page-aligned
     * chunk layout of ringbuf/channel.h rely on it. */
    if (parse_number(value, 16, 1u << 24, &v) != 0 || (v & (v - 1)) != 0)
        return -1;
    cfg->chunk_events = (uint32_t)v;
    return 0;
}

static int parse_chunks(const char *value, struct pprt_config *cfg)
{
    uint64_t v;
    if (parse_number(value, 2, 256, &v) != 0)
        return -1;
    cfg->chunks_per_thread = (uint32_t)v;
    return 0;
}

static int parse_analyzers(const char *value, struct pprt_config *cfg)
{
    uint64_t v;
    if (parse_number(value, 1, PPRT_MAX_ANALYZER_THREADS, &v) != 0)
        return -1;
    cfg->analyzer_threads = (uint32_t)v;
    return 0;
}

static int parse_accumulate_delay(const char *value, struct pprt_config *cfg)
{
    return parse_number(value, 0, 60000, &cfg->test_accumulate_delay_ms);
}

static int parse_delay(const char *value, struct pprt_config *cfg)
{
    return parse_number(value, 0, 1000000000u, &cfg->test_delay_ns);
}

static int parse_pause(const char *value, struct pprt_config *cfg)
{
    return parse_number(value, 0, 1000000000u, &cfg->test_pause_ns);
}

/* The ksf analyzer's k: 64 bounds its k-SF at 126 levels (analyzers/ksf/stats.h). */
static int parse_k(const char *value, struct pprt_config *cfg)
{
    uint64_t v;
    if (parse_number(value, 1, 64, &v) != 0)
        return -1;
    cfg->k = (uint32_t)v;
    return 0;
}

/* ksf-pruned's memory budget per analyzer thread (docs/pruning.md): a
 * size, because memory is what runs out; the error bound follows from it
 * and is reported.  Below 64 KiB the summaries would hold almost nothing. */
static int parse_size(const char *value, uint64_t *bytes);

static int parse_prune(const char *value, struct pprt_config *cfg)
{
    if (strcmp(value, "off") == 0) {
        cfg->prune_bytes = 0;
        return 0;
    }
    return parse_size(value, &cfg->prune_bytes);
}

/* wpp's bound on one producer thread's grammar and symbol table: an
 * epoch closes when the next symbol could exceed it (analyzers/wpp). */
static int parse_wpp_max(const char *value, struct pprt_config *cfg)
{
    return parse_size(value, &cfg->wpp_max_bytes);
}

/* A size from 64 KiB to 1 TiB, with an optional K, M, G or T. */
static int parse_size(const char *value, uint64_t *bytes)
{
    char num[32];
    size_t len = strlen(value);
    uint64_t unit = 1, v;
    if (len == 0 || len >= sizeof num)
        return -1;
    memcpy(num, value, len + 1);
    switch (num[len - 1]) {
    case 'K': unit = 1ull << 10; break;
    case 'M': unit = 1ull << 20; break;
    case 'G': unit = 1ull << 30; break;
    case 'T': unit = 1ull << 40; break;
    default: break;
    }
    if (unit != 1)
        num[len - 1] = '\0';
    if (parse_number(num, 1, (1ull << 40) / unit, &v) != 0 || v * unit < (64ull << 10))
        return -1;
    *bytes = v * unit;
    return 0;
}

/* "0" or "1/N": a rate, written as one, so that "PATHPROF_SAMPLE=100"
 * (a period? a percentage?) is refused instead of guessed.  The spacing
 * between bursts is drawn from [1, 2N - 1], which must stay below the
 * countdown's burst range (pathprof-abi.h). */
static int parse_sample(const char *value, struct pprt_config *cfg)
{
    if (strcmp(value, "0") == 0) {
        cfg->sample_n = 0;
        return 0;
    }
    if (strncmp(value, "1/", 2) != 0)
        return -1;
    return parse_number(value + 2, 1, 1000000000000ull, &cfg->sample_n);
}

static int parse_burst(const char *value, struct pprt_config *cfg)
{
    return parse_number(value, 1, 1000000000u, &cfg->burst);
}

static int parse_vpp_outlier(const char *value, struct pprt_config *cfg)
{
    return parse_number(value, 0, (1ull << 56) - 1, &cfg->vpp_outlier);
}

/* The names are the VPP section's events word (vpp-clock.h): 0, 1. */
static int parse_vpp_counter(const char *value, struct pprt_config *cfg)
{
    if (strcmp(value, "none") == 0)
        cfg->vpp_counter = 0;
    else if (strcmp(value, "cache-misses") == 0)
        cfg->vpp_counter = 1;
    else
        return -1;
    return 0;
}

/* Workers share a producer's stream when one analyzer thread cannot keep
 * up (docs/kiterations.md); 16 is far beyond any machine's spare cores per
 * analyzer thread. */
static int parse_ksf_workers(const char *value, struct pprt_config *cfg)
{
    uint64_t v;
    if (parse_number(value, 0, 16, &v) != 0)
        return -1;
    cfg->ksf_workers = (uint32_t)v;
    return 0;
}

/* How the ksf analyzer builds its k-IPF (docs/kiterations.md, "Building
 * the k-IPF through suffix links"): the same k-IPF either way. */
static int parse_ksf_build(const char *value, struct pprt_config *cfg)
{
    if (strcmp(value, "links") == 0)
        cfg->ksf_links = 1;
    else if (strcmp(value, "slabs") == 0)
        cfg->ksf_links = 0;
    else
        return -1;
    return 0;
}

static int parse_policy(const char *value, struct pprt_config *cfg)
{
    if (strcmp(value, "block") == 0)
        cfg->policy = PATHPROF_POLICY_BLOCK;
    else if (strcmp(value, "drop") == 0)
        cfg->policy = PATHPROF_POLICY_DROP;
    else
        return -1;
    return 0;
}

/* "blpp" or "blpp,trace": every name must be built in; a name given twice
 * counts once (two instances would write the same sections twice). */
static int parse_analyzer(const char *value, struct pprt_config *cfg)
{
    uint32_t list[PPRT_MAX_ANALYZERS], n = 0;
    const char *s = value;
    for (;;) {
        size_t len = strcspn(s, ",");
        uint32_t found = UINT32_MAX;
        for (uint32_t i = 0; pp_analyzers[i]; i++)
            if (strlen(pp_analyzers[i]->name) == len &&
                strncmp(pp_analyzers[i]->name, s, len) == 0)
                found = i;
        if (found == UINT32_MAX)
            return -1;
        int dup = 0;
        for (uint32_t i = 0; i < n; i++)
            dup |= list[i] == found;
        if (!dup) {
            if (n == PPRT_MAX_ANALYZERS)
                return -1;
            list[n++] = found;
        }
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    memcpy(cfg->analyzers, list, n * sizeof list[0]);
    cfg->nanalyzers = n;
    return 0;
}

static int parse_cpus(const char *value, struct pprt_config *cfg)
{
    if (strcmp(value, "auto") == 0 || strcmp(value, "none") == 0) {
        free(cfg->cpus);
        cfg->cpus = NULL;
        cfg->ncpus = 0;
        cfg->cpus_none = value[0] == 'n';
        return 0;
    }
    if (pprt_parse_cpu_list(value, &cfg->cpus, &cfg->ncpus) != 0)
        return -1;
    cfg->cpus_none = 0;
    return 0;
}

static int parse_flag(const char *value, int *flag)
{
    if (strcmp(value, "0") == 0)
        *flag = 0;
    else if (strcmp(value, "1") == 0)
        *flag = 1;
    else
        return -1;
    return 0;
}

static int parse_quiet(const char *value, struct pprt_config *cfg)
{
    return parse_flag(value, &cfg->quiet);
}

static int parse_verbose(const char *value, struct pprt_config *cfg)
{
    return parse_flag(value, &cfg->verbose);
}

static int parse_accumulate(const char *value, struct pprt_config *cfg)
{
    return parse_flag(value, &cfg->accumulate);
}

static int parse_sync(const char *value, struct pprt_config *cfg)
{
    return parse_flag(value, &cfg->sync);
}

static void list_known(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_ENV_VARS && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                         env_vars[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* ": blpp, trace": the analyzers this library has, for the warning. */
static void list_analyzers(char *buf, size_t size)
{
    size_t used = 0;
    for (size_t i = 0; pp_analyzers[i] && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : ": ",
                         pp_analyzers[i]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

void pprt_config_load(void)
{
    for (size_t i = 0; i < N_ENV_VARS; i++)
        if (env_vars[i].parse(env_vars[i].default_value, &pprt_config) != 0)
            pprt_error("cannot apply the default %s=%s (out of memory?)",
                       env_vars[i].name, env_vars[i].default_value);

    /* Walk environ rather than getenv() each known name: unknown names
     * must be seen too. */
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, PREFIX, sizeof PREFIX - 1) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        size_t name_len = eq ? (size_t)(eq - *e) : strlen(*e);
        const char *value = eq ? eq + 1 : "";
        const struct env_var *v = NULL;
        for (size_t i = 0; i < N_ENV_VARS; i++)
            if (strlen(env_vars[i].name) == name_len &&
                strncmp(env_vars[i].name, *e, name_len) == 0)
                v = &env_vars[i];
        if (v == NULL) {
            char known[700];
            list_known(known, sizeof known);
            pprt_warning("unknown environment variable %.*s ignored (known: %s)",
                         (int)name_len, *e, known);
            continue;
        }
        if (v->parse(value, &pprt_config) != 0) {
            char names[300] = "";
            if (v->parse == parse_analyzer)
                list_analyzers(names, sizeof names);
            pprt_warning("%s=%s is not valid (accepted: %s%s); using the default %s",
                         v->name, value, v->accepted, names, v->default_value);
        }
    }
    /* Only ksf-pruned reads PATHPROF_PRUNE (the exact ksf stays exact): a
     * user who set it expecting pruning must hear that nothing is pruned. */
    int pruned = 0;
    for (uint32_t i = 0; i < pprt_config.nanalyzers; i++)
        pruned |= strcmp(pp_analyzers[pprt_config.analyzers[i]]->name, "ksf-pruned") == 0;
    if (pprt_config.prune_bytes && !pruned)
        pprt_warning("PATHPROF_PRUNE is read by the ksf-pruned analyzer only, and "
                     "PATHPROF_ANALYZER does not select it: nothing is pruned");
    /* Silent by default, like gcov: a test suite comparing a program's
     * stderr must not see us.  Problems are still said (warnings, errors). */
    pprt_set_quiet(pprt_config.quiet && !pprt_config.verbose);
}
