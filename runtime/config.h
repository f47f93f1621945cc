/* config.h - the run-time configuration read from PATHPROF_* variables.
 *
 * Read once, at the first TU registration (so before main in the usual
 * case), and never changed afterwards: later setenv() calls by the program
 * have no effect.  The table of variables is in config.c and documented in
 * docs/runtime.md; keep the two in step. */
#ifndef PATHPROF_RT_CONFIG_H
#define PATHPROF_RT_CONFIG_H

#pragma GCC visibility push(hidden)

struct pprt_config {
    /* Output path pattern (%p = pid, %% = %).  A relative pattern was made
     * absolute against the working directory at load time, so a program
     * that chdir()s still writes where it was started. */
    char *out_pattern;
    int quiet; /* 1: no informational messages */
};

extern struct pprt_config pprt_config;

/* Apply defaults, then every PATHPROF_* variable of the environment; warn
 * about unknown names and bad values (the default stays in force). */
void pprt_config_load(void);

#pragma GCC visibility pop

#endif
