#!/usr/bin/env bash
# tests/ksf/unit.c again (tests/ksf-unit.t), with the k-IPF builder's
# child table squeezed into 64 home slots (KSF_LINKED_TEST_COLLIDE,
# analyzers/ksf/suffix-links.c).  In the real, sparse table a lookup's
# probe almost never passes another pair, so a table that matched a child
# by its parent alone, or by its label alone, would still pass there;
# here every lookup probes past other parents' children and its parent's
# other children, and such a table gives other counts than Definition 2's.
# The table also starts tiny, grows four times (the rehash) and is then
# dropped, so most forests finish through the move-to-front child lists.
. "$(dirname "$0")/lib/tap.sh"

A=$TAP_ROOT/analyzers
src=("$TAP_ROOT/tests/ksf/unit.c" "$TAP_ROOT/tests/ksf/forest-text.c" "$A/ksf/forest.c" "$A/ksf/build.c" "$A/ksf/ipf.c" "$A/ksf/suffix-links.c" "$A/ksf/stats.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -DKSF_LINKED_TEST_COLLIDE -I"$TAP_ROOT/runtime" -I"$A")
if "$PP_GCC" "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
        "${src[@]}" -o "$T/ksf-unit" 2>"$T/cc.err"; then
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
else
    "$PP_GCC" "${flags[@]}" "${src[@]}" -o "$T/ksf-unit" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the unit test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
fi
_tap_done=1 # the program prints its own plan
"$T/ksf-unit"
