#!/bin/sh
# check-calc.sh CALC N WANT: the project's own test, strict as real test
# suites are: CALC N prints WANT and nothing at all on stderr.
out=$("$1" "$2" 2>stderr.$$) || { echo "FAIL: $1 $2 exited $?"; rm -f stderr.$$; exit 1; }
err=$(cat stderr.$$); rm -f stderr.$$
[ "$out" = "$3" ] || { echo "FAIL: $1 $2 printed '$out', want '$3'"; exit 1; }
[ -z "$err" ] || { echo "FAIL: $1 $2 wrote on stderr: $err"; exit 1; }
echo "PASS: $1 $2 = $3"
