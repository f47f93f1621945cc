/* report_header.h - the run's header, shared by every report (report_header.c). */
#ifndef PATHPROF_CLI_REPORT_HEADER_H
#define PATHPROF_CLI_REPORT_HEADER_H

#include <stdio.h>

#include "read/profile.h"

/* The run: the NOT EXACT block when events were lost, program, mode, totals. */
void report_header(FILE *out, const struct pp_profile *p);

#endif
