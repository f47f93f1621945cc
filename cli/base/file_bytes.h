/* file_bytes.h - reading a whole file into memory. */
#ifndef PATHPROF_CLI_FILE_BYTES_H
#define PATHPROF_CLI_FILE_BYTES_H

#include <stdbool.h>
#include <stddef.h>

/* Reads PATH into a malloc'd buffer (NUL-terminated for convenience, the
 * NUL not counted in *len).  Files larger than MAX bytes are refused with
 * errno EFBIG.  On failure returns false with errno set. */
bool file_bytes(const char *path, size_t max, unsigned char **data, size_t *len);

#endif
