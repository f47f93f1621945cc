#!/usr/bin/env bash
# `pathprof report --k` and `pathprof tree` on hand-made KIPF sections
# (tests/cli/mkkipf.pl: the paper's Figure 3 stream, its 4-IPF computed by
# brute force there). Text and JSON exactly, --min-count, --min-length,
# --top, --function, merged copies, tree pruning and shares, and what
# happens without a KIPF section.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require
MKKIPF=$PP_CLI_DIR/mkkipf.pl

perl "$MKKIPF" "$T/f.pp" || BAIL_OUT "mkkipf.pl failed"
mkdir "$T/src"
# The source of fig3.c, its lines where mkkipf.pl puts the blocks.
cat >"$T/src/fig3.c" <<'SRC'
int loop(const int *a, int n)
{
    int i = 0, s = 0;            /* A */
    do {                         /* B */
        if (a[i] & 1) s += a[i]; /* C */
        else
            s -= a[i];           /* D */
    } while (++i < n);           /* E */

    return s;                    /* F */
}
SRC
cd "$T/src" || exit 1

ranking() {
    printf '%s\n' "$1" | awk -v t="$2" '
        /^k-iteration paths by / { on = index($0, t " (") == 1 }
        on && /^#/ { print }'
}

cli_run report --k "$T/f.pp"
is "$RC:$ERR" "0:" "report --k: exit 0, nothing on stderr"
has "$OUT" "k          4 (sequences of up to 4 BL paths), 1 thread, 23 path events" "header: k, threads, events"
has "$OUT" "k-SF       75 nodes, 7 hash operations; average degree per level 1.80 1.80 1.80 1.80 1.80 1.80" \
    "header: k-SF nodes, hash operations, degree per level (2k-2 levels)"
has "$OUT" "k-IPF      32 nodes, 8 roots, 14 leaves, average leaf depth 1.93" "header: k-IPF nodes, leaves, depth"
has "$OUT" "listed     sequences of 2 to 4 BL paths run at least 1 times; length = blocks summed over the BL paths" \
    "header: what is listed, what length means"
has "$OUT" "program    /tmp/fig3" "the run's header comes first"
is "$(ranking "$OUT" "k-iteration paths by count")" "#1  loop (fig3.c:1)  paths 0 x2
#2  loop (fig3.c:1)  paths 0 x2 2
#3  loop (fig3.c:1)  paths 0 2
#4  loop (fig3.c:1)  paths 2 0
#5  loop (fig3.c:1)  paths 2 0 x2
#6  loop (fig3.c:1)  paths 2 0 x2 2
#7  loop (fig3.c:1)  paths 0 x2 2 x2
#8  loop (fig3.c:1)  paths 0 2 x2
#9  loop (fig3.c:1)  paths 0 2 x2 0
#10  loop (fig3.c:1)  paths 2 x2" "by count: n-gram counts of the Fig. 3 stream, ties in (function, IDs) order"
has "$OUT" "k-iteration paths by count (top 10 of 24)" "by count: top 10 of 24 sequences of 2-4 paths"
is "$(ranking "$OUT" "k-iteration paths by count x length")" "#1  loop (fig3.c:1)  paths 2 0 x2 2
#2  loop (fig3.c:1)  paths 0 x2 2
#3  loop (fig3.c:1)  paths 2 0 x2
#4  loop (fig3.c:1)  paths 0 x2 2 x2
#5  loop (fig3.c:1)  paths 0 2 x2 0
#6  loop (fig3.c:1)  paths 2 x2 0 x2
#7  loop (fig3.c:1)  paths 0 x2
#8  loop (fig3.c:1)  paths 0 2
#9  loop (fig3.c:1)  paths 0 2 x2
#10  loop (fig3.c:1)  paths 2 0" "by count x length: the paper's <2,0,0,2> (3 times, 12 blocks) first"

block=$(printf '%s\n' "$OUT" | awk '/^k-iteration paths by count x/ { t = 1 } t && /^#1  / { on = 1 } on && /^$/ { exit } on')
is "$block" "#1  loop (fig3.c:1)  paths 2 0 x2 2
    count 3 x 12 blocks = 36, 4 BL paths
    --- iteration 1 (path 2) ---
    fig3.c:4
           4 |     do {                         /* B */
      branch at line 4 -> line 5; not taken: line 7
    fig3.c:5
           5 |         if (a[i] & 1) s += a[i]; /* C */
    fig3.c:8
           8 |     } while (++i < n);           /* E */
      branch at line 8 -> loop back to line 4; not taken: line 10
    --- iterations 2-3 (path 0 x2) ---
    fig3.c:4
           4 |     do {                         /* B */
      branch at line 4 -> line 7; not taken: line 5
    fig3.c:7-8
           7 |             s -= a[i];           /* D */
           8 |     } while (++i < n);           /* E */
      branch at line 8 -> loop back to line 4; not taken: line 10
    --- iteration 4 (path 2) ---
    fig3.c:4
           4 |     do {                         /* B */
      branch at line 4 -> line 5; not taken: line 7
    fig3.c:5
           5 |         if (a[i] & 1) s += a[i]; /* C */
    fig3.c:8
           8 |     } while (++i < n);           /* E */
      branch at line 8 -> loop back to line 4; not taken: line 10" "a sequence as source lines, a repeated path as one run of iterations, branches"
