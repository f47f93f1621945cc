/* string-table.h - the TU's table of strings (function and file names)
 * that the metadata blob refers to by index (docs/format.md, section 2).
 * Both the DAG builder (source files of nodes) and the metadata writer
 * intern strings here, so neither has to call the other. */
#ifndef PATHPROF_STRING_TABLE_H
#define PATHPROF_STRING_TABLE_H

#include <stdint.h>
#include <string>

/* Index of S in the TU string table (added on first use).  */
uint32_t pp_string_index (const char *s);

/* The number of strings, and the string at index I (I < the number).  */
uint32_t pp_string_count (void);
const std::string &pp_string_at (uint32_t i);

#endif
