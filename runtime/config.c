/* config.c - the table of PATHPROF_* environment variables and their parsing.
 *
 * This table is the one place that knows which variables exist.  A variable
 * that starts with PATHPROF_ but is not in it is reported, because a typo
 * (PATHPROF_OUTPUT=...) silently ignored costs a user a whole profiling run. */
#include "config.h"
#include "message.h"

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

static const struct env_var env_vars[] = {
    {"PATHPROF_OUT", "pathprof.out",
     "a non-empty file name; %p is replaced by the process id, %% by %",
     parse_out},
    {"PATHPROF_QUIET", "0", "0 or 1", parse_quiet},
};

#define N_ENV_VARS (sizeof env_vars / sizeof env_vars[0])
#define PREFIX "PATHPROF_"

static int parse_out(const char *value, struct pprt_config *cfg)
{
    if (*value == '\0')
        return -1;
    for (const char *s = value; *s; s++) {
        if (*s != '%')
            continue;
        if (s[1] != 'p' && s[1] != '%')
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
    free(cfg->out_pattern);
    cfg->out_pattern = abs;
    return 0;
}

static int parse_quiet(const char *value, struct pprt_config *cfg)
{
    if (strcmp(value, "0") == 0)
        cfg->quiet = 0;
    else if (strcmp(value, "1") == 0)
        cfg->quiet = 1;
    else
        return -1;
    return 0;
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
            char known[256];
            list_known(known, sizeof known);
            pprt_warning("unknown environment variable %.*s ignored (known: %s)",
                         (int)name_len, *e, known);
            continue;
        }
        if (v->parse(value, &pprt_config) != 0)
            pprt_warning("%s=%s is not valid (accepted: %s); using the default %s",
                         v->name, value, v->accepted, v->default_value);
    }
    pprt_set_quiet(pprt_config.quiet);
}
