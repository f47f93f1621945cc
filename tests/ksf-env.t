#!/usr/bin/env bash
# PATHPROF_K: 1..64 accepted, anything else one warning naming it and the
# default 8 in the KIPF section; ksf without blpp still writes one TU
# section per TU (the oracle finds every trace TU's blob in the profile).
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/ksf/oracle.pl
pp_cc "$T/nl" "$TAP_ROOT/tests/programs/nested_loops.c" -fplugin-arg-pathprof-mode=stream -O2 ||
    BAIL_OUT "nested_loops.c did not build"
kof() { perl -e 'open my $h, "<:raw", $ARGV[0] or die; local $/; my $d = <$h>; my $n = unpack "V", substr($d, 40, 4);
    my $at = 64; for (1 .. $n) { my ($t, undef, $l) = unpack "V V Q<", substr($d, $at, 16);
    print unpack("V", substr($d, $at + 16, 4)), "\n" if $t == 4; $at += 16 + $l }' "$1"; }
for v in 0 65 abc -1 8x ''; do
    PATHPROF_ANALYZER=ksf PATHPROF_K=$v PATHPROF_OUT=$T/bad.out "$T/nl" >/dev/null 2>"$T/bad.err"
    like "$(cat "$T/bad.err")" "warning: PATHPROF_K=$v is not valid .*using the default 8" "PATHPROF_K='$v': warning"
    is "$(kof "$T/bad.out")" 8 "PATHPROF_K='$v': k = 8 in the KIPF section"
done
for v in 1 64; do
    PATHPROF_ANALYZER=ksf,trace PATHPROF_K=$v PATHPROF_OUT=$T/k$v.out PATHPROF_TRACE=$T/k$v.trace \
        "$T/nl" >/dev/null 2>"$T/k$v.err"
    is "$(grep -c PATHPROF_K "$T/k$v.err")" 0 "PATHPROF_K=$v: no warning"
    is "$(kof "$T/k$v.out")" "$v" "PATHPROF_K=$v in the KIPF section"
    out=$(perl "$ORACLE" check "$T/k$v.out" "$T/k$v.trace" 2>&1)
    is "$?" 0 "ksf,trace without blpp, k=$v: TU sections present, KIPF = brute force ($out)"
done
done_testing
