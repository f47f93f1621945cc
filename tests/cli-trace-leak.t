#!/usr/bin/env bash
# A trace whose TU record parses but carries impossible bases (issue 11,
# fault 4): `pathprof dump` must refuse it with exit 2 and one line naming
# the record, and free the metadata it had parsed (trace_read.c read_tu
# leaked it on each of these checks). A real stream-mode run writes the
# trace; tests/cli/craft.pl changes one base and re-seals the checksum;
# valgrind (--leak-check=full --error-exitcode=99) runs the CLI.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
# valgrind cannot run a sanitized CLI: in a sanitizer suite the CLI runs
# alone, and under ASan its LeakSanitizer fails the test on a leak (the
# suite's report files, scripts/run-test.sh); under TSan leaks go unchecked.
VG=(valgrind -q --leak-check=full --error-exitcode=99)
if [ -n "$PP_SANITIZE" ]; then
    VG=()
    note "SANITIZE=$PP_SANITIZE: no valgrind (it cannot run a sanitized program)"
else
    command -v valgrind >/dev/null || plan skip_all "valgrind is not installed (apt-get install valgrind)"
fi

cp "$PP_CLI_DIR/kipf/oddeven.c" "$T/"
cd "$T" || exit 1
pp_cc "$T/oe" oddeven.c -O2 -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build oddeven.c"
PATHPROF_ANALYZER=trace PATHPROF_QUIET=1 PATHPROF_TRACE=$T/oe.trace "$T/oe" >/dev/null ||
    BAIL_OUT "the traced run failed"

"${VG[@]}" "$PP_CLI" dump "$T/oe.trace" >/dev/null 2>"$T/vg.err"
is "$?" 0 "valgrind: dump reads the real trace without a leak or an error"

# bad NAME FIELD=VALUE REGEX: the TU record's base changed, refused, no leak
bad() {
    local name=$1 edit=$2 re=$3 rc
    perl "$PP_CLI_DIR/craft.pl" "$T/oe.trace" "$T/bad.trace" "trace-tu:$edit" || BAIL_OUT "craft.pl failed"
    "${VG[@]}" "$PP_CLI" dump "$T/bad.trace" >/dev/null 2>"$T/vg.err"
    rc=$?
    is "$rc" 2 "$name: exit 2, no leak (valgrind exits 99 on one)" ||
        diag "$(head -n 30 "$T/vg.err")"
    like "$(head -n 1 "$T/vg.err")" "^pathprof: $T/bad.trace: record [0-9]+ \(TU, at byte [0-9]+\): $re$" \
        "$name: one line naming the file and the record"
}

bad "tu_base 0" tu_base=0 'tu_base 0 \(global path index 0 is never valid\)'
bad "function base overflowing" fn_base=0xffffffffffffffff 'function base 18446744073709551615 overflows'
bad "path indices beyond 2^61" tu_base=0x1fffffffffffffff 'function 0 \([a-z]+\): its path indices go beyond 2\^61'
bad "tu_base beyond 2^61" tu_base=0x2000000000000000 \
    'tu_base 2305843009213693952 beyond the 2\^61 path indices of an event'
done_testing
