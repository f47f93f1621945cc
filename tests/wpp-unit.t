#!/usr/bin/env bash
# The SEQUITUR(1) core (analyzers/wpp/sequitur.c) on random and adversarial
# inputs (runs of one symbol, alternations, Fibonacci and Thue-Morse words,
# repeated blocks, pieces of blocks for the cursor that follows a rule):
# every grammar expands to its input and keeps digram uniqueness and rule
# utility; the paper's 11111211111 gives its grammar.  tests/wpp/unit.c
# prints TAP; built with AddressSanitizer and UBSan when the compiler has
# them, and a second time with SQ_TEST_FALLBACK, where the cursor takes
# every other symbol it appends for a rule the cascade inlined (its
# terminals go in instead: a path no real input here takes), on the same
# inputs.  The two runs' TAP is numbered on and planned at the end.
. "$(dirname "$0")/lib/tap.sh"

A=$TAP_ROOT/analyzers
src=("$TAP_ROOT/tests/wpp/unit.c" "$A/wpp/sequitur.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -I"$A")
san=(-fsanitize=address,undefined -fno-sanitize-recover=all)
"$PP_GCC" "${flags[@]}" "${san[@]}" -x c /dev/null -c -o "$T/san.o" 2>/dev/null || san=()
for v in "" -DSQ_TEST_FALLBACK; do
    "$PP_GCC" "${flags[@]}" "${san[@]}" $v "${src[@]}" -o "$T/wpp-unit$v" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the unit test ($v): $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
done
_tap_done=1 # the programs print their own tests; the plan comes last
{ "$T/wpp-unit"; echo "rc $?"; "$T/wpp-unit-DSQ_TEST_FALLBACK"; echo "rc $?"; } >"$T/out" 2>&1
awk '
/^1\.\.[0-9]+$/ { next }
/^rc / { if ($2 != 0) bad = 1; next }
/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n); if ($1 == "not") bad = 1 }
{ print }
END { print "1.." n; exit bad }' "$T/out"
