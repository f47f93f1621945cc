#!/usr/bin/env bash
# tests/oracle/tppcheck.pl, the TPP oracle of tests/tpp*.t and
# perfctl/robustness, on `report --json` documents written here: two
# paths with the same blocks and edges that differ only in their start
# (the entry, or a cut edge into the same block, as lua's luaV_execute at
# -O0) are one path to it on both sides, so a TPP profile equal to BLPP's
# passes; a count off on either of them still fails. A function BLPP
# cut at max-paths and TPP did not is reported as such, not as TPP's
# counts being off.
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
# two pieces twice each. The path-for-path checks cannot hold there
# (TPP total 2, BLPP 4; TPP's path matches no BLPP piece); the oracle
# says why instead of failing the counts.
cutdoc() {
    local tpp='' p
    if [ "$1" = tpp ]; then
        tpp='"tpp":{"edge_profile":true,"truncated":[],"derived_list":[],"cold":0},'
        p='{"id":0,"count":2,"blocks":[2,3],"edges":[[2,3],[3,1]],"start":"entry","end":"return"}'
    else
        p='{"id":0,"count":2,"blocks":[2],"edges":[[2,3]],"start":"entry","end":"cut"},
 {"id":1,"count":2,"blocks":[3],"edges":[[3,1]],"start":"cut","end":"return"}'
    fi
    printf '{"functions":[{"name":"f","file":"t.c",%s"flags":[%s],"total":%s,"paths":[\n %s]}]}\n' "$tpp" "$3" "$2" "$p"
}
cutdoc blpp 4 '"hash","cut"' >bcut.json
cutdoc tpp 2 '"tpp"' >tcut.json
perl "$CHK" tcut.json bcut.json >cut.out
ok "BLPP cut where TPP is not: not ok, naming the cut edge and its runs" \
    grep -q "^not ok.*f: BLPP's profile cut this function (max-paths) where TPP's did not, at edges 2-3 (2 runs)" cut.out
is "$(grep -c '^not ok' cut.out)" 1 "... and no count mismatch blamed on TPP"
# TPP cut at the same edge (both over max-paths; or a throw, whose
# path ends "cut" in both): compared as usual
perl -pe 's/("file":"t.c",)/$1"tpp":{"edge_profile":true,"truncated":[],"derived_list":[],"cold":0},/' bcut.json >tcut2.json
perl "$CHK" tcut2.json bcut.json >cut2.out
is "$(grep -c '^not ok' cut2.out)" 0 "both cut at the same edge: equal profiles pass"
done_testing
