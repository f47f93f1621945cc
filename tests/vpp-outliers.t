#!/usr/bin/env bash
# Per-path outliers (docs/vpp.md, "Preemption and migration"): a timing
# above PATHPROF_VPP_OUTLIER is set aside and counted on its own path, so
# the user sees which path lost timings.  tests/vpp/vary.c's spin() path
# takes the work the program calibrates itself ("calibrated T"); with the
# threshold at T/2 every timing of it is set aside, steady()'s short path
# keeps (almost) all of its own.  At 1/1 the report's counts are the oracle.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
SRC=$TAP_ROOT/tests/vpp/vary.c
OC=$TAP_ROOT/tests/vpp/outlier-check.pl
export PATHPROF_QUIET=1 PATHPROF_ANALYZER=vpp PATHPROF_SAMPLE=1/1
pp_cc "$T/vary" "$SRC" -O2 -fplugin-arg-pathprof-vpp=yes -fplugin-arg-pathprof-exclude=burn \
    || BAIL_OUT "vary.c does not build with vpp=yes"

# The default threshold (2^24 ticks, docs/vpp.md) sets aside only what a
# preemption stretched: on a loaded machine one of spin's ~200 timings now
# and then (2 runs in 6 beside vpp.t on 2 cores), so at most 2 and 1%.
PATHPROF_OUT=$T/ref.prof "$T/vary" 20000 5000 >"$T/ref.out"
cal=$(sed -n 's/^calibrated //p' "$T/ref.out")
ok "the program calibrated its work ($cal ticks)" test "${cal:-0}" -gt 1000
"$PP_CLI" vpp "$T/ref.prof" --all --json >"$T/ref.json"
read -r spin_out spin_all <<<"$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my ($o, $n) = (0, 0);
    for (grep { $_->{function} eq "spin" } @{$j->{paths}}, @{$j->{single}}) {
        $o += $_->{outliers}; $n += $_->{outliers} + ($_->{samples} // 0);
    }
    print "$o $n"' <"$T/ref.json")"
note "default threshold: $spin_out of spin's $spin_all timings set aside"
ok "default threshold: spin's timings kept, but for a preempted one or two ($spin_out of $spin_all)" \
    test "${spin_all:-0}" -gt 0 -a "${spin_out:-99}" -le 2 -a $((spin_out * 100)) -le "${spin_all:-0}"

# Threshold at half the calibrated work
thr=$((cal / 2))
PATHPROF_VPP_OUTLIER=$thr PATHPROF_OUT=$T/o.prof "$T/vary" 20000 5000 >/dev/null
"$PP_CLI" vpp "$T/o.prof" --all --json >"$T/o.json"
is "$?" 0 "threshold $thr: pathprof vpp reads the profile"
"$PP_CLI" report "$T/o.prof" --json >"$T/o-report.json"
ok "threshold $thr: spin's loop path has every run set aside, steady's keeps its timings" \
    perl "$OC" "$T/o.json" "$T/o-report.json" spin steady
note "$(perl "$OC" "$T/o.json" "$T/o-report.json" spin steady)"
out=$("$PP_CLI" vpp "$T/o.prof" --all)
like "$out" "spin \\(.*\\)  path [0-9]+: no timing kept, [0-9]+ set aside" \
    "text: a path with only outliers is listed apart, with its count"
like "$out" "set aside  [0-9]+ timings above $thr ticks" "text: the header gives the threshold"

# Every timing kept
PATHPROF_VPP_OUTLIER=0 PATHPROF_OUT=$T/z.prof "$T/vary" 20000 5000 >/dev/null
"$PP_CLI" vpp "$T/z.prof" --all --json >"$T/z.json"
is "$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my $o = $j->{outliers};
    $o += $_->{outliers} for @{$j->{paths}}, @{$j->{single}}; print $o' <"$T/z.json")" 0 \
    "PATHPROF_VPP_OUTLIER=0: nothing set aside, on any path"
done_testing
