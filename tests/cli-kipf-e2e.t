#!/usr/bin/env bash
# report --k and tree on a real program (tests/cli/kipf/oddeven.c) built in
# stream mode and run with the ksf analyzer, k = 4, at -O0 and -O2. Path IDs
# depend on GCC, so the checks use what the loop does: per call the
# sequence entry-O E E O E E exit (O, E: the odd and even iterations).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

cp "$PP_CLI_DIR/kipf/oddeven.c" "$T/"
cd "$T" || exit 1
for level in O0 O2; do
    pp_cc "$T/oe-$level" oddeven.c "-$level" -fplugin-arg-pathprof-mode=stream || continue
    PATHPROF_ANALYZER=ksf PATHPROF_K=4 PATHPROF_QUIET=1 PATHPROF_OUT=$T/oe-$level.pp \
        "$T/oe-$level" >"$T/run.out" 2>"$T/run.err"
    is "$(cat "$T/run.out"):$(cat "$T/run.err")" "-600:" "-$level: the program runs, the runtime is quiet"

    cli_run report --k "oe-$level.pp"
    is "$RC:$ERR" "0:" "-$level: report --k reads the ksf analyzer's KIPF section"
    like "$OUT" "k          4 \(sequences of up to 4 BL paths\), 1 thread, 801 path events" \
        "-$level: header: k, 1 thread, 100 x 7 + 101 path events"
    has "$OUT" "analysis   k 4, budget none (exact), sampling none (every path counted), threads 1 producing, 1 analyzing" \
        "-$level: header: k, budget, sampling, threads"
    has "$OUT" "lost       0 events" "-$level: header: nothing lost"
    has "$OUT" "paths      not counted (the blpp analyzer did not run; report --k shows the k-iteration paths)" \
        "-$level: a ksf-only profile: its BL paths were not counted ..."
    lacks "$OUT" "^paths +0 executed|executed$" "-$level: ... not '0 executed'"
    # The hottest sequence: E E, 200 times (2 per call).
    title=$(printf '%s\n' "$OUT" | grep -m1 '^#1  ')
    e=$(printf '%s\n' "$title" | sed -n 's/^#1  loop (oddeven\.c:[0-9]*)  paths \([0-9]*\) x2$/\1/p')
    ok "-$level: the hottest multi-iteration path is one path twice, one row ($title)" test -n "$e"
    has "$OUT" "    count 200 (50.0% of path $e's 400 runs), 2 BL paths, $(printf '%s\n' "$OUT" |
        sed -n '0,/^#1  /d; s/.*, 2 BL paths, \([0-9]*\) blocks$/\1/p' | head -n 1) blocks" \
        "-$level: E E ran 200 times, half of E's 400 runs"
    has "$OUT" "    --- iterations 1-2 (path $e x2) ---" "-$level: E E: one run of two iterations"
    like "$OUT" "    --- iteration 4 \(path [0-9]+\) ---" "-$level: 4-iteration paths are shown, boundaries marked"
    like "$OUT" "#[0-9]+  loop \(oddeven\.c:[0-9]+\)  paths $e x2 [0-9]+
    count 100 " "-$level: E E then another path: the repeat collapsed in the title"
    like "$OUT" "       [0-9 ]+\|         if \(a\[i\] & 1\)" "-$level: with the loop's source lines"

    cli_run report --k --json "oe-$level.pp" --function loop
    is "$RC" 0 "-$level: report --k --json"
    all=$OUT
    # --top N ranks only N of the paths (a heap, not a full sort): the
    # same N, in the same order, ties included, as the head of the full list.
    for n in 1 3 5; do
        cli_run report --k --json --top "$n" "oe-$level.pp" --function loop
        is "$(printf '%s\n' "$OUT" | grep '"ids"' | sed 's/,$//')" \
            "$(printf '%s\n' "$all" | grep '"ids"' | head -n "$n" | sed 's/,$//')" \
            "-$level: --top $n lists the first $n of the full ranking"
    done
    OUT=$all
    seqs=$(printf '%s\n' "$OUT" | sed -n 's/.*"ids":\[\([0-9,]*\)\],"count":\([0-9]*\),"length":\([0-9]*\).*/\3 \2 \1/p')
    is "$(printf '%s\n' "$seqs" | awk '{ n[$1]++ } END { print n[2], n[3], n[4] }')" "5 5 4" \
        "-$level: loop has 5 distinct 2-, 5 3- and 4 4-iteration paths"
    is "$(printf '%s\n' "$seqs" | awk '$2 != 100' )" "2 200 $e,$e" "-$level: all ran 100 times but E E"
    # O: the path between two Es (E O E); X: the exit path after E E.
    o=$(printf '%s\n' "$seqs" | awk -v e="$e" '$1 == 3 { split($3, x, ","); if (x[1] == e && x[3] == e) print x[2] }')
    x=$(printf '%s\n' "$seqs" | awk -v e="$e" -v o="$o" '$1 == 3 { split($3, y, ","); if (y[1] == e && y[2] == e && y[3] != o) print y[3] }')
    has "$seqs" "4 100 $e,$e,$o,$e" "-$level: E E O E (O = path $o)"
    has "$seqs" "4 100 $e,$o,$e,$e" "-$level: E O E E"
    has "$seqs" "4 100 $o,$e,$e,$x" "-$level: O E E exit (exit = path $x)"

    cli_run tree "oe-$level.pp" loop "$e" --prune 20
    is "$RC" 0 "-$level: tree"
    tree=$(printf '%s\n' "$OUT" | sed -n '4,$p' | sed 's/  oddeven.*//')
    is "$(printf '%s\n' "$tree" | sort)" "$(printf '%s\n' "path $e  count 400" "  path $e  count 200  50.0%" \
        "    path $o  count 100  50.0%" "      path $e  count 100  100.0%" "    path $x  count 100  50.0%" \
        "  path $o  count 100  25.0%" "    path $e  count 100  100.0%" "      path $e  count 100  100.0%" \
        "  path $x  count 100  25.0%" | sort)" "-$level: tree of E, pruned at 20%: what follows E, shares of the parent"
    is "$(printf '%s\n' "$tree" | sed -n 2p)" "  path $(printf '%s\n' "$e $o $x" | tr ' ' '\n' | sort -n | head -n 1)$(
        printf '%s\n' "$tree" | sed -n 2p | sed 's/^  path [0-9]*//')" "-$level: children in path ID order"
    cli_run tree "oe-$level.pp" loop "$e" --prune 30
    is "$(printf '%s\n' "$OUT" | grep -c '(2 more below the threshold, count 200 in all)')" 2 \
        "-$level: tree pruned at 30% (120 of 400): the 100s go, counted"

    # The compact node encoding (docs/format.md): the forest's bytes stay
    # proportional to its nodes, a few bytes each, not 32.
    bytes=$(perl -e 'local $/; my $d = <STDIN>; my ($n, $at) = (unpack("V", substr($d, 40, 4)), 64);
        for (1 .. $n) { my ($tag, $len) = unpack "V x4 Q<", substr($d, $at, 16);
            if ($tag == 4) { my $b = substr($d, $at + 16, $len); my $nl = unpack "V", substr($b, 48, 4);
                my $nodes = unpack "Q<", substr($b, 32, 8); my $flags = unpack "V", substr($b, 4, 4);
                print "$flags ", $len - (56 + 24 * $nl + 24), " $nodes\n"; }
            $at += 16 + $len }' <"oe-$level.pp")
    read -r flags fbytes fnodes <<<"$bytes"
    ok "-$level: KIPF in the compact encoding, $fbytes bytes for $fnodes nodes" \
        test "$((flags & 2))" = 2 -a "$fnodes" -gt 0 -a "$fbytes" -le "$((fnodes * 6))"
    # A number that runs past the section (the continuation bit on its last
    # byte) is refused, named, and the Ball-Larus paths still read.
    perl -I"$PP_CLI_DIR" -MPPWrite=reseal -e 'local $/; my $d = <STDIN>; my ($n, $at) = (unpack("V", substr($d, 40, 4)), 64);
        for (1 .. $n) { my ($tag, $len) = unpack "V x4 Q<", substr($d, $at, 16);
            if ($tag == 4) { my $o = $at + 16 + $len - 1; substr($d, $o, 1) = chr(ord(substr($d, $o, 1)) | 0x80) }
            $at += 16 + $len }
        print reseal($d)' <"oe-$level.pp" >"oe-$level-cut.pp"
    cli_run report --k "oe-$level-cut.pp"
    like "$RC:$ERR" "^2:.*section [0-9]+ \\(KIPF, at byte [0-9]+\\): node [0-9]+ \\(depth [0-9]+\\): truncated or a number of more than 64 bits" \
        "-$level: a compact number cut by the section's end is refused"
    cli_run report "oe-$level-cut.pp"
    is "$RC" 0 "-$level: ... and report still reads the Ball-Larus paths"
done
done_testing
