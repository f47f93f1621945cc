#!/usr/bin/env bash
# Damage everywhere: a small profile truncated at every length, every byte
# inverted (caught by the size and checksum checks), and every byte changed
# with the checksum re-sealed, so the parser itself meets the damage; the
# same for a sample of a bigger profile (hash mode, merged copies). Every
# run must end in exit 0 or 2 with at most one line "pathprof: FILE: ...",
# never a crash, a hang or a big allocation. Then the same with the CLI
# built with AddressSanitizer and UBSan (a sample; PP_CLI_SWEEP_STRIDE=1
# runs every offset).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require
pp_not_under_sanitizer thread "the CLI is single-threaded, TSan has nothing to check in it, and the sweeps run it ~10^4 times"
SWEEP=$PP_CLI_DIR/sweep.sh
ALL_KINDS="trunc flip rflip rflip1 rtrunc"
RESEALED="rflip rflip1 rtrunc"

perl "$MKPROFILE" --scenario small "$T/small.pp" || BAIL_OUT "mkprofile.pl failed"
perl "$MKPROFILE" --scenario basic "$T/basic.pp" || BAIL_OUT "mkprofile.pl failed"
mkdir "$T/small" "$T/basic"
perl "$PATCH" --sweep "$T/small.pp" "$T/small" || BAIL_OUT "patch.pl --sweep failed"
perl "$PATCH" --sweep "$T/basic.pp" "$T/basic" 7 || BAIL_OUT "patch.pl --sweep failed"

# run_sweep NAME BIN DIR KINDS STRIDE [ULIMIT_KB]
run_sweep() {
    local name=$1 bin=$2 dir=$3 kinds=$4 stride=$5 limit=${6:-unlimited} out rc
    out=$( (pp_ulimit_v "$limit"; timeout 900 bash "$SWEEP" "$bin" "$dir" "$kinds" "$stride" "$T/progress") )
    rc=$?
    if [ $rc = 124 ]; then
        fail "$name" "timed out (hang?) while running $(cat "$T/progress")"
    elif [ $rc != 0 ]; then
        fail "$name" "sweep.sh failed with status $rc" "$out"
    elif [ -n "$out" ]; then
        fail "$name" "$(printf '%s\n' "$out" | wc -l) damaged files broke a promise, e.g.:" \
            "$(printf '%s\n' "$out" | head -n 10)"
    else
        pass "$name"
    fi
}

# In a sanitizer suite $PP_CLI is itself sanitized: these sweeps are the
# sanitized ones (at the sanitized sweeps' stride), the build below is not needed.
all=1 every=every
[ -n "$PP_SANITIZE" ] && all=${PP_CLI_SWEEP_STRIDE:-9} every="every ${all}th"
n=$(stat -c %s "$T/small.pp")
run_sweep "small profile ($n bytes): $every truncation and byte flip, every command" \
    "$PP_CLI" "$T/small" "$ALL_KINDS" "$all" 262144
run_sweep "bigger profile: every $((7 * all))th offset" "$PP_CLI" "$T/basic" "$ALL_KINDS" "$all" 262144

# The same under the sanitizers, when this gcc can build and run them.
ASAN=$T/asan/pathprof
mkdir -p "$T/asan"
if [ -n "$PP_SANITIZE" ]; then
    skip "the CLI under test is already built with SANITIZE=$PP_SANITIZE (the sweeps above)" 9
elif gcc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all -I"$TAP_ROOT/runtime" \
    -I"$TAP_ROOT/analyzers" -I"$TAP_ROOT/cli" "$TAP_ROOT"/cli/*.c "$TAP_ROOT"/cli/*/*.c \
    "$TAP_ROOT/analyzers/common/activations.c" "$TAP_ROOT"/runtime/profile-merge*.c \
    "$TAP_ROOT/runtime/bytebuf.c" \
    -o "$ASAN" -lm >"$T/asan/build.log" 2>&1 &&
    "$ASAN" --version >/dev/null 2>&1; then
    pass "CLI builds with -fsanitize=address,undefined"
    export ASAN_OPTIONS=exitcode=86:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:exitcode=86
    # Leak checking needs ptrace-like privileges some containers lack.
    if ! ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=1 "$ASAN" report "$T/small.pp" >/dev/null 2>&1; then
        note "LeakSanitizer unusable here: leaks not checked"
        export ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0
    fi
    cli_run report "$T/basic.pp"
    "$ASAN" report "$T/basic.pp" >"$T/asan.out" 2>&1
    ok_status $? "sanitized CLI reads the undamaged profile" || diag "$(head -n 20 "$T/asan.out")"
    for cmd in "report --json" "show loop 3" "dot loop" "show fatal 0"; do
        # shellcheck disable=SC2086
        set -- $cmd
        c=$1; shift
        "$ASAN" "$c" "$T/basic.pp" "$@" >"$T/asan.out" 2>&1
        ok_status $? "sanitized: $cmd" || diag "$(head -n 20 "$T/asan.out")"
    done
    stride=${PP_CLI_SWEEP_STRIDE:-9}
    run_sweep "sanitized: small profile, re-sealed damage at every ${stride}th offset" \
        "$ASAN" "$T/small" "$RESEALED" "$stride"
    run_sweep "sanitized: small profile, truncations and raw flips at every $((stride * 4))th offset" \
        "$ASAN" "$T/small" "trunc flip" $((stride * 4))
    run_sweep "sanitized: bigger profile, every $((7 * stride))th offset" \
        "$ASAN" "$T/basic" "$RESEALED" "$stride"
else
    skip "gcc cannot build or run -fsanitize=address,undefined here: $(tail -n 1 "$T/asan/build.log")" 6
fi
done_testing
