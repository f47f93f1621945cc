/* tu-copies.cc - see tu-copies.h. */
#include "tu-copies.h"

bool
pp_fn_has_tu_copies (tree fndecl)
{
  if (DECL_COMDAT (fndecl) || DECL_ONE_ONLY (fndecl))
    return true;
  /* Defined in a file other than the one compiled: a header (or a file
     #included by it), which other TUs may include too.  */
  const char *file = DECL_SOURCE_FILE (fndecl);
  return file && main_input_filename && strcmp (file, main_input_filename) != 0;
}
