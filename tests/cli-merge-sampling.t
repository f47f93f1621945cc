#!/usr/bin/env bash
# pathprof merge of sampled profiles (docs/sampling.md, "Merging sampled
# profiles"): runs of one sampling=yes build at one rate pool (raw counts,
# bursts and checks add), in any grouping and order to the same bytes, and
# the pooled estimates are as close to the exact sum of the runs (the same
# binary at 1/1, merged) as one run's are to its own; runs at another rate
# or burst length are refused, naming the file and both rates, OUT kept;
# at 1/1 the burst length does not matter.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
. "$TAP_ROOT/tests/merge/lib.sh"
ORACLE=$TAP_ROOT/tests/merge/counts.pl
CMP=$TAP_ROOT/tests/sampling/cmp.pl
export PATHPROF_QUIET=1
cd "$T" || exit 1

pp_cc "$T/mix" "$TAP_ROOT/tests/sampling/mix.c" -O2 -fplugin-arg-pathprof-sampling=yes ||
    BAIL_OUT "mix.c does not build with sampling=yes"
for r in a:120000 b:70000 c:40000; do
    n=${r%:*} len=${r#*:}
    PATHPROF_SAMPLE=1/10 PATHPROF_BURST=10 pp_run "$n.pp" "$T/mix" "$len"
    PATHPROF_SAMPLE=1/1 PATHPROF_BURST=$((${#n} + len % 7)) pp_run "e$n.pp" "$T/mix" "$len"
    pp_json "$n.pp" >"$n.json"
done

merge_groupings a b c

pp_json abc.pp >abc.json
is "$(perl "$ORACLE" bl abc.json)" "$(perl "$ORACLE" bl a.json b.json c.json)" \
    "raw burst counts: each path's is the sum of the three runs'"
sums() { perl -MJSON::PP -e 'my %t; for (@ARGV) { local $/; open my $f, "<", $_ or die;
    my $s = decode_json(<$f>)->{sampling}; $t{$_} += $s->{$_} for qw(bursts gap_checks burst_checks);
    $t{r} = "$s->{sample_n}/$s->{burst}" } print join(" ", map { "$_=$t{$_}" } sort keys %t), "\n"' "$@"; }
is "$(sums abc.json)" "$(sums a.json b.json c.json)" "SAMPLING: the rate kept, bursts and checks summed"

ok "the exact runs (1/1, bursts of different lengths) merge" "$PP_CLI" merge -o eabc.pp ea.pp eb.pp ec.pp
pp_json eabc.pp >eabc.json
read -r e found <<<"$(perl "$CMP" error eabc.json abc.json 0.001)"
note "pooled estimates against the exact sum: largest hot-path error $e, hot paths found $found"
ok "pooled estimates: hot-path error $e <= 0.05 (tests/sampling-rates.t's limit at 1/10)" \
    perl -e "exit !($e <= 0.05)"
ok "no merged raw count exceeds the exact sum" perl "$CMP" within eabc.json abc.json
like "$("$PP_CLI" report abc.pp)" "sampled +1/10, bursts of 10 checks" "the report says the merge is sampled"

# Refusals: exit 2, one line naming the file and both rates, OUT as it was.
PATHPROF_SAMPLE=1/100 PATHPROF_BURST=10 pp_run r100.pp "$T/mix" 30000
PATHPROF_SAMPLE=1/10 PATHPROF_BURST=20 pp_run b20.pp "$T/mix" 30000
PATHPROF_SAMPLE=0 pp_run never.pp "$T/mix" 30000
echo keep >out.pp
refused "another rate is refused, naming the file and both rates" \
    "^pathprof: r100.pp: sampled at 1/100 with bursts of 10 checks, but a.pp was sampled at 1/10 with bursts of 10 checks" \
    a.pp b.pp r100.pp
refused "another burst length is refused" "^pathprof: b20.pp: sampled at 1/10 with bursts of 20 checks, but" a.pp b20.pp
refused "a never-sampled run is refused with sampled ones" "sampled at never \(PATHPROF_SAMPLE=0\), but abc.pp" \
    abc.pp never.pp
refused "an exact (1/1) run is refused with sampled ones" "sampled at 1/10 .*, but ea.pp was sampled at 1/1 \(always\)" \
    ea.pp a.pp
done_testing
