#!/usr/bin/env bash
# Multithreaded counting: tests/programs/threads.c (3 rounds of 4 threads
# created and joined in loops) built with -pthread must count exactly the
# known numbers of paths summed over the threads: with
# -fprofile-update=atomic (its `//! cflags`; docs/plugin-args.md: the
# plugin follows it; tests/threads-defaults.t has -pthread alone),
# with update=atomic, in hash mode (hash-threshold=1: hash updates are always
# thread-safe), with the edge oracle, and under ThreadSanitizer (no race
# report: the counters are updated atomically).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
src=$PP_PROGRAMS/threads.c

atomic_flag() {    # the worker function's directory flags must have ATOMIC (4) or HASH (1)
    local f=$PP_LAST_DIR/decoded.json
    [ -f "$f" ] || { fail "$1: decoded profile present"; return; }
    local flags
    flags=$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
        print join " ", map { $_->{flags} } grep { $_->{name} eq "worker" } @{ $j->{functions} }' <"$f")
    ok "$1: worker's counters are thread-safe (flags $flags has ATOMIC or HASH)" \
        perl -e 'exit(($ARGV[0] & 5) ? 0 : 1)' "${flags:-0}"
}

for level in O0 O2; do
    pp_program "$src" $level
    atomic_flag "threads -$level -fprofile-update=atomic"
    pp_program "$src" $level pp:-fplugin-arg-pathprof-update=atomic verify
    pp_program "$src" $level pp:-fplugin-arg-pathprof-hash-threshold=1
    atomic_flag "threads -$level hash mode"
done

echo 'int main(void){return 0;}' >"$T/probe.c"
if [ -n "$PP_SANITIZE" ] && [ "$PP_SANITIZE" != thread ]; then
    skip "a TSan program cannot load this SANITIZE=$PP_SANITIZE suite's libpathprof.so" 1
elif gcc -fsanitize=thread "$T/probe.c" -o "$T/probe" 2>/dev/null && "$T/probe" 2>/dev/null; then
    # -fprofile-update=atomic: the plugin's updates must be race-free
    pp_program "$src" O1 -- -fsanitize=thread
else
    skip "gcc cannot build or run -fsanitize=thread programs here" 1
fi
done_testing
