/* constant-p.h - __builtin_constant_p settled before numbering.  Why:
 * constant-p.cc. */
#ifndef PATHPROF_CONSTANT_P_H
#define PATHPROF_CONSTANT_P_H

/* In cfun, answers 0 for every __builtin_constant_p whose argument is not
   a constant yet (those whose argument is, GCC answers itself).  Returns
   the number of calls answered.  */
unsigned pp_settle_constant_p (void);

#endif
