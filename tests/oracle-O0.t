#!/usr/bin/env bash
# The edge oracle at -O0, independent of the numbering: every test program
# is built with -fplugin-arg-pathprof-verify; each real CFG edge's count is
# derived from the path counts (sum of the counts of the paths whose .edges
# hold it) and compared with the plugin's direct edge counters
# (verify_edges).  They must be equal, except in the functions whose
# activations are abandoned by exit() in a callee or by longjmp (the
# programs' `//! abandoned` lines give the number by construction; see
# tests/oracle/ppcheck.pl).  The programs' expectations must also hold in
# the verify build.
# A second oracle outside pathprof: GCC's own coverage counters.  Every
# program is also built with --coverage (no plugin) and run; for every
# marker line, the sum of the counts of the paths covering it must equal
# gcov's count of that line, less the executions on partial paths
# abandoned by exit() or longjmp that the program states by construction
# (`//! gcov-extra`).  Unlike the verify counters, gcov cannot share a
# mistake with the plugin's probe placement.  (abort.c: gcov writes
# nothing on abort, and neither does pathprof.)
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
perl "$TAP_ROOT/tests/lib/gen-switch.pl" 300 >"$T/bigswitch.c" || BAIL_OUT "gen-switch.pl failed"
for src in "$PP_PROGRAMS"/*.c "$T/bigswitch.c"; do
    pp_program "$src" O0 verify gcov
done
done_testing
