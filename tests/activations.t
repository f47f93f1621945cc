#!/usr/bin/env bash
# Unit tests of the activation-stack library (analyzers/common/activations.c) on
# hand-made streams: tests/activations/*.c is one C program printing TAP.
# Built with AddressSanitizer and UBSan when the compiler has them.
. "$(dirname "$0")/lib/tap.sh"

src=("$TAP_ROOT"/tests/activations/*.c "$TAP_ROOT/analyzers/common/activations.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g
       -I"$TAP_ROOT/runtime" -I"$TAP_ROOT/analyzers" -I"$TAP_ROOT/tests/activations")
if "$PP_GCC" "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
        "${src[@]}" -o "$T/activations" 2>"$T/cc.err"; then
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
else
    # Without sanitizers; a compile error here is a failure of the code.
    "$PP_GCC" "${flags[@]}" "${src[@]}" -o "$T/activations" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the unit test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
fi
_tap_done=1 # the program prints its own plan
"$T/activations"
