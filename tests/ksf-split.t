#!/usr/bin/env bash
# Several workers on one producer stream give the k-IPF of one builder
# (PATHPROF_KSF_WORKERS, docs/kiterations.md): tests/ksf/split.c cuts
# random multi-activation streams (START/RET/ENTER/RESUME, recursion,
# resyncs) at random words, inside two-word markers too, runs the jobs on
# 1..5 builders in a shuffled order and on ksf_pool worker threads, and
# compares with one builder for k = 1, 2, 3, 4, 8, 16.  Built with
# AddressSanitizer + UBSan, then the worker threads again under
# ThreadSanitizer (no report).  A flavour the compiler cannot run is plain.
. "$(dirname "$0")/lib/tap.sh"

A=$TAP_ROOT/analyzers
src=("$TAP_ROOT/tests/ksf/split.c" "$TAP_ROOT/tests/ksf/forest-text.c" "$A/ksf/split.c" "$A/ksf/pool.c" "$A/ksf/feed.c"
     "$A/common/activations.c" "$A/ksf/forest.c" "$A/ksf/build.c" "$A/ksf/ipf.c" "$A/ksf/suffix-links.c" "$A/ksf/stats.c"
     "$TAP_ROOT/runtime/thread-start.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -pthread -I"$TAP_ROOT/runtime" -I"$A")

# build OUT SANITIZER-FLAGS...: with them when they build and run, else plain
build() {
    local out=$1; shift
    if "$PP_GCC" "${flags[@]}" "$@" "${src[@]}" -o "$out" 2>"$T/cc.err" && "$out" 0 >/dev/null 2>&1; then
        return 0
    fi
    "$PP_GCC" "${flags[@]}" "${src[@]}" -o "$out" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the split test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
    return 1
}

build "$T/split-asan" -fsanitize=address,undefined -fno-sanitize-recover=all ||
    note "AddressSanitizer/UBSan not available: plain build"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
"$T/split-asan" 40 >"$T/asan.tap" 2>"$T/asan.err"
rc=$?
# Its own TAP lines, renumbered into this script's.
while IFS= read -r line; do
    case $line in
        "ok "*) pass "${line#ok * - }" ;;
        "not ok "*) fail "${line#not ok * - }" ;;
        "#"*) echo "$line" ;;
    esac
done <"$T/asan.tap"
is "$rc" 0 "split test (ASan/UBSan) exit status"
is "$(grep -c -E 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:' "$T/asan.err")" 0 \
    "no AddressSanitizer/UBSan report" || diag "$(head -n 20 "$T/asan.err")"

if build "$T/split-tsan" -fsanitize=thread; then
    TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$T/split-tsan" 10 >"$T/tsan.tap" 2>"$T/tsan.err"
    is "$?" 0 "split test under ThreadSanitizer: exit status" || diag "$(head -n 30 "$T/tsan.err")"
    is "$(grep -c 'WARNING: ThreadSanitizer' "$T/tsan.err")" 0 "no ThreadSanitizer report"
    is "$(grep -c '^not ok' "$T/tsan.tap")" 0 "split test under ThreadSanitizer: every check passes"
else
    skip "ThreadSanitizer not available" 3
fi
done_testing
