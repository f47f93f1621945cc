#!/usr/bin/env bash
# k-iteration paths of a sampled stream (ksf) are seen only inside bursts,
# also those of a function that has no checking copy and whose path counts
# stay exact (computed gotos: lua's luaV_execute).  Its sequences of two
# paths or more must therefore be shown as estimates, never as exact
# counts (they read about 1% of the truth at 1/100, as exact, before),
# while its paths themselves (blpp) stay exact (tests/sampling/gotos.c).
# Also: a sampled stream holds no zero word.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
SRC=$TAP_ROOT/tests/sampling/gotos.c
export PATHPROF_QUIET=1 PATHPROF_ANALYZER=ksf,blpp PATHPROF_K=4
pp_cc "$T/g" "$SRC" -O2 -fplugin-arg-pathprof-sampling=yes -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "gotos.c does not build"
PATHPROF_SAMPLE=1/1 pp_run "$T/one.prof" "$T/g" 200000 || BAIL_OUT "the 1/1 run failed"
PATHPROF_SAMPLE=1/100 pp_run "$T/s.prof" "$T/g" 200000 || BAIL_OUT "the 1/100 run failed"
unlike_flag() { case ",$1," in *,sampled,*) return 1 ;; esac; return 0; }
ok "interp has no checking copy (not flagged sampled)" unlike_flag "$(pp_fn_flags "$T/s.prof" interp)"
like "$(pp_fn_flags "$T/s.prof" step)" "sampled" "step is sampled"
# kinds JSON: for interp's and step's k-paths: how many of length 1 and of
# length >= 2 carry an estimate, out of how many
kinds() {
    "$PP_CLI" report --k --json --top 100000 "$1" | perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my %c;
        for my $p (@{ $j->{paths} }) {
            my $k = $p->{function} . ($p->{length} >= 2 ? " long" : " single");
            $c{$k}[0]++; $c{$k}[1]++ if $p->{sampled} && defined $p->{estimate};
        }
        print join(" ", map { "$_=" . ($c{$_}[1] // 0) . "/" . $c{$_}[0] } sort keys %c), "\n"'
}
k=$(kinds "$T/s.prof")
note "1/100: $k"
like "$k" 'interp long=([1-9][0-9]*)/\1( |$)' "1/100: every sequence of interp of two paths or more is an estimate"
like "$k" 'step long=([1-9][0-9]*)/\1( |$)' "1/100: step's sequences are estimates"
# interp's own paths (blpp) are exact at every rate: its counts at 1/100
# are those at 1/1, and carry no estimate
fn_paths() { pp_path_counts "$1" | awk -v f="$2" '$1 == f'; }
is "$(fn_paths "$T/s.prof" interp)" "$(fn_paths "$T/one.prof" interp)" "1/100: interp's paths counted exactly, as at 1/1"
k1=$(kinds "$T/one.prof")
like "$k1" 'interp long=0/[1-9]' "1/1: every sequence is exact"
# The stream of a sampled run holds no zero word: a zero word in a chunk
# is a slot nothing was stored in (the signal trampoline and the stale-
# cursor repair read chunks so, docs/streaming.md section 2), and BURST
# markers wrote 0 as their second word.  Read from a trace's EVENTS
# records (docs/format.md section 4).
PATHPROF_SAMPLE=1/100 PATHPROF_ANALYZER=trace PATHPROF_TRACE=$T/s.trace "$T/g" 20000 >/dev/null ||
    BAIL_OUT "the traced 1/100 run failed"
words=$(perl -e 'local $/; open my $f, "<:raw", $ARGV[0] or die "$ARGV[0]: $!"; my $b = <$f>;
    my ($pos, $zero, $bursts, $n) = (64, 0, 0, 0);
    while ($pos + 16 <= length($b) - 8) {
        my ($type, $tid, $len) = unpack "V V Q<", substr($b, $pos, 16);
        if ($type == 1) {
            for my $w (unpack "Q<*", substr($b, $pos + 16, $len)) {
                $n++; $zero++ if $w == 0;
                $bursts++ if ($w >> 63) && (($w >> 56) & 0x7f) == 3;
            }
        }
        last if $type == 3;
        $pos += 16 + $len;
    }
    print "$n $bursts $zero\n"' "$T/s.trace")
read -r nwords nbursts nzero <<<"$words"
note "trace: $nwords words, $nbursts BURST markers, $nzero zero words"
ok "the sampled trace has BURST markers" test "${nbursts:-0}" -gt 0
is "$nzero" 0 "and no zero word (the markers' second word is not 0)"
done_testing
