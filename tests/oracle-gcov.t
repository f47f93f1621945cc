#!/usr/bin/env bash
# An oracle outside pathprof: GCC's own coverage counters.  Every test
# program is also built with --coverage (no plugin) and run; for every
# marker line the sum of the counts of the paths covering it must equal
# gcov's execution count of that line, less the executions on partial
# paths abandoned by exit() or longjmp that the program states by
# construction (`//! gcov-extra`).  Unlike the verify counters, this cannot
# share a mistake with the plugin (where probes are placed, what is
# counted when).  abort.c is left out: gcov writes nothing on abort.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
command -v gcov >/dev/null || plan skip_all "no gcov"
perl "$TAP_ROOT/tests/lib/gen-switch.pl" 200 >"$T/bigswitch.c" || BAIL_OUT "gen-switch.pl failed"
for level in O0 O2; do
    for src in "$PP_PROGRAMS"/*.c "$T/bigswitch.c"; do
        base=$(basename "$src" .c)
        [ "$base" = abort ] && continue
        pp_program "$src" "$level" noexpect
        d=$PP_LAST_DIR
        [ -f "$d/prof.json" ] || continue
        cflags=$(pp_spec "$src" cflags) || cflags=
        args=$(pp_spec "$src" run) || args=
        mkdir -p "$d/cov"
        cp "$src" "$d/cov/$base.c"
        # shellcheck disable=SC2086
        if ! (cd "$d/cov" && "$PP_GCC" -$level -g $cflags --coverage -fprofile-update=atomic "$base.c" -o cov >cc.log 2>&1); then
            fail "$base -$level: --coverage build" "$(cat "$d/cov/cc.log")"; continue
        fi
        # shellcheck disable=SC2086
        { (cd "$d/cov" && exec ./cov $args >/dev/null 2>&1 </dev/null); } 2>/dev/null
        if ! (cd "$d/cov" && gcov -t -j cov-"$base".gcda >gcov.json 2>gcov.err); then
            fail "$base -$level: gcov reads the coverage data" "$(cat "$d/cov/gcov.err")"; continue
        fi
        pp_check --meta "$d/decoded.json" gcov "$src" "$d/prof.json" "$d/cov/gcov.json" "$base -$level gcov: "
    done
done
done_testing
