#!/usr/bin/env bash
# Variational path profiling (docs/vpp.md) on tests/vpp/vary.c, whose
# paths' timing behaviour is known by construction:
#   - vary()'s loop path alternates between a cached small array and a
#     random element of a 64 MB array: it ranks above steady()'s loop
#     path, which always reads the small array;
#   - spin()'s loop path calls burn(), a fixed chain of work built without
#     instrumentation whose least time the program measures itself with
#     the counter: the path's basetime is within 10% of it;
#   - at 1/1 every loop path without an instrumented call is timed at each
#     execution: its timings equal its count in the same profile but for
#     the few the runtime drops (the thread changed CPU) or the analyzer
#     sets aside (preempted), which the profile counts; no path is timed
#     more often than it ran;
#   - the bias is systematic; `pathprof vpp` text, --json, --against; bad
#     plugin arguments refused, naming them.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
CHECK=$TAP_ROOT/tests/vpp/check.pl
SRC=$TAP_ROOT/tests/vpp/vary.c
export PATHPROF_QUIET=1 PATHPROF_ANALYZER=vpp
V="-fplugin-arg-pathprof-vpp=yes -fplugin-arg-pathprof-exclude=burn"

pp_cc_plain "$T/plain" "$SRC" -O2 || BAIL_OUT "vary.c does not build"
# shellcheck disable=SC2086
pp_cc "$T/vary" "$SRC" -O2 $V || BAIL_OUT "vary.c does not build with vpp=yes"
"$T/plain" 20000 2000 | head -n 1 >"$T/plain.out"

# 1/1: every path start is a burst of one path
PATHPROF_SAMPLE=1/1 pp_run "$T/one.prof" "$T/vary" 20000 2000
ok "1/1: the program computes what it computes without pathprof" \
    diff "$T/plain.out" <(head -n 1 "$T/one.prof.stdout")
"$PP_CLI" vpp "$T/one.prof" --json >"$T/one.json" 2>"$T/one.err"
is "$?" 0 "1/1: pathprof vpp --json reads the profile"
"$PP_CLI" report "$T/one.prof" --json >"$T/one-report.json"
ok "1/1: each loop path is timed as often as it ran, but for the timings dropped and set aside" \
    perl "$CHECK" counts "$T/one.json" "$T/one-report.json" steady vary spin
note "$(perl "$CHECK" counts "$T/one.json" "$T/one-report.json" steady vary spin)"
ok "1/1: no path is timed more often than it ran" \
    perl "$CHECK" within "$T/one.json" "$T/one-report.json"
ok "the bias is systematic: its median is within 2x of its minimum" perl "$CHECK" bias "$T/one.json"
note "$(perl "$CHECK" bias "$T/one.json")"

# 1/10: the ranking and the basetime, on the median of three runs' verdicts
rank_ok=0 base_ok=0
for run in 1 2 3; do
    PATHPROF_SAMPLE=1/10 pp_run "$T/r$run.prof" "$T/vary" 100000 5000
    "$PP_CLI" vpp "$T/r$run.prof" --json >"$T/r$run.json"
    cal=$(sed -n 's/^calibrated //p' "$T/r$run.prof.stdout")
    note "run $run: $(perl "$CHECK" rank "$T/r$run.json" vary steady)"
    note "run $run: $(perl "$CHECK" base "$T/r$run.json" spin "$cal" 10)"
    perl "$CHECK" rank "$T/r$run.json" vary steady >/dev/null && rank_ok=$((rank_ok + 1))
    perl "$CHECK" base "$T/r$run.json" spin "$cal" 10 >/dev/null && base_ok=$((base_ok + 1))
done
ok "1/10: vary's path (cache hits and misses) ranks above steady's in at least 2 of 3 runs ($rank_ok)" \
    test "$rank_ok" -ge 2
ok "1/10: spin's path has the calibrated work as basetime within 10% in at least 2 of 3 runs ($base_ok)" \
    test "$base_ok" -ge 2

