/* ppp.h - a PPP function's numbering read back: which Ball-Larus paths
 * were interesting (counted in the array by their PPP number) and which
 * were counted by ID in the hash table (docs/format.md, PPP). */
#ifndef PATHPROF_CLI_PPP_H
#define PATHPROF_CLI_PPP_H

#include <stdbool.h>
#include <stdint.h>

#include "meta.h"

/* True when F has the PPP flag and path ID is one of its interesting
 * paths; *NUMBER is then its PPP number. */
bool ppp_number_of(const struct pp_func_meta *f, uint64_t id, uint32_t *number);

/* How many interesting paths F has (0 unless PPP). */
uint32_t ppp_interesting(const struct pp_func_meta *f);

#endif
