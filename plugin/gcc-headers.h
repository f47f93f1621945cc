/* gcc-headers.h - the GCC internals the plugin uses, in the order GCC's own
 * headers require (gcc-plugin.h first).  One place, so that every plugin
 * file sees the same declarations. */
#ifndef PATHPROF_GCC_HEADERS_H
#define PATHPROF_GCC_HEADERS_H

#include "gcc-plugin.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cfganal.h"
#include "cfghooks.h"
#include "cfgloop.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "ssa.h"
#include "tree-phinodes.h"
#include "tree-ssanames.h"
#include "tree-into-ssa.h"
#include "tree-cfg.h"
#include "tree-cfgcleanup.h"
#include "cgraph.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "builtins.h"
#include "attribs.h"
#include "internal-fn.h"
#include "langhooks.h"
#include "diagnostic.h"
#include "toplev.h"
#include "opts.h"
#include "varasm.h"
#include "tree-iterator.h"
#include "gimplify.h"
#include "alias.h"
#include "calls.h"

#endif
