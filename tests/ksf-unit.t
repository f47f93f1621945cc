#!/usr/bin/env bash
# Unit tests of the ksf analyzer's k-SF builder (Fig. 6) and k-IPF
# converter (Fig. 7) on hand-made streams: the paper's Fig. 3 stream gives
# the 4-SF of Fig. 5 and the 4-IPF of Fig. 3; random multi-activation
# streams give Definition 2's n-gram counts and Definition 3's k-SF for
# k = 1..16; the section 2.2 properties; merging.  tests/ksf/unit.c prints
# TAP.  Built with AddressSanitizer and UBSan when the compiler has them.
. "$(dirname "$0")/lib/tap.sh"

A=$TAP_ROOT/analyzers
src=("$TAP_ROOT/tests/ksf/unit.c" "$TAP_ROOT/tests/ksf/forest-text.c" "$A/ksf/forest.c" "$A/ksf/build.c" "$A/ksf/ipf.c" "$A/ksf/suffix-links.c" "$A/ksf/stats.c")
# KSF_UNIT_CFLAGS: more flags, from tests/ksf-unit-collide.t.
# shellcheck disable=SC2206
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g ${KSF_UNIT_CFLAGS:-} -I"$TAP_ROOT/runtime" -I"$A")
if "$PP_GCC" "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
        "${src[@]}" -o "$T/ksf-unit" 2>"$T/cc.err"; then
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
else
    "$PP_GCC" "${flags[@]}" "${src[@]}" -o "$T/ksf-unit" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the unit test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
fi
_tap_done=1 # the program prints its own plan
"$T/ksf-unit"