has "$OUT" "    count 3 (50.0% of path 0's 6 runs), 2 BL paths, 6 blocks" "by count: share of the first path's runs"

cli_run report --k "$T/f.pp" --min-count 3 --top 100
is "$(ranking "$OUT" "k-iteration paths by count" | wc -l)" 6 "--min-count 3: the six sequences that ran 3 times"
has "$OUT" "k-iteration paths by count (all 6)" "--min-count 3: title says all 6"
cli_run report --k "$T/f.pp" --top 2 --function tiny
is "$(ranking "$OUT" "k-iteration paths by count")" "#1  tiny (fig3.c:19)  paths 0 2
#2  tiny (fig3.c:19)  paths 0 2 x2" "--function tiny --top 2"
has "$OUT" "k-iteration paths by count (top 2 of 6)" "--function tiny: 6 sequences"
cli_run report --k "$T/f.pp" --min-length 1 --top 100
has "$OUT" "k-iteration paths by count (all 32)" "--min-length 1 adds the 8 single BL paths"
has "$OUT" "#1  loop (fig3.c:1)  paths 0" "--min-length 1: the hottest is a single path"
cli_run report --k "$T/f.pp" --min-count 4
is "$RC" 0 "nothing matches: still exit 0"
has "$OUT" "No k-iteration path matches." "nothing matches: said"

cli_run report --k --json "$T/f.pp" --function tiny
is "$OUT" '{"program":"/tmp/fig3",
 "pid":77,
 "mode":"stream",
 "sampling":null,
 "sections":[
  {"index":1,"kind":"PROGRAM","tag":1,"at":64,"length":47,"status":"ok"},
  {"index":2,"kind":"TU","tag":2,"at":127,"length":1088,"status":"ok"},
  {"index":3,"kind":"KIPF","tag":4,"at":1231,"length":1248,"status":"ok"}
 ],
 "kipf":{"k":4,"pruned":false,"threads":1,"events":23,"ksf_nodes":75,"kipf_nodes":32,"hash_ops":7,"leaves":14,"leaf_depth_sum":27,"roots":8,
  "levels":[{"nodes":10,"internal":5,"children":9},{"nodes":11,"internal":5,"children":9},{"nodes":12,"internal":5,"children":9},{"nodes":13,"internal":5,"children":9},{"nodes":14,"internal":5,"children":9},{"nodes":15,"internal":5,"children":9}]},
 "min_count":1,
 "min_length":2,
 "total":6,
 "paths":[
  {"function":"tiny","file":"fig3.c","ids":[0,2],"count":2,"length":2,"blocks":3},
  {"function":"tiny","file":"fig3.c","ids":[0,2,2],"count":2,"length":3,"blocks":4},
  {"function":"tiny","file":"fig3.c","ids":[0,2,2,3],"count":2,"length":4,"blocks":6},
  {"function":"tiny","file":"fig3.c","ids":[2,2],"count":2,"length":2,"blocks":2},
  {"function":"tiny","file":"fig3.c","ids":[2,2,3],"count":2,"length":3,"blocks":4},
  {"function":"tiny","file":"fig3.c","ids":[2,3],"count":2,"length":2,"blocks":3}
 ]
}' "JSON: the section, then each sequence's IDs, function, count"
cli_run report --k --json "$T/f.pp" --top 1
is "$(printf '%s\n' "$OUT" | grep -c '"ids"')" 1 "JSON --top 1: one sequence"
has "$OUT" ' "total":24,' "JSON: total before --top"
cli_run report --k --json "$T/f.pp"
is "$(printf '%s\n' "$OUT" | grep -c '"ids"')" 24 "JSON: all 24 sequences by default"
if command -v python3 >/dev/null; then
    ok "JSON parses" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/.out"
else
    skip "no python3" 1
fi

# Copies of loop in two TUs (same checksum): one tree, counts summed.
perl "$MKKIPF" --scenario copies "$T/c.pp"
cli_run report --k --json "$T/c.pp"
is "$(printf '%s\n' "$OUT" | grep -F '"ids":[6,2],')" '  {"function":"loop","file":"fig3.c","ids":[6,2],"count":2,"length":2,"blocks":7},' \
    "copies: a sequence of both copies listed once, counts summed"
cli_run tree "$T/c.pp" loop 6 --prune 0
is "$OUT" "function   loop (fig3.c:1)
tree       the 4-IPF below path 6, nodes under 0% of its count pruned; each node: path, count, % of its parent

