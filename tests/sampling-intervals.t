#!/usr/bin/env bash
# The confidence intervals of sampled estimates (docs/sampling.md,
# "Estimates and their intervals"), on a program whose paths come in long
# phases, so a burst sees a path many times or not at all:
#   - over several rates, burst lengths and runs (each run seeds its gaps
#     afresh), the 95% intervals cover the exact counts of the hot paths
#     (the profile at PATHPROF_SAMPLE=1/1) at least 90% of the time, while
#     a naive per-path Poisson interval covers fewer (this program defeats
#     it: the test can tell a valid interval from a too narrow one);
#   - every interval holds its estimate and is never below the count seen;
#   - intervals narrow as the rate rises;
#   - k-iteration paths (report --k) of a sampled build are estimates with
#     intervals, never bare burst counts, and the estimates converge.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
CMP=$TAP_ROOT/tests/sampling/cmp.pl
SRC=$TAP_ROOT/tests/sampling/phases.c
export PATHPROF_QUIET=1
S=-fplugin-arg-pathprof-sampling=yes
N=300000

pp_cc "$T/ph" "$SRC" -O2 "$S" || BAIL_OUT "phases.c does not build with sampling=yes"
PATHPROF_SAMPLE=1/1 pp_run "$T/one.prof" "$T/ph" $N
pp_json "$T/one.prof" >"$T/one.json"

covered=0 naive=0 hot=0 bad=0
declare -A width
for rate in 1/1000 1/100; do
    for burst in 10 100; do
        for run in 1 2 3; do
            PATHPROF_SAMPLE=$rate PATHPROF_BURST=$burst pp_run "$T/r.prof" "$T/ph" $N
            pp_json "$T/r.prof" >"$T/r.json"
            read -r c v h <<<"$(perl "$CMP" cover "$T/one.json" "$T/r.json" 0.01)"
            covered=$((covered + c)) naive=$((naive + v)) hot=$((hot + h))
            # lo <= estimate <= hi, lo >= count; the hottest path's width
            w=$(perl -MJSON::PP -e '
                local $/; my $j = decode_json(<STDIN>); my ($bad, $w) = (0, 0);
                for my $f (@{ $j->{functions} }) {
                    for my $p (@{ $f->{paths} }) {
                        my ($lo, $hi) = @{ $p->{estimate_interval} };
                        $bad++ unless $lo <= $p->{estimate} && $p->{estimate} <= $hi
                                      && $lo >= $p->{count};
                    }
                    my $top = $f->{paths}[0];
                    $w = ($top->{estimate_interval}[1] - $top->{estimate_interval}[0])
                         / $top->{estimate} if $top;
                }
                print $bad ? "bad" : $w;' <"$T/r.json")
            [ "$w" = bad ] && bad=$((bad + 1))
            [ "$run" = 1 ] && width[$rate/$burst]=$w
        done
    done
done
note "hot paths (>= 1%) covered: $covered of $hot by the burst intervals, $naive by naive Poisson ones"
ok "the 95% intervals cover the exact counts ($covered of $hot, >= 90%)" \
    perl -e "exit !($hot >= 60 && $covered >= 0.9 * $hot)"
ok "a naive per-path Poisson interval covers fewer ($naive): the phases make bursts matter" \
    perl -e "exit !($naive < $covered)"
is "$bad" 0 "every interval holds its estimate and never lies below the count seen"
for burst in 10 100; do
    ok "bursts of $burst: the hottest path's interval narrows from 1/1000 (${width[1/1000/$burst]}) to 1/100 (${width[1/100/$burst]})" \
        perl -e "exit !(${width[1/100/$burst]} < ${width[1/1000/$burst]})"
done
like "$("$PP_CLI" report "$T/r.prof")" 'estimate ~[0-9]+, 95% interval [0-9]+ to [0-9]+ \(seen [0-9]+ times in bursts\)' \
    "the text report gives each sampled path's interval"
like "$(cat "$T/r.json")" '"confidence":0.95' "the JSON gives the confidence level"
is "$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my ($s, $e) = (0, 0);
        for my $f (@{ $j->{functions} }) { $s++ if $f->{sampled}; $e += grep { exists $_->{estimate} } @{ $f->{paths} } }
        print "$s $e ", scalar @{ $j->{functions} } ? "functions" : "none"' <"$T/one.json")" "0 0 functions" \
    "1/1: every count is exact: no function marked sampled, no estimate"
like "$("$PP_CLI" report "$T/one.prof")" "sampled    1/1 \(always\): every path of every function was counted; the counts are exact" \
    "1/1: the text report says the counts are exact"
unlike_estimate=$("$PP_CLI" report "$T/one.prof" | grep -c '~\|estimate')
is "$unlike_estimate" 0 "1/1: the text report prints no estimate (~N)"
like "$("$PP_CLI" report "$T/r.prof" | grep '^analysis')" "budget none \(not pruned\), sampling 1/[0-9]+ in bursts" \
    "sampled at a rate: the budget is not called exact"

# k-iteration paths: stream mode, ksf k = 4.
pp_cc "$T/phs" "$SRC" -O2 "$S" -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "phases.c does not build with sampling=yes in stream mode"
export PATHPROF_ANALYZER=ksf PATHPROF_K=4
PATHPROF_SAMPLE=1/1 pp_run "$T/k1.prof" "$T/phs" $N
"$PP_CLI" report --k --json "$T/k1.prof" >"$T/k1.json"
declare -A kerr
kin=0 khot=0
for rate in 1/1000 1/100 1/10; do
    PATHPROF_SAMPLE=$rate PATHPROF_BURST=20 pp_run "$T/k.prof" "$T/phs" $N
    "$PP_CLI" report --k --json "$T/k.prof" >"$T/k.json"
    read -r c h e _ <<<"$(perl "$CMP" kcover "$T/k1.json" "$T/k.json" 0.05)"
    kin=$((kin + c)) khot=$((khot + h)) kerr[$rate]=$e
    note "k = 4 at $rate, bursts of 20: $c of $h hot k-iteration paths covered, largest error $e"
    text=$("$PP_CLI" report --k "$T/k.prof")
    ok "k = 4 at $rate: every listed sequence has an estimate" \
        perl -e 'my $t = join "", <STDIN>; my $n = () = $t =~ /^#\d+ /mg;
                 my $e = () = $t =~ /^    estimate ~\d+, 95% interval/mg; exit !($n && $n == $e)' <<<"$text"
done
ok "k = 4: the intervals cover the hot k-iteration paths ($kin of $khot, >= 85%)" \
    perl -e "exit !($khot >= 30 && $kin >= 0.85 * $khot)"
ok "k = 4: the error falls as the rate rises (${kerr[1/1000]} at 1/1000, ${kerr[1/10]} at 1/10)" \
    perl -e "exit !(${kerr[1/10]} < ${kerr[1/1000]} && ${kerr[1/10]} < 0.05)"
done_testing
