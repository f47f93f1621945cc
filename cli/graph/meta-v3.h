/* meta-v3.h - the detail records of metadata version 3 (meta-v3.c). */
#ifndef PATHPROF_CLI_META_V3_H
#define PATHPROF_CLI_META_V3_H

#include "base/error.h"
#include "meta-types.h"

/* Reads the version 3 detail record at OFFSET of BLOB (LEN bytes) into F,
 * whose directory entry is read; TU's strings are read. False after
 * pp_fail(ERR) when the record is damaged. */
bool meta_parse_detail_v3(const unsigned char *blob, uint64_t len, uint64_t offset,
                          const struct pp_tu_meta *tu, struct pp_func_meta *f,
                          struct pp_error *err);

#endif
