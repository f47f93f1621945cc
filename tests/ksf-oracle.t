#!/usr/bin/env bash
# The ksf analyzer against brute force on real programs: each program is
# built in stream mode and run with PATHPROF_ANALYZER=ksf,blpp,trace for
# k = 1, 2, 3, 4, 8, 16; tests/ksf/oracle.pl (Perl, reading the binary
# trace and profile itself) counts every n-gram (n <= k) of consecutive path
# events of one activation and compares them with the KIPF section exactly,
# checks the section's statistics and property 1, and level 1 = blpp's
# counts (the whole forest for k = 1).  Property 2 (k-IPF in (k+1)-IPF)
# on deterministic single-threaded programs.  Loops, recursion, longjmp,
# exit/abort, C++ exceptions, threads with 1 and 2 analyzer threads.
# Both builds of the k-IPF: through suffix links (PATHPROF_KSF_BUILD=links,
# the default) for every k, and through the k-SF of Fig. 6 and Fig. 7
# (slabs) at -O2 for k = 2, 4, 8.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/ksf/oracle.pl
STREAM=-fplugin-arg-pathprof-mode=stream
KS="1 2 3 4 8 16"

# one NAME BIN ARGS...: runs BIN for every k of $KS, built the $BUILD way
# (links when unset), and checks each profile
one() {
    local name=$1 k out rc; shift
    for k in $KS; do
        R=$T/$name-k$k
        PATHPROF_KSF_BUILD=${BUILD:-links} \
        PATHPROF_ANALYZER=ksf,blpp,trace PATHPROF_K=$k PATHPROF_OUT=$R.out \
            PATHPROF_TRACE=$R.trace PATHPROF_QUIET=1 "$@" >"$R.stdout" 2>"$R.stderr"
        if [ ! -s "$R.out" ] || [ ! -s "$R.trace" ]; then
            fail "$name k=$k: profile and trace written" "$(head -n 5 "$R.stderr")"
            continue
        fi
        out=$(perl "$ORACLE" check "$R.out" "$R.trace" 2>&1); rc=$?
        if [ $rc = 0 ]; then pass "$name k=$k: KIPF = brute force ($out)"
        else fail "$name k=$k: KIPF = brute force" "$out"; fi
    done
}

for src in "$TAP_ROOT"/tests/programs/*.c; do
    base=$(basename "$src" .c)
    # abort() leaves without writing a profile (docs/runtime.md).
    [ "$base" = abort ] && continue
    extra=()
    [ "$base" = threads ] && extra=(-pthread)
    for O in -O0 -O2; do
        if pp_cc "$T/$base$O" "$src" $STREAM $O "${extra[@]}"; then
            one "$base$O" "$T/$base$O"
            [ "$O" = -O2 ] && KS="2 4 8" BUILD=slabs one "$base$O-slabs" "$T/$base$O"
            if [ "$base" != threads ]; then
                NAME=$base$O
                set -- $KS; a=$1; shift
                for b in "$@"; do
                    if out=$(perl "$ORACLE" contain "$T/$NAME-k$a.out" "$T/$NAME-k$b.out" 2>&1); then
                        pass "$NAME: $out"
                    else
                        fail "$NAME: k=$a forest contained in k=$b forest" "$out"
                    fi
                    a=$b
                done
            fi
        else
            skip "$base$O did not build" $([ "$O" = -O2 ] && echo 14 || echo 11)
        fi
    done
done

P=$TAP_ROOT/tests/trace/programs
if pp_cc "$T/rl" "$P/recurse_longjmp.c" $STREAM -O2; then
    one recurse_longjmp "$T/rl" 60
else
    skip "recurse_longjmp did not build" 6
fi
if pp_cc "$T/tl" "$P/threads_loop.c" $STREAM -O2 -pthread; then
    one threads_loop "$T/tl" 5
    PATHPROF_ANALYZERS=2 one threads_loop-2an "$T/tl" 5
    PATHPROF_CHUNK=16 PATHPROF_ANALYZERS=2 one threads_loop-chunk16 "$T/tl" 5
else
    skip "threads_loop did not build" 18
fi
if command -v g++ >/dev/null && PP_GCC=g++ pp_cc "$T/tr" "$P/throw_recursive.cc" $STREAM -O2; then
    one throw_recursive "$T/tr" 40
else
    skip "throw_recursive did not build (no g++?)" 6
fi

# The oracle can fail: a 4-IPF is not contained in a 2-IPF.
if perl "$ORACLE" contain "$T/recurse_longjmp-k4.out" "$T/recurse_longjmp-k2.out" >/dev/null 2>&1; then
    fail "oracle.pl contain rejects a 4-IPF against a 2-IPF"
else
    pass "oracle.pl contain rejects a 4-IPF against a 2-IPF"
fi

done_testing