path 6  count 2  fig3.c:3-5 fig3.c:8
  path 2  count 2  100.0%  fig3.c:4-5 fig3.c:8
    path 0  count 1  50.0%  fig3.c:4 fig3.c:7-8
      path 0  count 1  100.0%  fig3.c:4 fig3.c:7-8
    path 3  count 1  50.0%  fig3.c:4-5 fig3.c:8 fig3.c:10" "copies: 6 2 0 0 and 6 2 3 merged under one root"

# tree: pruning and shares.
cli_run tree "$T/f.pp" loop 0 --prune 0
is "$RC:$ERR" "0:" "tree: exit 0"
is "$OUT" "function   loop (fig3.c:1)
tree       the 4-IPF below path 0, nodes under 0% of its count pruned; each node: path, count, % of its parent

path 0  count 6  fig3.c:4 fig3.c:7-8
  path 0  count 3  50.0%  fig3.c:4 fig3.c:7-8
    path 2  count 3  100.0%  fig3.c:4-5 fig3.c:8
      path 2  count 2  66.7%  fig3.c:4-5 fig3.c:8
      path 3  count 1  33.3%  fig3.c:4-5 fig3.c:8 fig3.c:10
  path 2  count 3  50.0%  fig3.c:4-5 fig3.c:8
    path 2  count 2  66.7%  fig3.c:4-5 fig3.c:8
      path 0  count 2  100.0%  fig3.c:4 fig3.c:7-8
    path 3  count 1  33.3%  fig3.c:4-5 fig3.c:8 fig3.c:10" "tree --prune 0: every node, shares of the parent"
cli_run tree "$T/f.pp" loop 0 --prune 20
is "$(printf '%s\n' "$OUT" | tail -n +4)" "path 0  count 6  fig3.c:4 fig3.c:7-8
  path 0  count 3  50.0%  fig3.c:4 fig3.c:7-8
    path 2  count 3  100.0%  fig3.c:4-5 fig3.c:8
      path 2  count 2  66.7%  fig3.c:4-5 fig3.c:8
      (1 more below the threshold, count 1 in all)
  path 2  count 3  50.0%  fig3.c:4-5 fig3.c:8
    path 2  count 2  66.7%  fig3.c:4-5 fig3.c:8
      path 0  count 2  100.0%  fig3.c:4 fig3.c:7-8
    (1 more below the threshold, count 1 in all)" "tree --prune 20: counts below 1.2 of the root's 6 left out"
cli_run tree "$T/f.pp" loop 0
has "$OUT" "      path 3  count 1  33.3%  fig3.c:4-5 fig3.c:8 fig3.c:10" "tree: default 5% keeps 1 of 6 (16.7%)"
cli_run tree "$T/f.pp" loop 0 --prune=50
is "$(printf '%s\n' "$OUT" | tail -n +4)" "path 0  count 6  fig3.c:4 fig3.c:7-8
  path 0  count 3  50.0%  fig3.c:4 fig3.c:7-8
    path 2  count 3  100.0%  fig3.c:4-5 fig3.c:8
      (2 more below the threshold, count 3 in all)
  path 2  count 3  50.0%  fig3.c:4-5 fig3.c:8
    (2 more below the threshold, count 3 in all)" "tree --prune=50: only nodes with half the root's count"
cli_run tree "$T/f.pp" loop 5
is "$RC:$ERR" "1:pathprof: $T/f.pp: path 5 of loop is not in the k-IPF (it never ran)" "tree: a path that never ran: exit 1"
cli_run tree "$T/f.pp" nosuch 0
is "$RC" 1 "tree: no such function: exit 1"
cli_run tree "$T/f.pp" loop 0 --prune 101
is "$RC" 2 "tree: --prune above 100 is a usage error"
cli_run tree "$T/f.pp" loop
is "$RC" 2 "tree: missing ID is a usage error"

# Without a KIPF section: the file is fine, the data is not there (exit 1).
perl "$MKPROFILE" --scenario small "$T/count.pp"
cli_run report --k "$T/count.pp"
is "$RC:$OUT" "1:" "report --k without KIPF: exit 1, no output"
is "$ERR" "pathprof: $T/count.pp: no KIPF section: k-iteration paths are recorded in stream mode with PATHPROF_ANALYZER=ksf" \
    "report --k without KIPF: one line says why"
cli_run tree "$T/count.pp" loop 3
is "$RC" 1 "tree without KIPF: exit 1"
cli_run report "$T/count.pp" --min-count 2
is "$RC" 2 "--min-count without --k: usage error"
cli_run report --k "$T/f.pp" --min-length 0
is "$RC" 2 "--min-length 0: usage error"
cli_run report "$T/f.pp"
is "$RC" 0 "plain report still reads a profile with a KIPF section"

# k = 1: one k-SF level; the k-IPF is the Ball-Larus counts.
perl "$MKKIPF" --k 1 "$T/k1.pp"
cli_run report --k "$T/k1.pp" --min-length 1 --top 100
has "$OUT" "k-IPF      8 nodes, 8 roots, 8 leaves, average leaf depth 0.00" "k = 1: roots only"
has "$OUT" "k-iteration paths by count (all 8)" "k = 1: the 8 executed BL paths"
done_testing
