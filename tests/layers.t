#!/usr/bin/env bash
# layers.t - issue 12: the tree keeps its shape (docs/architecture.md). No
# lower layer includes a header of a higher one (ringbuf < runtime <
# analyzers < cli, plugin apart), and no two modules include each other.
# The checker itself is checked on a small tree of each kind of fault.
. "$(dirname "$0")/lib/tap.sh"
CHECK=$TAP_ROOT/scripts/check-layers.pl

out=$(perl "$CHECK" "$TAP_ROOT" 2>&1)
is "$?" 0 "the tree: no upward include, no loop between modules" || diag "$out"

# A tree with a fault of each kind must fail, naming it.
mk() { mkdir -p "$T/$1/$(dirname "$2")" && printf '%s\n' "$3" >"$T/$1/$2"; }
mk up runtime/a.c '#include "b.h"'
mk up analyzers/b.h '/* b */'
out=$(perl "$CHECK" "$T/up" 2>&1); rc=$?
isnt "$rc" 0 "runtime including an analyzers header fails"
like "$out" "runtime/a.c includes analyzers/b.h" "... and names the include"

mk loop cli/a.c '#include "b.h"'
mk loop cli/a.h '/* a */'
mk loop cli/b.c '#include "a.h"'
mk loop cli/b.h '/* b */'
out=$(perl "$CHECK" "$T/loop" 2>&1); rc=$?
isnt "$rc" 0 "two cli modules including each other fail"
like "$out" "modules in a loop: cli/a cli/b" "... and names both"

mk plug plugin/p.cc '#include "config.h"'
mk plug runtime/config.h '/* config */'
mk plug runtime/pathprof-abi.h '/* abi */'
mk plug plugin/q.cc '#include "pathprof-abi.h"'
out=$(perl "$CHECK" "$T/plug" 2>&1); rc=$?
isnt "$rc" 0 "the plugin including a runtime header other than the ABI fails"
like "$out" "plugin/p.cc includes runtime/config.h" "... and names it"
is "$(printf '%s\n' "$out" | grep -c plugin/q.cc)" 0 "the ABI header is allowed"

mk fine ringbuf/r.h '/* r */'
mk fine runtime/x.c '#include "r.h"'
mk fine cli/y.c '#include "x.h"'
mk fine runtime/x.h '/* x */'
out=$(perl "$CHECK" "$T/fine" 2>&1)
is "$?" 0 "downward includes pass" || diag "$out"
done_testing
