#!/usr/bin/env bash
# Preferential path profiling in stream mode (ppp=FILE with mode=stream):
# a PPP function's events carry an interesting path's PPP number and any
# other path's Ball-Larus ID after the N numbers (docs/format.md, "PPP
# functions"). Checked against full Ball-Larus builds of the same input:
# - the blpp analyzer's counts equal counting mode's and plain stream
#   mode's, path for path, with interesting and other paths both run;
# - the trace analyzer's stream, decoded by `pathprof dump`, is event for
#   event the plain stream build's: same paths, same START and RET bits
#   (from the bit the PPP register keeps for START), same ENTER/RESUME
#   markers of C++ exceptions;
# - the analyzers that cannot read PPP indices (ksf, ksf-pruned, wpp) are
#   refused with an error naming the analyzer; the program runs on.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

ORACLE=$TAP_ROOT/tests/ppp/oracle.pl
cp "$TAP_ROOT/tests/ppp/branchy.c" "$T/"
cd "$T" || exit 1
counts() { "$PP_CLI" report --json "$1" >"$1.json" && perl "$ORACLE" executed "$1.json" | sort; }
# Number of executed paths with (yes) or without (no) a PPP number.
numbered() {
    perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my $n = 0;
        for my $f (@{ $d->{functions} }) { for (@{ $f->{paths} }) {
            $n++ if $_->{count} > 0 && (defined $_->{ppp_number} ? "yes" : "no") eq $ARGV[0] } }
        print $n' "$2" <"$1.json"
}
# The events of a dump without its header lines (pid, file name) and
# frame addresses (stack randomization; the RESUME matches they decide
# show as "unwound N").
events() { "$PP_CLI" dump "$1" | grep -v '^#' | sed 's/ 0x[0-9a-f]*//'; }
STREAM=-fplugin-arg-pathprof-mode=stream

for level in O0 O2; do
    pp_cc "bl-$level" branchy.c "-$level" || continue
    pp_run "train-$level.pp" "./bl-$level" 0xf
    pp_run "bl-$level.pp" "./bl-$level" 0x3ff
    pp_cc "bls-$level" branchy.c "-$level" "$STREAM" || continue
    pp_run "bls-$level.pp" "./bls-$level" 0x3ff
    PATHPROF_ANALYZER=trace PATHPROF_TRACE="bls-$level.tr" pp_run "bls-t-$level.pp" "./bls-$level" 0x3ff
    for cover in 1 0.5; do
        cli_run select "train-$level.pp" --cover "$cover"
        printf '%s\n' "$OUT" >"int-$level-$cover.txt"
        name=ppps-$level-$cover
        pp_cc "$name" branchy.c "-$level" "$STREAM" "-fplugin-arg-pathprof-ppp=int-$level-$cover.txt" || continue
        pp_run "$name.pp" "./$name" 0x3ff
        is "$(cat "$name.pp.stdout")" "$(cat "bl-$level.pp.stdout")" \
            "-$level --cover $cover: the PPP stream build computes what the program computes"
        want=$(counts "bl-$level.pp")
        is "$(counts "bls-$level.pp")" "$want" "-$level: plain stream == counting (the oracle agrees with itself)"
        is "$(counts "$name.pp")" "$want" \
            "-$level --cover $cover, blpp: PPP stream counts == Ball-Larus counting counts, path for path"
        ok "-$level --cover $cover: both interesting and other paths ran" \
            test "$(numbered "$name.pp" yes)" -gt 0 -a "$(numbered "$name.pp" no)" -gt 0
        like "$("$PP_CLI" report "$name.pp")" "  mix \(branchy.c:[0-9]+\)  \[stream ppp\]" \
            "-$level --cover $cover: mix is flagged stream and ppp"
        PATHPROF_ANALYZER=trace PATHPROF_TRACE="$name.tr" pp_run "$name-t.pp" "./$name" 0x3ff
        is "$(events "$name.tr")" "$(events "bls-$level.tr")" \
            "-$level --cover $cover, trace: the decoded stream == plain stream mode's, event for event"
    done
done

# C++ exceptions: ENTER and RESUME markers, paths ending at landing pads.
TR=$TAP_ROOT/tests/trace/programs/throw_recursive.cc
if command -v g++ >/dev/null && PP_GCC=g++ pp_cc tr "$TR" -O2 && pp_run tr.pp ./tr &&
    PP_GCC=g++ pp_cc trs "$TR" -O2 "$STREAM" &&
    PATHPROF_ANALYZER=trace PATHPROF_TRACE=trs.tr pp_run trs.pp ./trs; then
    cli_run select tr.pp --cover 0.5
    printf '%s\n' "$OUT" >tr.txt
    PP_GCC=g++ pp_cc trp "$TR" -O2 "$STREAM" -fplugin-arg-pathprof-ppp=tr.txt && pp_run trp.pp ./trp
    is "$(cat trp.pp.stdout)" "$(cat tr.pp.stdout)" "C++ throw_recursive: same output with PPP stream"
    is "$(counts trp.pp)" "$(counts tr.pp)" "C++ throw_recursive, blpp: PPP stream counts == Ball-Larus counts"
    PATHPROF_ANALYZER=trace PATHPROF_TRACE=trp.tr pp_run trp-t.pp ./trp
    is "$(events trp.tr)" "$(events trs.tr)" \
        "C++ throw_recursive, trace: the decoded stream == plain stream mode's, markers included"
else
    skip "throw_recursive did not build (no g++?)" 3
fi

# Analyzers that would misread PPP indices are refused, by name.
for a in ksf ksf-pruned wpp; do
    PATHPROF_ANALYZER=$a pp_run "refused-$a.pp" ./ppps-O2-0.5 0x3
    ok_status $? "PATHPROF_ANALYZER=$a: the program still runs"
    like "$(cat "refused-$a.pp.stderr")" \
        "ignoring stream translation unit branchy.c: it has preferential \(ppp=FILE\) functions, whose events analyzer $a cannot read" \
        "PATHPROF_ANALYZER=$a: refused, naming the analyzer"
done
PATHPROF_ANALYZER=blpp,ksf pp_run refused-two.pp ./ppps-O2-0.5 0x3
like "$(cat refused-two.pp.stderr)" "analyzer ksf cannot read" "blpp,ksf: refused for ksf's sake"
done_testing
