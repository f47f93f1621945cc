/* commands.h - the subcommands and what they share: exit statuses, loading
 * a profile with the one-line error, small argument parsers. */
#ifndef PATHPROF_CLI_COMMANDS_H
#define PATHPROF_CLI_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/profile.h"

/* Exit statuses (docs/cli.md). */
#define EXIT_NOT_FOUND 1   /* no such function or path, no KIPF section; config: files missing */
#define EXIT_TROUBLE 2     /* usage error, unreadable or damaged profile */

int cmd_report(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_dot(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_wpp(int argc, char **argv);
int cmd_select(int argc, char **argv);   /* select.c: PPP's interesting paths */
int cmd_residual(int argc, char **argv); /* residual.c */
int cmd_vpp(int argc, char **argv);      /* vpp.c: variational path profiling */

/* "pathprof: FILE: MSG" on stderr, control bytes replaced: one line. */
void error_in_file(const char *file, const char *msg);
/* "pathprof: MSG" and a hint to --help on stderr; returns EXIT_TROUBLE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads PATH; on failure prints the error line and returns false. */
bool load_profile(const char *path, struct pp_profile *p);
/* The same for one ranking of k-iteration paths (profile.h, profile_read_keep). */
bool load_profile_keep(const char *path, struct pp_profile *p, const struct kipf_keep *keep);
/* For a command that reads one section itself (`pathprof wpp`, `vpp`):
 * loads PATH into P and gives that section's bytes, the one section of
 * tag TAG (KIND names it in messages, MISSING says how to get one),
 * provided the TU sections its labels need are sound (DECODED names what
 * they decode).  *DATA is the file's bytes (the caller frees them), the
 * section body is *DATA + *AT, *LEN bytes.  0, or the exit status after
 * the reason was said (P then freed). */
int load_one_section(const char *path, struct pp_profile *p, uint32_t tag, const char *kind,
                     const char *missing, const char *decoded, unsigned char **data,
                     size_t *at, size_t *len);
/* Decimal, no sign, no junk, no overflow. */
bool parse_u64(const char *s, uint64_t *v);
/* Finds exactly one function for SPEC; otherwise prints why and returns
 * false with *status set. */
bool find_one_function(const struct pp_profile *p, const char *path, const char *spec,
                       size_t *index, int *status);
/* Flushes stdout; a write error is reported and turns into EXIT_TROUBLE. */
int finish_output(int status);

#endif
