#!/usr/bin/env bash
# Stream mode end to end with PATHPROF_ANALYZER=blpp,trace: real programs
# compiled with -fplugin-arg-pathprof-mode=stream, run once; then, by brute
# force, every path event of the trace (read with `pathprof dump`) counted
# per function and path ID must give exactly the blpp profile's counts, the
# trace must hold as many events as the STREAM section says were consumed,
# and the activation stack rebuilt from each thread's stream must end empty
# without an error (recursion, longjmp, C++ exceptions, many threads).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
P=$TAP_ROOT/tests/trace/programs
CHECK=$TAP_ROOT/tests/trace/count-check.pl

# run NAME BIN ARGS...: runs BIN with blpp and trace; sets $R (file prefix)
run() {
    local name=$1; shift
    R=$T/$name
    PATHPROF_ANALYZER=blpp,trace PATHPROF_OUT=$R.out PATHPROF_TRACE=$R.trace PATHPROF_QUIET=1 \
        "$@" >"$R.stdout" 2>"$R.stderr"
    if [ $? = 0 ] && [ -s "$R.out" ] && [ -s "$R.trace" ]; then
        pass "$name: runs, writes a profile and a trace"
    else
        fail "$name: runs, writes a profile and a trace" "$(head -n 5 "$R.stderr")"
        return 1
    fi
    "$PP_CLI" dump "$R.trace" >"$R.dump" 2>"$R.dump.err" || diag "$(cat "$R.dump.err")"
    "$PP_CLI" report --json "$R.out" >"$R.json" 2>"$R.json.err" || diag "$(cat "$R.json.err")"
}

# counts NAME: the trace's path events equal the profile's counts
counts() {
    local out
    if out=$(perl "$CHECK" "$R.dump" "$R.json"); then
        pass "$1: trace path events = blpp counts ($out)"
    else
        fail "$1: trace path events = blpp counts" "$out"
    fi
    local consumed traced
    consumed=$(perl -MJSON::PP -e 'local $/; my $p = decode_json(<STDIN>);
        print $p->{stream} ? "$p->{stream}{events} exact=" . ($p->{stream}{exact} ? 1 : 0) : "none"' <"$R.json")
    traced=$(sed -n '1s/.* \([0-9]*\) events$/\1/p' "$R.dump")
    is "$consumed" "$traced exact=1" "$1: the STREAM section's events are the trace's, and exact"
}

# stacks NAME [TODO-REASON]: every thread's stream ends at depth 0, no error
stacks() {
    local bad
    bad=$(grep '^# thread [0-9]*: ends' "$R.dump" | grep -v 'ends at depth 0; errors: none$')
    if [ -z "$bad" ] && grep -q '^# thread [0-9]*: ends' "$R.dump"; then
        pass "$1: every thread's activation stack ends empty, no error"
    elif [ -n "${2:-}" ]; then
        todo "$1: every thread's activation stack ends empty, no error" "$2"
        diag "$(printf '%s\n' "$bad" | head -n 3)"
    else
        fail "$1: every thread's activation stack ends empty, no error" "$(printf '%s\n' "$bad" | head -n 5)"
    fi
}

STREAM=-fplugin-arg-pathprof-mode=stream
for O in -O0 -O2; do
    if pp_cc "$T/rl$O" "$P/recurse_longjmp.c" $STREAM "$O" && run "recurse_longjmp$O" "$T/rl$O" 60; then
        counts "recurse_longjmp$O"
        # The RESUME of a lone setjmp call is emitted on its way out, so a
        # longjmp back to it (which returns from the call) resyncs the stack.
        stacks "recurse_longjmp$O"
    else
        skip "recurse_longjmp$O did not build or run" 3
    fi
done

if pp_cc "$T/tl" "$P/threads_loop.c" $STREAM -O2 -pthread &&
    PATHPROF_ANALYZERS=2 run threads_loop "$T/tl" 5; then
    counts threads_loop
    stacks threads_loop
    is "$(grep -c '^# thread [0-9]*: [0-9]* events, stream ended$' "$R.dump")" 21 \
        "threads_loop: 21 threads (20 joined in loops and main), every stream ended"
else
    skip "threads_loop did not build or run" 4
fi

# fork: one trace and one profile per process (%p), each consistent.
if [ "${PP_SANITIZE:-}" = thread ]; then
    # The child restarts the analyzer threads, which TSan does not allow
    # after a multithreaded fork (docs/install.md).
    skip "fork under TSan: no threads in a multithreaded fork's child" 6
elif pp_cc "$T/fk" "$P/fork_child.c" $STREAM -O2 &&
    (cd "$T" && PATHPROF_ANALYZER=blpp,trace PATHPROF_OUT=$T/fk.%p.out PATHPROF_TRACE=$T/fk.%p.trace \
        PATHPROF_QUIET=1 ./fk >"$T/fk.stdout" 2>"$T/fk.stderr"); then
    parent=$(sed -n 's/^parent .* //p' "$T/fk.stdout") child=$(sed -n 's/^child .* //p' "$T/fk.stdout")
    for who in parent:$parent child:$child; do
        R=$T/fk.${who#*:}
        "$PP_CLI" dump "$R.trace" >"$R.dump" 2>&1
        "$PP_CLI" report --json "$R.out" >"$R.json" 2>&1
        counts "fork, ${who%%:*}"
    done
    like "$(head -n 1 "$T/fk.$child.dump")" \
        "pid $child \\(forked from $parent\\)" "fork: the child's trace names its parent"
    stacks "fork, child"
else
    skip "fork_child did not build or run" 6
fi

if command -v g++ >/dev/null && PP_GCC=g++ pp_cc "$T/tr" "$P/throw_recursive.cc" $STREAM -O2 &&
    run throw_recursive "$T/tr" 40; then
    counts throw_recursive
    stacks throw_recursive
    like "$(grep -c ' RESUME ' "$R.dump")" '^[1-9][0-9]*$' "throw_recursive: the stream has RESUME markers"
    if [ "${PP_SANITIZE:-}" = thread ]; then
        # TSan gives every function an EH cleanup (its __tsan_func_exit),
        # so the unwinder stops in each frame and each one resumes on its
        # own: no RESUME has activations of its own to unwind.
        skip "TSan: every frame has a cleanup, each resumes itself" 1
    else
        like "$(grep ' RESUME .* unwound ' "$R.dump" | head -n 1)" ' level RESUME 0x[0-9a-f]+ unwound [1-9]' \
            "throw_recursive: a catch in an outer activation of level unwinds inner ones"
    fi
else
    skip "no g++, or throw_recursive did not build or run" 5
fi
done_testing
