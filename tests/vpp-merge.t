#!/usr/bin/env bash
# Merging VPP profiles (docs/cli.md, "Merge rules"; docs/format.md,
# "Merging"): real runs of tests/vpp/vary.c built with vpp=yes, merged by
# `pathprof merge` and by PATHPROF_ACCUMULATE=1.
#   - per path the timings, total, outliers and every time bucket add, the
#     basetime is the least, the largest the largest (merge-check.pl
#     computes all of it from each input's own `pathprof vpp --json`);
#   - the result does not depend on the order or grouping of the inputs:
#     the same bytes;
#   - runs at different rates or outlier thresholds, and a VPP profile with
#     one without a VPP section, are refused, naming both values;
#   - PATHPROF_ACCUMULATE=1 adds a run's timings to the profile on disk.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
SRC=$TAP_ROOT/tests/vpp/vary.c
MC=$TAP_ROOT/tests/vpp/merge-check.pl
CHECK=$TAP_ROOT/tests/vpp/check.pl
export PATHPROF_QUIET=1 PATHPROF_ANALYZER=vpp
pp_cc "$T/vary" "$SRC" -O2 -fplugin-arg-pathprof-vpp=yes -fplugin-arg-pathprof-exclude=burn \
    || BAIL_OUT "vary.c does not build with vpp=yes"

# Three runs on three inputs
for r in a:20000 b:30000 c:12000; do
    PATHPROF_SAMPLE=1/10 pp_run "$T/${r%%:*}.prof" "$T/vary" "${r#*:}" 300
    "$PP_CLI" vpp "$T/${r%%:*}.prof" --top 100000 --json >"$T/${r%%:*}.json"
done
"$PP_CLI" merge -o "$T/abc.prof" "$T/a.prof" "$T/b.prof" "$T/c.prof" 2>"$T/m.err"
is "$?" 0 "pathprof merge adds three VPP profiles"
"$PP_CLI" vpp "$T/abc.prof" --top 100000 --json >"$T/abc.json"
is "$?" 0 "pathprof vpp reads the merged profile"
ok "per path: timings, total, outliers, time buckets add; basetime the least; header sums" \
    perl "$MC" sum "$T/abc.json" "$T/a.json" "$T/b.json" "$T/c.json"
note "$(perl "$MC" sum "$T/abc.json" "$T/a.json" "$T/b.json" "$T/c.json")"
"$PP_CLI" report "$T/abc.prof" --json >"$T/abc-report.json"
ok "no path of the merge timed more often than it ran" \
    perl "$CHECK" within "$T/abc.json" "$T/abc-report.json"

# Order and grouping
"$PP_CLI" merge -o "$T/cab.prof" "$T/c.prof" "$T/a.prof" "$T/b.prof"
"$PP_CLI" merge -o "$T/bca.prof" "$T/b.prof" "$T/c.prof" "$T/a.prof"
ok "merge(c, a, b) = merge(a, b, c), byte for byte" cmp -s "$T/abc.prof" "$T/cab.prof"
ok "merge(b, c, a) = merge(a, b, c), byte for byte" cmp -s "$T/abc.prof" "$T/bca.prof"
"$PP_CLI" merge -o "$T/bc.prof" "$T/b.prof" "$T/c.prof"
"$PP_CLI" merge -o "$T/ab.prof" "$T/a.prof" "$T/b.prof"
"$PP_CLI" merge -o "$T/a_bc.prof" "$T/a.prof" "$T/bc.prof"
"$PP_CLI" merge -o "$T/ab_c.prof" "$T/ab.prof" "$T/c.prof"
ok "merge(a, merge(b, c)) = merge(merge(a, b), c), byte for byte" \
    cmp -s "$T/a_bc.prof" "$T/ab_c.prof"
ok "and = merge(a, b, c)" cmp -s "$T/a_bc.prof" "$T/abc.prof"
"$PP_CLI" merge -o "$T/ba.prof" "$T/b.prof" "$T/a.prof"
ok "merge(b, a) = merge(a, b)" cmp -s "$T/ab.prof" "$T/ba.prof"
"$PP_CLI" merge -o "$T/aa.prof" "$T/a.prof" "$T/a.prof"
"$PP_CLI" vpp "$T/aa.prof" --top 100000 --json >"$T/aa.json"
ok "merge(a, a): every figure doubled, the basetime kept" \
    perl "$MC" sum "$T/aa.json" "$T/a.json" "$T/a.json"

# Refusals
PATHPROF_SAMPLE=1/20 pp_run "$T/r20.prof" "$T/vary" 5000 300
"$PP_CLI" merge -o "$T/x.prof" "$T/a.prof" "$T/r20.prof" 2>"$T/rate.err"
is "$?" 2 "different sampling rates: refused (exit 2)"
like "$(cat "$T/rate.err")" "1/20.*1/10" "different sampling rates: both named"
ok "different sampling rates: nothing written" test ! -e "$T/x.prof"
PATHPROF_SAMPLE=1/10 PATHPROF_VPP_OUTLIER=100000 pp_run "$T/o.prof" "$T/vary" 5000 300
"$PP_CLI" merge -o "$T/x.prof" "$T/a.prof" "$T/o.prof" 2>"$T/out.err"
is "$?" 2 "different PATHPROF_VPP_OUTLIER: refused (exit 2)"
like "$(cat "$T/out.err")" "above 100000 ticks .*PATHPROF_VPP_OUTLIER.*above 16777216" \
    "different PATHPROF_VPP_OUTLIER: both thresholds named"
