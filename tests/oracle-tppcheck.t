#!/usr/bin/env bash
# tests/oracle/tppcheck.pl, the TPP oracle of tests/tpp*.t and
# perfctl/robustness, on `report --json` documents written here: two
# paths with the same blocks and edges that differ only in their start
# (the entry, or a cut edge into the same block, as lua's luaV_execute at
# -O0) are one path to it on both sides, so a TPP profile equal to BLPP's
# passes; a count off on either of them still fails. A function BLPP
# cut at max-paths and TPP did not is compared piece by piece.
. "$(dirname "$0")/lib/tap.sh"
cd "$T" || exit 1
CHK=$TAP_ROOT/tests/oracle/tppcheck.pl

# doc TPP? N_ENTRY N_CUT: function f, blocks 2 -> 3 -> 1 (return), the
# path once from the entry and once after the cut edge 3->2
doc() {
    local tpp=
    [ "$1" = tpp ] && tpp='"tpp":{"edge_profile":true,"truncated":[[3,2]],"derived_list":[],"cold":0},'
    cat <<JSON
{"functions":[{"name":"f","file":"t.c",$tpp"total":$(($2 + $3)),"paths":[
 {"id":0,"count":$2,"blocks":[2,3],"edges":[[2,3],[3,1]],"start":"entry","end":"return"},
 {"id":1,"count":$3,"blocks":[2,3],"edges":[[2,3],[3,1]],"start":"cut","end":"return"}]}]}
JSON
}
doc blpp 5 30 >b.json
doc tpp 5 30 >t-same.json
doc tpp 5 31 >t-off.json

perl "$CHK" t-same.json b.json >same.out
is "$(grep -c '^not ok' same.out)" 0 "equal profiles with two same-block paths pass"
ok "the function's path check is made" grep -q '^ok.*f: every measured path' same.out
perl "$CHK" t-off.json b.json >off.out
ok "a count off by one fails" grep -q '^not ok.*f: every measured path' off.out
ok "the diagnostic names both paths and both sums" grep -q '^# path 0 1 .*TPP 36, BLPP 35' off.out

# BLPP cut f (max-paths) at 2->3 where TPP numbered it whole: sqlite3's
# sqlite3WindowCodeStep at -O2, whose one TPP path ran twice and BLPP's
# two pieces twice each. Matched whole, TPP's path matched no BLPP path
# ("TPP 2, BLPP 0", cold 0 against 4, total 2 against 4) and failed a
# correct profile; piece by piece it passes, and a count off still fails.
# cutdoc TPP? COUNT COLD FLAGS: TPP: path 2 -> 3 -> return COUNT times
# and COLD cold runs; BLPP: its pieces 2 (cut at 2->3) and 3, twice each,
# and a cold run 2 -> 4 -> return once
cutdoc() {
    local tpp='' p
    if [ "$1" = tpp ]; then
        tpp='"tpp":{"edge_profile":true,"truncated":[],"derived_list":[],"cold":'$3'},'
        p='{"id":0,"count":'$2',"blocks":[2,3],"edges":[[2,3],[3,1]],"start":"entry","end":"return"}'
    else
        p='{"id":0,"count":2,"blocks":[2],"edges":[[2,3]],"start":"entry","end":"cut"},
 {"id":1,"count":2,"blocks":[3],"edges":[[3,1]],"start":"cut","end":"return"},
 {"id":2,"count":1,"blocks":[2,4],"edges":[[2,4],[4,1]],"start":"entry","end":"return"}'
    fi
    printf '{"functions":[{"name":"f","file":"t.c",%s"flags":[%s],"total":%s,"paths":[\n %s]}]}\n' \
        "$tpp" "$4" "$(($2 + $3))" "$p"
}
cutdoc blpp 4 1 '"hash","cut"' >bcut.json
cutdoc tpp 2 1 '"tpp"' >tcut.json
perl "$CHK" tcut.json bcut.json >cut.out
is "$(grep -c '^not ok' cut.out)" 0 "BLPP cut where TPP is not: an equal profile passes piece by piece"
ok "... the pieces, cold counter and total compared" \
    test "$(grep -c '^ok.*f: \(BLPP cut it (max-paths) where TPP did not, at edges 2-3\|cold counter 1 = \|total 3 = \)' cut.out)" = 3
cutdoc tpp 3 1 '"tpp"' >tcut-off.json
perl "$CHK" tcut-off.json bcut.json >cut-off.out
ok "... a measured count off fails (its pieces)" grep -q '^# piece (2 | 2-3): TPP 3, BLPP 2' cut-off.out
cutdoc tpp 2 0 '"tpp"' >tcut-cold.json
perl "$CHK" tcut-cold.json bcut.json >cut-cold.out
ok "... a cold run lost fails" grep -q '^not ok.*f: cold counter 0 = the first pieces BLPP has beyond' cut-cold.out
# TPP cut at the same edge (both over max-paths; or a throw, whose
# path ends "cut" in both): compared path for path as usual
perl -pe 's/("file":"t.c",)/$1"tpp":{"edge_profile":true,"truncated":[],"derived_list":[],"cold":0},/' bcut.json >tcut2.json
perl "$CHK" tcut2.json bcut.json >cut2.out
is "$(grep -c '^not ok' cut2.out)" 0 "both cut at the same edge: equal profiles pass"

# --sched: a function whose paths follow the threads' scheduling (pigz's
# wait_for_) differs between the TPP run and the BLPP run whatever TPP
# does; listed, it (and a GCC clone of it) is not compared, the others are
perl "$CHK" --sched f t-off.json b.json >sched.out
is "$(grep -c '^not ok.*t\.c:f' sched.out)" 0 "--sched f: f's difference is not compared"
ok "... and said so" grep -q '^ok.*t\.c:f: not compared (--sched' sched.out
perl -pe 's/"name":"f"/"name":"f.part.0"/' t-off.json >t-off-part.json
perl -pe 's/"name":"f"/"name":"f.part.0"/' b.json >b-part.json
perl "$CHK" --sched f t-off-part.json b-part.json >sched-part.out
is "$(grep -c '^not ok.*t\.c:f' sched-part.out)" 0 "--sched f covers its clone f.part.0"
perl "$CHK" --sched g t-off.json b.json >sched-other.out
ok "--sched of another function: f still fails" grep -q '^not ok.*f: every measured path' sched-other.out
done_testing
