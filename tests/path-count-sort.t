#!/usr/bin/env bash
# pprt_sort_path_counts (runtime/path-count-sort.c): the order in which a
# profile writes hash-mode and PPP functions' path counts.  A radix sort
# on the IDs' bytes that skips bytes all IDs share, checked against a
# brute-force oracle (tests/path-count-sort/check-sort.c) on lists of 0 to
# 5000 records: short (insertion sort), long, with many equal IDs, IDs of
# 20, 40 and 64 bits, and IDs that share their high bytes.
. "$(dirname "$0")/lib/tap.sh"

"$PP_GCC" -std=c11 -Wall -Wextra -Werror -O2 -D_GNU_SOURCE -I"$TAP_ROOT/runtime" \
    "$TAP_ROOT/tests/path-count-sort/check-sort.c" "$TAP_ROOT/runtime/path-count-sort.c" \
    -o "$T/check-sort" ${PP_SAN_CFLAGS:-} 2>"$T/cc.err" ||
    BAIL_OUT "cannot compile tests/path-count-sort/check-sort.c: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
"$T/check-sort" >"$T/out"
status=$?
is "$status" 0 "every case sorted (exit status)"
is "$(grep -c '^ok ' "$T/out")" 45 "45 cases: 9 lengths x 5 kinds of IDs"
while read -r verdict rest; do
    [ "$verdict" = ok ] && pass "$rest" || fail "$rest" "$verdict $rest"
done <"$T/out"
done_testing
