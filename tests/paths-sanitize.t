#!/usr/bin/env bash
# The test programs built with pathprof and -fsanitize=address,undefined
# (at -O1, between the two levels the other tests use): no sanitizer
# report, same output and status as the plain build, and their
# expectations hold.  Programs whose expectations are level-specific only
# get their level-independent expectations checked (-O1 has none of the
# `expect O0`/`expect O2` lines).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
pp_not_under_sanitizer thread "its programs are ASan programs, which cannot load this suite's TSan libpathprof.so"
echo 'int main(void){return 0;}' >"$T/probe.c"
if ! gcc -fsanitize=address,undefined "$T/probe.c" -o "$T/probe" 2>/dev/null || ! "$T/probe"; then
    plan skip_all "gcc cannot build or run -fsanitize=address,undefined programs here"
fi
for src in "$PP_PROGRAMS"/*.c; do
    case $(basename "$src") in
    threads.c) continue ;;   # ThreadSanitizer is tests/threads.t's job
    esac
    pp_program "$src" O1 sanitize
done
done_testing
