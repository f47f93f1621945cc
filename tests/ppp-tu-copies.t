#!/usr/bin/env bash
# A function compiled into several TUs, each copy with its own graph
# (plugin/tu-copies.h): tests/ppp/copies.h's shape() takes a branch more
# in copies-a.c (SHAPE_WIDE) than in copies-b.c. A file made from a
# profile that never ran (or never linked) copies-b.c's copy lists only
# copies-a.c's checksum; the plugin used to refuse copies-b.c as "changed
# since its interesting paths were selected" (ppp=FILE) or "changed since
# FILE was profiled" (edge-profile=FILE). Now that copy gets a note and
# the fallback (plain Ball-Larus counting; no edge profile), and the
# counts still equal plain Ball-Larus counts, path for path, copy for copy
# (the oracle: tests/ppp/oracle.pl on a counting build's profile). A
# function of the compiled file itself with a stale checksum is still an
# error.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build

ORACLE=$TAP_ROOT/tests/ppp/oracle.pl
cp "$TAP_ROOT"/tests/ppp/copies* "$T/"
cd "$T" || exit 1
SRCS="copies-a.c copies-b.c"
counts() { "$PP_CLI" report --json "$1" >"$1.json" && perl "$ORACLE" executed "$1.json" | sort; }

pp_cc_plain native copies-main.c -O2 $SRCS || BAIL_OUT "cannot build the copies program"
pp_cc bl copies-main.c -O2 $SRCS || BAIL_OUT "cannot build the copies program with pathprof"
pp_run train.pp ./bl a
pp_run bl.pp ./bl ab
is "$(counts bl.pp | awk '$1 == "shape"' | cut -d' ' -f3 | sort -u | wc -l)" 2 \
    "the profile of both inputs has two copies of shape, told apart by checksum"
SUM_B=$(counts bl.pp | awk '$1 == "shape" && $2 == "copies.h"' | cut -d' ' -f3 | sort -u |
    grep -v -x -F "$(counts train.pp | awk '$1 == "shape"' | cut -d' ' -f3 | sort -u)")
isnt "$SUM_B" "" "copies-b.c's copy ($SUM_B) never ran in training"

"$PP_CLI" select train.pp >int.txt
is "$(grep -c "^shape copies.h .* $SUM_B " int.txt)" 0 "select lists no path of copies-b.c's copy"

# ppp_build TAG FILE [FLAGS]: builds with ppp=FILE, the note for copies-b.c's copy, output, counts.
ppp_build() {
    local tag=$1 file=$2; shift 2
    if ! pp_cc "$tag" copies-main.c -O2 $SRCS "-fplugin-arg-pathprof-ppp=$file" "$@"; then
        fail "$tag: builds"
        return 1
    fi
    pass "$tag: builds"
    like "$(cat "$tag.log")" "note: pathprof: .shape. of copies\\.h: $file:[0-9]+ lists a copy with checksum 0x[0-9a-f]{16}, this translation unit has a copy with $SUM_B" \
        "$tag: a note names copies-b.c's copy and the listed one"
    pp_run "$tag.pp" "./$tag" ab
    is "$(cat "$tag.pp.stdout")" "$(./native ab)" "$tag: computes what the program computes"
}
ppp_build ppp int.txt
is "$(counts ppp.pp)" "$(counts bl.pp)" "ppp: counts == Ball-Larus counts, path for path, copy for copy"
ppp_build none int.txt -fplugin-arg-pathprof-ppp-others=none
is "$(counts none.pp | awk -v s="$SUM_B" '$1 == "shape" && $3 == s')" "" \
    "ppp-others=none: copies-b.c's copy is not instrumented"
is "$(counts none.pp | awk '$1 == "shape"')" "$(counts bl.pp | awk -v s="$SUM_B" '$1 == "shape" && $3 != s')" \
    "ppp-others=none: copies-a.c's copy counts as Ball-Larus does"

# A function of the compiled file itself (run_b of copies-b.c) with a
# checksum that is not its own: still refused, naming it.
{ cat int.txt; echo "run_b copies-b.c 0x0000000000000001 0"; } >stale.txt
if gcc -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-ppp=stale.txt -O2 -c copies-b.c -o /dev/null 2>stale.err; then
    fail "a stale entry for a function of the file compiled: refused" "compiled"
else
    like "$(cat stale.err)" "function .run_b. changed since its interesting paths were selected: stale.txt:[0-9]+ gives checksum 0x0000000000000001" \
        "a stale entry for a function of the file compiled: refused, naming it"
fi

# edge-profile=FILE from a training binary that links copies-a.c only.
pp_cc trainer copies-train.c -O2 copies-a.c || BAIL_OUT "cannot build the training driver"
pp_run edges.pp ./trainer
if pp_cc tpp copies-main.c -O2 $SRCS -fplugin-arg-pathprof-tpp=5,5 -fplugin-arg-pathprof-edge-profile=edges.pp; then
    pass "tpp from a profile without copies-b.c: builds"
    like "$(cat tpp.log)" "note: pathprof: .shape. of copies\\.h: edges\\.pp has a copy with checksum 0x[0-9a-f]{16}, this translation unit has a copy with $SUM_B .*: no edge profile for this copy" \
        "tpp: a note names copies-b.c's copy"
    pp_run tpp.pp ./tpp ab
    is "$(cat tpp.pp.stdout)" "$(./native ab)" "tpp: computes what the program computes"
    is "$(counts tpp.pp | awk -v s="$SUM_B" '$1 == "shape" && $3 == s')" "$(counts bl.pp | awk -v s="$SUM_B" '$1 == "shape" && $3 == s')" \
        "tpp: copies-b.c's copy, without an edge profile, counts as Ball-Larus does"
else
    fail "tpp from a profile without copies-b.c: builds" "$(head -n 5 tpp.log)"
fi
done_testing
