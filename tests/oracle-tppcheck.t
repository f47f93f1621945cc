#!/usr/bin/env bash
# tests/oracle/tppcheck.pl, the TPP oracle of tests/tpp*.t and
# perfctl/robustness, on `report --json` documents written here: two
# paths with the same blocks and edges that differ only in their start
# (the entry, or a cut edge into the same block, as lua's luaV_execute at
# -O0) are one path to it on both sides, so a TPP profile equal to BLPP's
# passes; a count off on either of them still fails.
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
done_testing
