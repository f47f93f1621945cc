#!/usr/bin/env bash
# The SEQUITUR(1) core (analyzers/wpp/sequitur.c) on random and adversarial
# inputs (runs of one symbol, alternations, Fibonacci and Thue-Morse words,
# repeated blocks): every grammar expands to its input and keeps digram
# uniqueness and rule utility; the paper's 11111211111 gives its grammar.
# tests/wpp/unit.c prints TAP; built with AddressSanitizer and UBSan when
# the compiler has them.
. "$(dirname "$0")/lib/tap.sh"

A=$TAP_ROOT/analyzers
src=("$TAP_ROOT/tests/wpp/unit.c" "$A/wpp/sequitur.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -I"$A")
if ! "$PP_GCC" "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
        "${src[@]}" -o "$T/wpp-unit" 2>"$T/cc.err"; then
    "$PP_GCC" "${flags[@]}" "${src[@]}" -o "$T/wpp-unit" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the unit test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
fi
_tap_done=1 # the program prints its own plan
"$T/wpp-unit"