out=$("$PP_CLI" vpp "$T/r1.prof")
like "$out" "timings +sampled: one path per burst at 1/10" "the header says the timings are sampled, and at what rate"
like "$out" "bias [0-9]+ ticks subtracted" "the header gives the bias"
like "$out" "#[0-9]+  vary \\(.*vary.c:[0-9]+\\)  path" "text: vary's path, ranked"
like "$out" "deltas above basetime" "text: a histogram per path"
like "$out" "s \\+= base\\[near" "text: the path as source lines"
like "$("$PP_CLI" vpp "$T/r1.prof" --against "$T/r2.prof")" \
    "against +the top 10 paths of .* capture [0-9.]+% of this profile's net variation" \
    "--against: the capture of the other profile's top paths"
perl -MJSON::PP -e '
    local $/; open my $f, "-|", @ARGV or die; my $j = decode_json(<$f>);
    my $a = $j->{against};
    exit !($a && abs($a->{cross} - $a->{self}) < 1e-9 && $a->{found} > 0);' \
    "$PP_CLI" vpp "$T/r1.prof" --against "$T/r1.prof" --json
is "$?" 0 "--against itself: the top paths capture what they capture"

# Damage within the VPP section (the file's trailer resealed so the damage
# reaches the section's reader): refused with one line naming the section,
# never a crash; every 3rd byte of the section flipped.
read -r at len <<<"$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>);
    for (@{$j->{sections}}) { print "$_->{at} $_->{length}\n" if $_->{kind} eq "VPP" }' \
    <"$T/one-report.json")"
PATCH=$TAP_ROOT/tests/cli/patch.pl
perl "$PATCH" "$T/one.prof" "$T/bad.prof" --reseal "xor:$((at + 16 + 40)):0x01"
"$PP_CLI" vpp "$T/bad.prof" >/dev/null 2>"$T/bad.err"
is "$?" 2 "a damaged VPP section: exit 2"
like "$(cat "$T/bad.err")" "VPP section: checksum mismatch" "a damaged VPP section: named"
crashes=0 lines=0
for ((o = at; o < at + 16 + len; o += 3)); do
    perl "$PATCH" "$T/one.prof" "$T/bad.prof" --reseal "xor:$o:0xff"
    "$PP_CLI" vpp "$T/bad.prof" >/dev/null 2>"$T/bad.err"
    st=$?
    [ "$st" -le 2 ] || { crashes=$((crashes + 1)); diag "offset $o: exit $st"; }
    [ "$st" -eq 0 ] || [ "$(wc -l <"$T/bad.err")" -eq 1 ] || lines=$((lines + 1))
done
is "$crashes" 0 "every flipped byte of the VPP section: no crash"
is "$lines" 0 "every refusal is one line"

# A profile without a VPP section
PATHPROF_ANALYZER=blpp PATHPROF_SAMPLE=1/10 pp_run "$T/blpp.prof" "$T/vary" 2000 100
"$PP_CLI" vpp "$T/blpp.prof" >/dev/null 2>"$T/none.err"
is "$?" 1 "no VPP section: exit 1"
like "$(cat "$T/none.err")" "no VPP section" "no VPP section: said so"

# Bad plugin arguments
for bad in "-fplugin-arg-pathprof-vpp=maybe:bad value .maybe. for plugin argument .vpp." \
           "-fplugin-arg-pathprof-mode=count:.vpp=yes. cannot be combined with .mode=count." \
           "-fplugin-arg-pathprof-sampling=no:.vpp=yes. cannot be combined with .sampling=no." \
           "-fplugin-arg-pathprof-verify:.vpp=yes. cannot be combined with .verify."; do
    arg=${bad%%:*} want=${bad#*:}
    if "$PP_GCC" -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-vpp=yes "$arg" -c "$SRC" \
            -o "$T/x.o" 2>"$T/arg.err"; then
        fail "$arg with vpp=yes: refused"
    else
        like "$(cat "$T/arg.err")" "$want" "$arg with vpp=yes: refused, naming it"
    fi
done
done_testing
