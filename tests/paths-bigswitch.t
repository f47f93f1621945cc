#!/usr/bin/env bash
# A generated switch with hundreds of cases (tests/lib/gen-switch.pl):
# every case's count, the fall-through paths, the default, at -O0 and -O2.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
perl "$TAP_ROOT/tests/lib/gen-switch.pl" 400 >"$T/bigswitch.c" || BAIL_OUT "gen-switch.pl failed"
for level in O0 O2; do
    pp_program "$T/bigswitch.c" "$level"
done
done_testing
