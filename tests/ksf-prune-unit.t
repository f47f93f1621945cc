#!/usr/bin/env bash
# The ksf-pruned core (analyzers/ksf-pruned/core.h, analyzers/ksf-pruned/space-saving.h) on synthetic
# adversarial streams against brute-force n-gram counts: one ID forever,
# round-robin over 20011 IDs (more than any budget here holds), Zipf 0.8
# and 1.5, dense routine entries and exits, three producers of one
# analyzer (forests taken from an idle one); k = 2, 4, 8 and 64 (longer
# than any loop) and 16; budgets of 64 KiB and 256 KiB, and none (exact);
# each in the default build (the epochs' k-IPF through suffix links) and in
# the k-SF build (PATHPROF_KSF_BUILD=slabs).
# tests/prune/unit.c prints TAP.  Built with -DPATHPROF_PRUNE_CHECK (the
# core aborts the moment it holds more than its budget) and with
# AddressSanitizer and UBSan when the compiler has them.
. "$(dirname "$0")/lib/tap.sh"

A=$TAP_ROOT/analyzers
src=("$TAP_ROOT/tests/prune/unit.c" "$A/ksf-pruned/core.c" "$A/ksf-pruned/space-saving.c" "$A/ksf/forest.c"
     "$A/ksf/build.c" "$A/ksf/suffix-links.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -DPATHPROF_PRUNE_CHECK -O1 -g -I"$A")
if "$PP_GCC" "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
        "${src[@]}" -lm -o "$T/prune-unit" 2>"$T/cc.err"; then
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
else
    "$PP_GCC" "${flags[@]}" "${src[@]}" -lm -o "$T/prune-unit" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the unit test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
fi
_tap_done=1 # the program prints its own plan
"$T/prune-unit"
