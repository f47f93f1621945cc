#!/usr/bin/env bash
# perfctl/lib/pathcmp.pl, crosscheck's oracle (stream = count path for
# path): on `report --json` documents written here in docs/json.md's line
# layout, it says equal only when every path's count is, tells a function
# whose flow split differently (same total) from one that lost events
# (another total), and exits 1 on either, 2 on a document that is not a
# report.
. "$(dirname "$0")/lib/tap.sh"
cd "$T" || exit 1
CMP=$TAP_ROOT/perfctl/lib/pathcmp.pl

# doc MODE EXACT F:ID=N,... ...: a report --json document
doc() {
    local mode=$1 exact=$2 f
    shift 2
    echo '{"format":1,'
    echo " \"mode\":\"$mode\","
    [ "$exact" = - ] || echo " \"stream\":{\"exact\":$exact},"
    echo ' "functions":['
    for f in "$@"; do
        # NAME@CHECKSUM:...: a copy of NAME with its own graph (default 0x1)
        local name=${f%%:*} ck=0x1
        [[ $name == *@* ]] && ck=${name#*@} name=${name%@*}
        echo "  {\"name\":\"$name\",\"file\":\"t.c\",\"line\":1,\"checksum\":\"$ck\",\"paths\":["
        local p rest=${f#*:}
        for p in ${rest//,/ }; do echo "   {\"id\":${p%%=*},\"count\":${p#*=}},"; done
        echo '  ]},'
    done
    echo ' ]}'
}

doc count - f:0=5,1=3 g:0=7 >c.json
doc stream true f:0=5,1=3 g:0=7 >s-same.json
doc stream true f:0=4,1=4 g:0=7 >s-split.json
doc stream true f:0=5,1=2 g:0=7 >s-lost.json
doc stream false f:0=5,1=3 g:0=7 >s-inexact.json

perl "$CMP" c.json s-same.json >out 2>err
is "$?" 0 "equal documents: exit 0"
is "$(cat out)" "functions 2 paths 3 total 15 equal yes exact yes" "equal documents: the facts line"

perl "$CMP" c.json s-split.json >out 2>err
is "$?" 1 "a split flow: exit 1"
like "$(cat err)" "1 with the same total in both \(paths split differently\), 0 with different totals" \
    "a split flow is told as such"
like "$(cat err)" "f \(t\.c\): count 8, stream 8; 2 path\(s\) differ: path 0 5/4, path 1 3/4" "and its paths named"

perl "$CMP" c.json s-lost.json >out 2>err
is "$?" 1 "a lost event: exit 1"
like "$(cat err)" "0 with the same total in both .*, 1 with different totals \(events lost or gained\)" \
    "a lost event is told as such"

perl "$CMP" c.json s-inexact.json >out 2>err
is "$?" 1 "a stream that says it is not exact: exit 1"
like "$(cat out)" "equal yes exact no" "equal but not exact"

# A function of several copies (one name, other checksums): compared by
# the total of its copies when the copies' counts differ; another total
# is a difference, and a lone function's other checksum still is.
doc count - f:0=5,1=3 g@0x1:0=7 g@0x2:0=2,1=1 >c-copies.json
doc stream true f:0=5,1=3 g@0x1:0=8 g@0x2:0=1,1=1 >s-copies.json
doc stream true f:0=5,1=3 g@0x1:0=8 g@0x2:0=1 >s-copies-lost.json
doc stream true f:0=5,1=3 g@0x2:0=8,1=2 >s-copies-one.json
perl "$CMP" c-copies.json s-copies.json >out 2>err
is "$?:$(cat out)" "0:functions 3 paths 5 total 18 equal yes exact yes" "copies split differently, same total: equal"
like "$(cat err)" "1 function\(s\) of several copies .* compared by their total \(equal\): g \(t\.c, 2 copies\) 10" \
    "and said on stderr"
perl "$CMP" c-copies.json s-copies-lost.json >out 2>err
is "$?" 1 "copies with another total: a difference"
like "$(cat err)" "g \(t\.c\): count 10, stream 9; 3 path\(s\) differ: path 0x1/0 7/8, path 0x2/0 2/1, path 0x2/1 1/0" \
    "named by copy and path"
perl "$CMP" c-copies.json s-copies-one.json >out 2>err
is "$?" 0 "a copy that ran in one mode only, the same total: equal"
doc stream true f@0x3:0=5,1=3 g:0=7 >s-other-graph.json
perl "$CMP" c.json s-other-graph.json >out 2>err
is "$?" 1 "one function with another graph in the other profile: still a difference"

# --sched: a function whose counts follow the threads' scheduling is not
# compared (another total is no difference), but it must have run in both
doc stream true f:0=5,1=3 g:0=9,1=2 >s-sched.json
doc stream true f:0=5,1=3 >s-sched-gone.json
perl "$CMP" --totals-only '' --sched g c.json s-sched.json >out 2>err
is "$?" 0 "--sched: another total in a listed function: exit 0"
is "$(cat out)" "functions 2 paths 3 total 15 equal yes exact yes" "--sched: the facts line"
like "$(cat err)" "1 scheduling-dependent function\(s\) not compared \(count/stream totals\): g 7/11" \
    "--sched: the function and both totals are named"
perl "$CMP" --sched g c.json s-split.json >out 2>err
is "$?" 1 "--sched: the other functions are still compared path for path"
perl "$CMP" --sched g c.json s-sched-gone.json >out 2>err
is "$?" 1 "--sched: a listed function that ran in one profile only is a difference"
like "$(cat err)" "g \(t\.c\) \(only in count\): count 7, stream 0" "and is named"
perl "$CMP" --totals-only f,g --sched g c.json s-split.json >out 2>err
is "$?" 0 "--totals-only and --sched together"
# a clone of a listed function (fnsplit's .part.N at -O3 -flto) is listed too
doc count - f:0=5,1=3 g.part.0:0=7 h.constprop.0.isra.0:0=1 >c-clone.json
doc stream true f:0=5,1=3 g.part.0:0=9 h.constprop.0.isra.0:0=0,1=1 >s-clone.json
perl "$CMP" --totals-only h --sched g c-clone.json s-clone.json >out 2>err
is "$?" 0 "GCC's clone suffixes are stripped for --sched and --totals-only"
perl "$CMP" --totals-only g --sched h c-clone.json s-clone.json >out 2>err
is "$?" 1 "but the lists are not mixed up"
perl "$CMP" --sched >out 2>err
is "$?" 255 "--sched without its list: an error"
like "$(cat err)" "--sched needs a list" "that says so"

echo '{}' >bad.json
perl "$CMP" c.json bad.json >out 2>err
is "$?" 2 "not a report: exit 2"
like "$(cat err)" "bad\.json: no \"mode\"" "and the file is named"
done_testing
