#!/usr/bin/env bash
# The ksf-pruned analyzer's summary (analyzers/ksf-pruned/space-saving.h:
# weighted Space-Saving whose evictions are batched compactions) alone,
# against brute-force counts, on streams built to break it: every update a
# new item, compactions full of equal counts, skewed weights, a hot set
# that moves, heavy hitters among light items; m = 1 to 1000; then merged.
# tests/prune/summary.c prints TAP.  With AddressSanitizer and UBSan when
# the compiler has them.
. "$(dirname "$0")/lib/tap.sh"

A=$TAP_ROOT/analyzers
src=("$TAP_ROOT/tests/prune/summary.c" "$A/ksf-pruned/space-saving.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -I"$A")
if "$PP_GCC" "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
        "${src[@]}" -lm -o "$T/summary" 2>"$T/cc.err"; then
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
else
    "$PP_GCC" "${flags[@]}" "${src[@]}" -lm -o "$T/summary" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the summary test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
fi
_tap_done=1 # the program prints its own plan
"$T/summary"
