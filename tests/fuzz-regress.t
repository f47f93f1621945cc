#!/usr/bin/env bash
# Inputs the fuzzer once broke the CLI with (tests/fuzz/, docs/fuzzing.md):
# every command that reads a profile must answer each with a report or a
# clean refusal (exit 0, 1 or 2, at most two lines on stderr), never a
# crash. Under the sanitizer suites, run-test.sh also fails the test on
# any ASan/UBSan/LSan report, which is how these inputs failed:
#   wpp-expand-leak.pp  `wpp --expand` of an undecodable path leaked the
#                       activation stack of the thread it stopped in;
#   wpp-no-subpaths.pp  `wpp` of a grammar with no hot subpath gave qsort
#                       a NULL array;
#   wpp-tu-section.pp   the WPP reader's refusal of a TU naming a missing
#                       TU section read the TU table it had just freed.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$T" || exit 1
for f in "$TAP_ROOT"/tests/fuzz/*.pp; do
    name=$(basename "$f")
    for cmd in "report" "report --json" "report --k" "show main" "wpp" "wpp --json" \
        "wpp --expand" "vpp" "dump" "dot main"; do
        # shellcheck disable=SC2086 # CMD is a command and its options
        "$PP_CLI" $cmd "$f" >out 2>err
        rc=$?
        ok "$name: pathprof $cmd exits $rc, $(wc -l <err) lines on stderr" \
            test "$rc" -le 2 -a "$(wc -l <err)" -le 2 || diag "$(head -n 5 err)"
    done
done
done_testing
