#!/usr/bin/env bash
# pathprof merge (docs/cli.md): three stream-mode runs of the demo with
# blpp, ksf and ksf-pruned; the merged profile's Ball-Larus and k-iteration
# counts are the sums of the runs' (counted from their own reports), the
# pruned bounds hold the exact merged counts, every grouping and order of
# the inputs gives the same bytes; profiles of another build, of another
# mode or k, and damaged ones are refused without touching OUT; 1000
# profiles merge in seconds.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
. "$TAP_ROOT/tests/merge/lib.sh"
ORACLE=$TAP_ROOT/tests/merge/counts.pl
cd "$T" || exit 1

pp_cc "$T/demo" "$TAP_ROOT/examples/demo.c" -O2 -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "cannot build the demo"
for r in a:2000 b:3500 c:700; do
    PATHPROF_ANALYZER=blpp,ksf,ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=64K \
        PATHPROF_OUT="$T/${r%:*}.pp" "$T/demo" "${r#*:}" >/dev/null 2>"$T/${r%:*}.err"
    is "$?:$(cat "$T/${r%:*}.err")" "0:" "run ${r%:*} (${r#*:} statements): exit 0, silent"
done
for r in a b c; do
    "$PP_CLI" report --json "$r.pp" >"$r.bl.json" && "$PP_CLI" report --k --json --min-length 1 "$r.pp" >"$r.k.json" ||
        fail "report of run $r"
done

m() { "$PP_CLI" merge "$@" 2>"$T/merge.err"; }
ok "merge -o abc a b c" m -o abc.pp a.pp b.pp c.pp
is "$(cat merge.err)" "" "merge says nothing when all is well"
m -o bc.pp b.pp c.pp && m -o a_bc.pp a.pp bc.pp
m -o ab.pp a.pp b.pp && m -o ab_c.pp ab.pp c.pp
m -o cab.pp c.pp a.pp b.pp && m -o bca.pp b.pp --output=bca.pp c.pp a.pp
m -o ca.pp c.pp a.pp && m -o b_ca.pp ca.pp b.pp
for f in a_bc ab_c cab bca b_ca; do
    ok "merge is associative and commutative: $f.pp = abc.pp, byte for byte" cmp -s abc.pp "$f.pp"
done

"$PP_CLI" report --json abc.pp >abc.bl.json 2>abc.err
is "$?:$(cat abc.err)" "0:" "the merged profile reads back, with no warning"
is "$(perl "$ORACLE" bl abc.bl.json)" "$(perl "$ORACLE" bl a.bl.json b.bl.json c.bl.json)" \
    "Ball-Larus counts: each path's count is the sum of the three runs'"
"$PP_CLI" report --k --json --min-length 1 abc.pp >abc.k.json
is "$(perl "$ORACLE" k abc.k.json)" "$(perl "$ORACLE" k a.k.json b.k.json c.k.json)" \
    "k-iteration paths: each sequence's count is the sum of the three runs'"
"$PP_CLI" report --k --pruned --json --min-length 1 abc.pp >abc.kp.json
bounds=$(perl "$ORACLE" bounds abc.k.json abc.kp.json)
like "$bounds" "^checked [1-9][0-9]*, wrong 0$" "pruned bounds added conservatively: every exact merged count within [lo, hi] ($bounds)"
like "$("$PP_CLI" report --k --pruned abc.pp | grep -E '^ +4 ')" "^ +4 +[0-9]+ +[1-9]" \
    "the runs' floors are added (length 4 has a non-zero floor)"
"$PP_CLI" report abc.pp >abc.txt
like "$(grep '^stream ' abc.txt)" "from 3 threads" "STREAM: the three runs' producer threads"
is "$(grep '^command ' abc.txt)" "command    (several command lines)" "PROGRAM: the command lines differ, and it says so"
is "$(m -o one.pp a.pp; "$PP_CLI" report --json one.pp | perl "$ORACLE" bl /dev/stdin)" \
    "$(perl "$ORACLE" bl a.bl.json)" "merging one profile keeps its counts"
ok "OUT may be an input: merge -o x a, then -o x x b = a + b" \
    sh -c "cp a.pp x.pp && '$PP_CLI' merge -o x.pp x.pp b.pp && cmp -s x.pp ab.pp"

# Refusals: exit 2, one line naming what is wrong, OUT as it was.
# work2: work rebuilt by the same command after an edit, another build of
# step() (one file compiled two ways is not: tests/accumulate-variants.t)
mkdir -p "$T/w" && cp "$TAP_ROOT/tests/merge/work.c" "$T/w/work.c" && pp_cc "$T/work" "$T/w/work.c" -O2 &&
    sed -i 's/^#ifdef VARIANT$/#if 1/' "$T/w/work.c" && pp_cc "$T/work2" "$T/w/work.c" -O2 ||
    BAIL_OUT "cannot build work.c"
PATHPROF_OUT=$T/w1.pp "$T/work" 100 >/dev/null && PATHPROF_OUT=$T/w2.pp "$T/work2" 100 >/dev/null &&
    PATHPROF_OUT=$T/w3.pp "$T/work" 50 >/dev/null
echo keep >out.pp
refused "another build of step() is refused, naming it and both profiles" \
    "^pathprof: w2.pp: function step \(.*work.c\) differs between w1.pp and w2.pp \(CFG checksums" w1.pp w3.pp w2.pp
ok "the same build merges (w1 + w3)" "$PP_CLI" merge -o w13.pp w1.pp w3.pp
refused "a count-mode profile is not merged into stream-mode ones" "count-mode profile cannot be merged with stream-mode" a.pp w1.pp
PATHPROF_ANALYZER=ksf PATHPROF_K=3 PATHPROF_OUT=$T/k3.pp "$T/demo" 100 >/dev/null
refused "another k is refused" "k = 3, the profiles before k = 4" a.pp k3.pp
cp a.pp bad.pp && printf 'X' | dd of=bad.pp bs=1 seek=200 conv=notrunc 2>/dev/null
refused "a damaged profile is refused" "^pathprof: bad.pp: checksum mismatch" a.pp bad.pp
refused "a file that is not a profile is refused" "^pathprof: .*/work.c: not a pathprof profile" a.pp "$TAP_ROOT/tests/merge/work.c"
refused "a missing file is refused" "^pathprof: nothere.pp: No such file" a.pp nothere.pp
"$PP_CLI" merge a.pp b.pp >/dev/null 2>merge.err
is "$?" 2 "no -o: usage error"

# Speed: 1000 profiles of one build (copies of three real ones).
mkdir many
names=(a b c)
for i in $(seq 1 1000); do ln "${names[i % 3]}.pp" "many/$i.pp"; done
start=$(date +%s.%N)
ok "merge of 1000 profiles" "$PP_CLI" merge -o many.pp many/*.pp
secs=$(echo "$(date +%s.%N) - $start" | bc)
note "1000 profiles ($(du -shl many | cut -f1)) merged in $secs s"
ok "1000 profiles merge in less than 10 s ($secs s)" test "$(echo "$secs < 10" | bc)" = 1
"$PP_CLI" report --json many.pp >many.json
is "$(perl "$ORACLE" bl many.json)" "$(perl "$ORACLE" bl 'a.bl.json*333' 'b.bl.json*334' 'c.bl.json*333')" \
    "1000 profiles: 333 x a + 334 x b + 333 x c"
done_testing
