#!/usr/bin/env bash
# The short fuzzing pass of `make check`: fuzz/run.sh (the machinery of
# `make fuzz`, docs/fuzzing.md) for FUZZ_SHORT_SECONDS (30) with a fixed
# RNG seed, on the real profiles and traces fuzz/seeds.sh writes. Every
# reader of the CLI runs under ASan and UBSan; a crash, a hang, a leak, an
# exit status outside 0-2 or an allocation over 256 MB fails the test, and
# the ASan report of the first finding is shown.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
# The driver carries its own ASan and UBSan; a sanitizer suite's tree would
# only run the same pass again, slower.
[ -n "${PP_SANITIZE:-}" ] && plan skip_all "the fuzz driver is sanitized already (SANITIZE=$PP_SANITIZE)"
for tool in afl-fuzz afl-gcc; do
    command -v "$tool" >/dev/null ||
        plan skip_all "$tool not installed (Debian package afl++; make check installs it)"
done
plan 3

seconds=${FUZZ_SHORT_SECONDS:-30}
F=$T/fuzz
"$TAP_ROOT/fuzz/run.sh" "$PP_BUILD" "$F" "$seconds" 1 2>"$T/run.err"
rc=$?
is "$rc" 0 "afl-fuzz ran ${seconds}s and found no crash or hang" ||
    diag "$(cat "$T/run.err")" "$(tail -n 15 "$F/afl.log" 2>/dev/null)"
first=$(ls "$F/findings" 2>/dev/null | head -n 1)
[ -n "$first" ] && diag "the first finding, $first, under ASan/UBSan:" \
    "$(cd "$F/cwd" && ASAN_OPTIONS=detect_leaks=1 "$F/driver" "$F/findings/$first" 2>&1 | head -n 40)"

execs=$(sed -n 's/^execs_done *: //p' "$F/afl/default/fuzzer_stats" 2>/dev/null)
ok "afl-fuzz ran some inputs (${execs:-0} executions)" test "${execs:-0}" -gt 100
# The corpus grows only if the instrumentation reaches afl-fuzz: a driver
# built without it would fuzz blind and find nothing, silently.
seeds=$(ls "$F/seeds" 2>/dev/null | wc -l)
corpus=$(sed -n 's/^corpus_count *: //p' "$F/afl/default/fuzzer_stats" 2>/dev/null)
ok "coverage guides it: the corpus grew from $seeds seeds to ${corpus:-0} inputs" \
    test "${corpus:-0}" -gt "$seeds"
