#!/usr/bin/env bash
# The second counter of VPP (PATHPROF_VPP_COUNTER, docs/vpp.md "A second
# counter") on tests/vpp/vary.c.  Where the machine gives no hardware
# counter (a VM without a virtual PMU: perf_event_open of cache misses
# fails) a run that asks for it says so once at start-up and in the
# profile, and everything else works as without it; where it does, vary()'s
# loop path (a cache miss every other iteration) has more misses per timing
# than steady()'s (a small cached array).  Bad values are refused, naming
# the variable; profiles with and without the counter do not merge.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
SRC=$TAP_ROOT/tests/vpp/vary.c
CHECK=$TAP_ROOT/tests/vpp/check.pl
export PATHPROF_ANALYZER=vpp
pp_cc_plain "$T/plain" "$SRC" -O2 || BAIL_OUT "vary.c does not build"
pp_cc "$T/vary" "$SRC" -O2 -fplugin-arg-pathprof-vpp=yes -fplugin-arg-pathprof-exclude=burn \
    || BAIL_OUT "vary.c does not build with vpp=yes"
"$T/plain" 20000 500 | head -n 1 >"$T/plain.out"

jq_field() { # FILE PERL-EXPR: the expression over the decoded JSON $j
    perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
        print eval $ARGV[1]' "$1" "$2"
}

# Asked for, at 1/1
PATHPROF_QUIET=1 PATHPROF_SAMPLE=1/1 PATHPROF_VPP_COUNTER=cache-misses pp_run "$T/cm.prof" "$T/vary" 20000 500
is "$?" 0 "PATHPROF_VPP_COUNTER=cache-misses: the run succeeds"
ok "the program computes what it computes without pathprof" diff "$T/plain.out" <(head -n 1 "$T/cm.prof.stdout")
"$PP_CLI" vpp "$T/cm.prof" --all --json >"$T/cm.json"
is "$?" 0 "pathprof vpp reads the profile"
is "$(jq_field "$T/cm.json" '$j->{events}')" "cache-misses" "--json: the second counter asked for"
avail=$(jq_field "$T/cm.json" '$j->{events_available} ? 1 : 0')
if [ "$avail" = 0 ]; then
    note "this machine gives no cache-miss counter: the fallback is tested"
    is "$(grep -c 'PATHPROF_VPP_COUNTER=cache-misses: this machine gives no such hardware counter' \
        "$T/cm.prof.stderr")" 1 "unavailable: said once at start-up"
    is "$(grep -c . "$T/cm.prof.stderr")" 1 "unavailable: and nothing else on stderr"
    like "$("$PP_CLI" vpp "$T/cm.prof")" "events     cache-misses \\(PATHPROF_VPP_COUNTER\\): UNAVAILABLE" \
        "unavailable: the profile's header says so"
    is "$(jq_field "$T/cm.json" 'my $n = 0; $n += $_->{event_samples} + $_->{events} for @{$j->{paths}}, @{$j->{single}}; $n')" \
        0 "unavailable: no path has an event reading"
else
    note "this machine gives a cache-miss counter"
    is "$(grep -c 'PATHPROF_VPP_COUNTER' "$T/cm.prof.stderr")" 0 "available: no warning"
    ok "available: vary's loop path misses more per timing than steady's" \
        perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
            my %m; for my $p (@{$j->{paths}}) { next unless $p->{event_samples};
                my $r = $p->{events} / $p->{event_samples};
                $m{$p->{function}} = $r if !defined $m{$p->{function}} || $p->{samples} > 1000 }
            printf "# misses per timing: vary %.2f, steady %.2f\n", $m{vary} // -1, $m{steady} // -1;
            exit !(defined $m{vary} && defined $m{steady} && $m{vary} > $m{steady})' "$T/cm.json"
fi
"$PP_CLI" report "$T/cm.prof" --json >"$T/cm-report.json"
ok "the timings are as without the counter: each loop path timed as often as it ran" \
    perl "$CHECK" counts "$T/cm.json" "$T/cm-report.json" steady vary spin
ok "the bias is systematic" perl "$CHECK" bias "$T/cm.json"

# Not asked for
PATHPROF_QUIET=1 PATHPROF_SAMPLE=1/10 PATHPROF_VPP_COUNTER=none pp_run "$T/none.prof" "$T/vary" 20000 500
"$PP_CLI" vpp "$T/none.prof" --json >"$T/none.json"
is "$(jq_field "$T/none.json" '$j->{events}')" "none" "PATHPROF_VPP_COUNTER=none: no second counter"
is "$(grep -c . "$T/none.prof.stderr")" 0 "PATHPROF_VPP_COUNTER=none: nothing said"
"$PP_CLI" vpp "$T/none.prof" >"$T/none.txt"
is "$(grep -c '^events ' "$T/none.txt")" 0 "PATHPROF_VPP_COUNTER=none: no events line"

# A bad value: refused, naming the variable; the run goes on without a counter
PATHPROF_QUIET=1 PATHPROF_SAMPLE=1/10 PATHPROF_VPP_COUNTER=cycles pp_run "$T/bad.prof" "$T/vary" 2000 100
is "$?" 0 "PATHPROF_VPP_COUNTER=cycles: the run goes on"
like "$(cat "$T/bad.prof.stderr")" "PATHPROF_VPP_COUNTER=cycles is not valid \\(accepted: none or cache-misses" \
    "PATHPROF_VPP_COUNTER=cycles: refused, naming the variable and the values it takes"
"$PP_CLI" vpp "$T/bad.prof" --json >"$T/bad.json"
is "$(jq_field "$T/bad.json" '$j->{events}')" "none" "PATHPROF_VPP_COUNTER=cycles: the default (none) in force"

# Profiles with and without it do not merge
PATHPROF_QUIET=1 PATHPROF_SAMPLE=1/10 PATHPROF_VPP_COUNTER=cache-misses pp_run "$T/cm10.prof" "$T/vary" 20000 500
"$PP_CLI" merge -o "$T/x.prof" "$T/none.prof" "$T/cm10.prof" 2>"$T/merge.err"
is "$?" 2 "merge of runs with and without the second counter: refused"
like "$(cat "$T/merge.err")" "second counter is cache-misses .*none.prof's is none" \
    "merge of runs with and without the second counter: both named"
"$PP_CLI" merge -o "$T/cc.prof" "$T/cm10.prof" "$T/cm10.prof"
is "$?" 0 "merge of two runs with the second counter"
"$PP_CLI" vpp "$T/cc.prof" --json >"$T/cc.json"
is "$(jq_field "$T/cc.json" '$j->{events} . " " . ($j->{events_available} ? 1 : 0)')" "cache-misses $avail" \
    "the merge keeps the second counter and whether it was there"
done_testing
