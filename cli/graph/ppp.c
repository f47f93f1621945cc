/* ppp.c - a PPP function's numbering read back (see ppp.h). Tables are as
 * small as the interesting sets, so a scan is enough. */
#include "ppp.h"

#include "pathprof-abi.h"

bool ppp_number_of(const struct pp_func_meta *f, uint64_t id, uint32_t *number)
{
    uint32_t i;
    if (!(f->flags & PATHPROF_FN_PPP))
        return false;
    for (i = 0; i < f->ppp_size; i++)
        if (f->ppp_table[i] == id) {
            *number = i;
            return true;
        }
    return false;
}

uint32_t ppp_interesting(const struct pp_func_meta *f)
{
    uint32_t i, n = 0;
    if (!(f->flags & PATHPROF_FN_PPP))
        return 0;
    for (i = 0; i < f->ppp_size; i++)
        n += f->ppp_table[i] != PATHPROF_PPP_HOLE;
    return n;
}
