#!/usr/bin/env bash
# The exact lines of a path (issue 19 item 7; docs/format.md "Line table",
# docs/cli.md "Lines of a path"): the plugin records per block the lines
# its statements come from, and `pathprof show` prints for each path
# exactly those lines and the way it went at each branch.
#
# tests/programs/exact_lines.c has comments and `#if 0` code between
# statements and a helper inlined from above with a function between them.
# At -O0 and -O2, for every path ID of classify() and main():
#   - the lines printed are exactly the lines of the statements of the
#     path's blocks, as GCC prints them in the plugin's pass dump
#     (tests/cli/exact-lines.pl, an oracle outside pathprof's code);
#   - no comment, disabled or never-run line is printed, the helper's is;
#   - no two paths print the same.
# Then a hand-made profile with a line table (mkprofile.pl --scenario
# lines): it reads, and each damaged field of the table is one clear error
# naming the file, never a crash (ulimit -v).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
cd "$T" || exit 1
SRC=$TAP_ROOT/tests/programs/exact_lines.c

# npaths FILE FUNC
npaths() {
    "$PP_CLI" report --json "$1" | perl -MJSON::PP -e 'local $/;
        my ($f) = grep { $_->{name} eq $ARGV[0] } @{ decode_json(<STDIN>)->{functions} };
        print $f ? $f->{npaths} : 0' "$2"
}

for level in O0 O2; do
    mkdir -p "dump-$level"
    pp_cc "$T/ex-$level" "$SRC" "-$level" -fdump-ipa-all-lineno -dumpdir "dump-$level/" ||
        { fail "exact_lines.c builds at -$level"; continue; }
    dump=$(ls dump-"$level"/*.pathprof 2>/dev/null | head -n 1)
    ok "-$level: the plugin's pass dump is there" test -s "$dump"
    PATHPROF_QUIET=1 PATHPROF_OUT=$T/ex-$level.pp "$T/ex-$level" 12 >/dev/null
    for func in classify main; do
        n=$(npaths "ex-$level.pp" "$func")
        like "$n" '^[1-9]' "-$level: $func has paths"
        rm -rf shows && mkdir shows
        for ((id = 0; id < n; id++)); do
            "$PP_CLI" show "ex-$level.pp" "$func" "$id" >"shows/$id"
        done
        is "$(perl "$TAP_ROOT/tests/cli/exact-lines.pl" "$dump" "$func" shows/*)" "" \
            "-$level: each of $func's $n paths prints exactly the lines of its blocks' statements"
        cat shows/* >"all-$func.txt"
        ok "-$level: $func: no comment, #if 0 or never-run line printed" \
            sh -c "! grep -Eq 'COMMENT|DISABLED|UNUSED|never runs|A comment' all-$func.txt"
        # Distinct: the "runs" line and the lines section (the path ID,
        # count and edge table aside).
        for ((id = 0; id < n; id++)); do
            sed -n '/^runs /p; /^lines$/,$p' "shows/$id" | md5sum | cut -c1-32
        done | sort | uniq -d >dups
        is "$(wc -l <dups)" 0 "-$level: $func's $n paths print $n different texts"
    done
    ok "-$level: the inlined helper's line is printed where a path runs it" \
        grep -q 'TWICE' all-classify.txt
done

# A hand-made profile with the line table.
perl "$MKPROFILE" --scenario lines --map "$T/l.map" "$T/l.pp" || BAIL_OUT "mkprofile.pl failed"
cli_run show "$T/l.pp" loop 3
is "$RC" 0 "the hand-made profile with a line table reads"
has "$OUT" "  t.c:5,8" "path 3 prints its blocks' lines of t.c, as the table gives them"
has "$OUT" "  h.h:40-41" "and the lines of h.h one of them runs"
has "$OUT" "    branch at line 4 -> line 5; not taken: line 7" "and the way it went at the branch"
cli_run report --json "$T/l.pp"
like "$OUT" '"block_line_sets":\{"22":\["t\.c:2-2"\],.*"25":\["t\.c:5-5","h\.h:40-41"\]' \
    "report --json gives each block's exact lines"
perl "$MKPROFILE" --scenario small "$T/s.pp" || BAIL_OUT "mkprofile.pl failed"
cli_run report --json "$T/s.pp"
lacks "$OUT" 'block_line_sets' "a profile without the table has no block_line_sets"
cli_run show "$T/s.pp" loop 3
has "$OUT" "  t.c:3" "and, older, still reads: its blocks' ranges"

pp_ulimit_v 262144
# damage NAME REGEX EDIT...: every command fails with one line naming the file
damage() {
    local name=$1 re=$2 f=$T/d.pp cmd
    shift 2
    if ! perl "$PATCH" "$T/l.pp" "$f" --map "$T/l.map" --reseal "$@" 2>"$T/patch.err"; then
        fail "$name: patch" "$(cat "$T/patch.err")"
        return
    fi
    cli_run report "$f"
    one_error_line "$f" "$re" "$name"
    for cmd in "show $f loop 3" "html -o $T/h $f"; do
        # shellcheck disable=SC2086
        cli_run $cmd
        if [ "$RC" != 2 ] || [ "$(printf '%s' "$ERR" | grep -c '')" != 1 ]; then
            fail "$name: ${cmd%% *} also exit 2 with one line" "exit $RC, stderr:" "$ERR"
            return
        fi
    done
}
damage "line table for another number of nodes" 'line table of 8 nodes, the graph has 9' \
    field:tu0.f0.lines.nnodes=8
damage "2^32-1 spans" "node 2's spans run past the end of the blob" \
    field:tu0.f0.lines.node2.nspans=0xffffffff
damage "ENTRY with lines" 'line table: ENTRY has lines' field:tu0.f0.lines.node0.nspans=1
damage "file string index out of range" 'node 5: file string index 77 out of range' \
    field:tu0.f0.lines.node5.span1.file=77
damage "line 0" 'node 4: bad span 0-4' field:tu0.f0.lines.node4.span0.first=0
damage "span reversed" 'node 4: bad span 4-3' field:tu0.f0.lines.node4.span0.last=3
damage "spans out of order" 'node 5: spans not sorted, overlapping or adjacent' \
    field:tu0.f0.lines.node5.span1.file=0
damage "table cut short" "line table: node [0-9]+'s spans run past the end of the blob|truncated before the line table" \
    field:tu0.f0.lines.node8.nspans=2
done_testing
