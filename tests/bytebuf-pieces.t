#!/usr/bin/env bash
# runtime/bytebuf.c's pieces by reference (pprt_buf_put_ref: how a
# count-mode profile holds each TU's metadata without copying it) and
# runtime/atomic-file.c's pprt_write_buf, against a plain array built from
# the same seeded sequence of puts and patches (tests/bytebuf/pieces.c):
# the size, the pieces in order, the bytes a slow pipe reader gets while
# an interval timer makes writev return short and fail with EINTR, and the
# flattened buffer. End to end, every count-mode test reads profiles
# written this way (their trailer is hashed piece by piece).
. "$(dirname "$0")/lib/tap.sh"

"$PP_GCC" -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 ${PP_SAN_CFLAGS:-} -I"$TAP_ROOT/runtime" \
    "$TAP_ROOT/tests/bytebuf/pieces.c" "$TAP_ROOT/runtime/bytebuf.c" \
    "$TAP_ROOT/runtime/atomic-file.c" -o "$T/pieces" 2>"$T/cc.err" ||
    BAIL_OUT "cannot compile tests/bytebuf/pieces.c: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"

for seed in 1 2 3 4; do
    "$T/pieces" "$seed" 3000 >"$T/out.$seed"
    is "$?" 0 "seed $seed: ran"
    like "$(sed -n 1p "$T/out.$seed")" '^refs [1-9][0-9]* size 1 failed 0$' \
        "seed $seed: pieces by reference, and the size counts them"
    is "$(sed -n 2p "$T/out.$seed")" "pieces 1" "seed $seed: the pieces in order are the contents"
    is "$(sed -n 3p "$T/out.$seed")" "write 0 reader 0 interrupted 1" \
        "seed $seed: pprt_write_buf through short writes and EINTR: the reader got every byte"
    is "$(sed -n 4p "$T/out.$seed")" "flat 1 refs 0" "seed $seed: flattened, one array of the same bytes"
done
done_testing