PATHPROF_ANALYZER=blpp PATHPROF_SAMPLE=1/10 pp_run "$T/blpp.prof" "$T/vary" 5000 300
for order in "a.prof blpp.prof" "blpp.prof a.prof"; do
    # shellcheck disable=SC2086
    "$PP_CLI" merge -o "$T/x.prof" $(printf "$T/%s " $order) 2>"$T/mix.err"
    st=$?
    is "$st" 2 "a VPP profile with one without timings ($order): refused"
    like "$(cat "$T/mix.err")" "a.prof has a VPP section .*blpp.prof has none" \
        "a VPP profile with one without timings ($order): both named" || diag "$(cat "$T/mix.err")"
done

# A damaged VPP section is refused by the merge, never added
read -r at <<<"$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    for (@{$j->{sections}}) { print "$_->{at}\n" if $_->{kind} eq "VPP" }' \
    < <("$PP_CLI" report "$T/a.prof" --json))"
perl "$TAP_ROOT/tests/cli/patch.pl" "$T/a.prof" "$T/bad.prof" --reseal "xor:$((at + 16 + 60)):0x01"
"$PP_CLI" merge -o "$T/x.prof" "$T/bad.prof" "$T/b.prof" 2>"$T/bad.err"
is "$?" 2 "a damaged VPP section: refused"
like "$(cat "$T/bad.err")" "VPP section is damaged" "a damaged VPP section: said so"

# Every 3rd byte of a's VPP section body flipped, the section's checksum
# and the trailer recomputed so the damage reaches the records: the merge
# never crashes, and what it accepts reads back (its reader checks what
# pathprof vpp checks)
len=$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    for (@{$j->{sections}}) { print "$_->{length}\n" if $_->{kind} eq "VPP" }' \
    < <("$PP_CLI" report "$T/a.prof" --json))
crashes=0 unread=0 accepted=0 disagree=0
for ((o = at + 16; o < at + 16 + len - 8; o += 3)); do
    perl "$TAP_ROOT/tests/vpp/flip-sealed.pl" "$T/a.prof" "$T/bad.prof" "$at" "$len" "$o"
    rm -f "$T/x.prof"
    "$PP_CLI" merge -o "$T/x.prof" "$T/bad.prof" "$T/b.prof" 2>/dev/null
    st=$?
    [ "$st" -le 2 ] || { crashes=$((crashes + 1)); diag "offset $o: exit $st"; }
    if [ "$st" -eq 0 ]; then
        accepted=$((accepted + 1))
        "$PP_CLI" vpp "$T/x.prof" >/dev/null 2>&1 || { unread=$((unread + 1)); diag "offset $o: merged, unreadable"; }
    fi
    # Alone (no other input to disagree with), the merge and pathprof vpp
    # accept exactly the same sections: they check the same things.
    "$PP_CLI" merge -o "$T/x.prof" "$T/bad.prof" 2>/dev/null
    m=$?
    "$PP_CLI" vpp "$T/bad.prof" >/dev/null 2>&1
    v=$?
    [ "$m" -le 2 ] && [ "$v" -le 2 ] || { crashes=$((crashes + 1)); diag "offset $o: exit $m / $v"; }
    [ $((m == 0)) -eq $((v == 0)) ] || { disagree=$((disagree + 1)); diag "offset $o: merge exit $m, vpp exit $v"; }
done
is "$crashes" 0 "every flipped byte of a VPP section (checksum recomputed): the merge does not crash"
is "$unread" 0 "every merge it accepts reads back ($accepted accepted)"
is "$disagree" 0 "alone, the merge accepts a damaged section exactly when pathprof vpp does"

# PATHPROF_ACCUMULATE=1: at 1/1, a second run's timings added to the first's
PATHPROF_SAMPLE=1/1 PATHPROF_ACCUMULATE=1 pp_run "$T/acc.prof" "$T/vary" 5000 300
cp "$T/acc.prof" "$T/first.prof"
PATHPROF_SAMPLE=1/1 PATHPROF_ACCUMULATE=1 pp_run "$T/acc.prof" "$T/vary" 7000 300
is "$?" 0 "PATHPROF_ACCUMULATE=1: a VPP run adds to the profile on disk"
"$PP_CLI" vpp "$T/first.prof" --top 100000 --json >"$T/first.json"
"$PP_CLI" vpp "$T/acc.prof" --top 100000 --json >"$T/acc.json"
ok "PATHPROF_ACCUMULATE=1: no figure went down, the second run's timings are in" \
    perl "$MC" grown "$T/acc.json" "$T/first.json"
note "$(perl "$MC" grown "$T/acc.json" "$T/first.json")"
"$PP_CLI" report "$T/acc.prof" --json >"$T/acc-report.json"
ok "PATHPROF_ACCUMULATE=1: each loop path timed as often as it ran in both runs, but for those dropped" \
    perl "$CHECK" counts "$T/acc.json" "$T/acc-report.json" steady vary spin
note "$(perl "$CHECK" counts "$T/acc.json" "$T/acc-report.json" steady vary spin)"
done_testing
