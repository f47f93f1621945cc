/* version.h - the version pathprof reports (--version). */
#ifndef PATHPROF_CLI_VERSION_H
#define PATHPROF_CLI_VERSION_H

#define PATHPROF_VERSION "0.1"

#endif
