#!/usr/bin/env bash
# pathprof merge of WPP sections (docs/format.md, "Merging"): whole program
# paths of different runs are kept side by side, each input thread a thread
# of the merge with its epochs. Three runs of a program that dlopens two
# libraries in different orders (so each run gives their TUs other path and
# function bases): `wpp --expand` of the merge prints exactly the threads
# of the three runs' own expansions (oracle: tests/merge/wpp/threads.pl),
# also when one run is cut into epochs; every grouping and order of the
# inputs gives the same bytes; Ball-Larus counts still add; a WPP section
# damaged inside a sound envelope is refused, OUT kept.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
. "$TAP_ROOT/tests/merge/lib.sh"
ORACLE=$TAP_ROOT/tests/merge/counts.pl
S=$TAP_ROOT/tests/merge/wpp
export PATHPROF_QUIET=1
cd "$T" || exit 1
STREAM=-fplugin-arg-pathprof-mode=stream
pp_cc "$T/main" "$S/main.c" -O2 $STREAM -ldl && pp_cc "$T/lib1.so" "$S/lib1.c" -O2 $STREAM -shared -fPIC &&
    pp_cc "$T/lib2.so" "$S/lib2.c" -O2 $STREAM -shared -fPIC || BAIL_OUT "cannot build the wpp merge program"

run() { # NAME ORDER N [ENV...]
    local n=$1 o=$2 len=$3; shift 3
    env PATHPROF_ANALYZER=blpp,wpp PATHPROF_OUT="$T/$n.pp" "$@" "$T/main" "$T" "$o" "$len" >/dev/null
}
run a 12 300 && run b 21 500 && run c 2 8000 PATHPROF_WPP_MAX=64K || BAIL_OUT "the runs failed"
"$PP_CLI" wpp c.pp | grep -qE '^ +1 +([2-9]|[1-9][0-9]+) ' && pass "run c is cut into several epochs" ||
    fail "run c is cut into several epochs" "$("$PP_CLI" wpp c.pp)"
for r in a b c; do "$PP_CLI" wpp --expand "$r.pp" >"$r.x"; done

merge_groupings a b c

"$PP_CLI" wpp --expand abc.pp >abc.x 2>abc.err
is "$?:$(cat abc.err)" "0:" "wpp --expand reads the merge"
like "$(head -n 1 abc.x)" "3 TUs, .* [0-9]+ threads" "the merge has the three TUs"
perl "$S/threads.pl" a.x b.x c.x >want.txt
perl "$S/threads.pl" abc.x >got.txt
ok "the merge's threads are the three runs' threads, event for event ($(grep -c '^# thread' want.txt) threads)" \
    cmp -s want.txt got.txt
is "$(grep -c '^# thread' got.txt)" "$(grep -c '^# thread' want.txt)" "as many threads as the runs had"
ok "the expansion names both libraries' functions" grep -q ' pick2 path ' abc.x
"$PP_CLI" wpp --hot abc.pp >/dev/null 2>hot.err
is "$?:$(cat hot.err)" "0:" "wpp --hot reads the merge"

"$PP_CLI" report --json abc.pp >abc.json
for r in a b c; do "$PP_CLI" report --json "$r.pp" >"$r.json"; done
is "$(perl "$ORACLE" bl abc.json)" "$(perl "$ORACLE" bl a.json b.json c.json)" \
    "Ball-Larus counts: each path's count is the sum of the three runs'"

# A grammar damaged inside a sound envelope: refused, OUT kept.
perl -I"$TAP_ROOT/tests/cli" -MPPWrite=reseal -e '
    local $/; open my $f, "<", $ARGV[0] or die; my $d = <$f>;
    my $n = unpack "V", substr($d, 40, 4); my $at = 64;
    for (1 .. $n) {
        my ($tag, $len) = unpack "V x4 Q<", substr($d, $at, 16);
        if ($tag == 7) { my $p = $at + 16 + $len - 20; substr($d, $p, 1) = chr(ord(substr($d, $p, 1)) ^ 1); last }
        $at += 16 + $len;
    }
    # the file checksum again, so only the grammar is damaged
    $d = reseal($d);
    open my $o, ">", $ARGV[1] or die; print $o $d' a.pp bad.pp
echo keep >out.pp
"$PP_CLI" merge -o out.pp b.pp bad.pp >/dev/null 2>merge.err
rc=$?
like "$rc:$(cat merge.err)" "^2:pathprof: bad.pp: .*(checksum mismatch|damaged|malformed|bad).*\(WPP section\)" \
    "a damaged grammar is refused, naming the file and the section"
is "$(cat out.pp)" keep "OUT is left as it was"
done_testing
