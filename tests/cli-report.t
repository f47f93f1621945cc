#!/usr/bin/env bash
# `pathprof report` in text: header, function table, both path rankings,
# paths shown as line ranges with source text when the source is there.
# The profile (tests/cli/mkprofile.pl, scenario basic) has paths known by
# construction: see the comment at the top of mkprofile.pl.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require

perl "$MKPROFILE" "$T/p.pp" || BAIL_OUT "mkprofile.pl failed"
mkdir "$T/src" "$T/nosrc"
cp "$PP_CLI_DIR/t.c" "$T/src/t.c"

# ranking TEXT TITLE: the "#N  function  path ID" lines of one table
ranking() {
    printf '%s\n' "$1" | awk -v t="$2" '
        /^Paths by / { on = index($0, t " (") == 1 }
        on && /^#/ { print }'
}

cd "$T/src" || exit 1
cli_run report "$T/p.pp"
is "$RC" 0 "report: exit 0"
is "$ERR" "" "report: nothing on stderr"
has "$OUT" "program    /tmp/prog" "header: program"
has "$OUT" "command    ./prog --fast 3" "header: command line"
has "$OUT" "pid        4242" "header: pid"
has "$OUT" "written    2023-11-14 22:13:20 UTC" "header: time of writing"
has "$OUT" "paths      9007199254741068 executed (array updates 64, hash updates 9007199254741004)" \
    "header: totals, exact above 2^53"
has "$OUT" "functions  6 instrumented, 5 executed" "header: functions (copies of helper@t.c merged)"
like "$OUT" "  55 +0\.0% +5/6  loop \(t\.c:1\)  \[verify\]" "function table: loop"
like "$OUT" "   7 +0\.0% +1/1  helper \(t\.c:20\)" "function table: helper@t.c, merged count"
like "$OUT" "   2 +0\.0% +1/2  helper \(u\.c:10\)" "function table: helper@u.c separate"
lacks "$OUT" "cold \(" "function table: never-run function not listed"

expected_by_count="#1  fatal (u.c:3)  path 0
#2  loop (t.c:1)  path 3
#3  loop (t.c:1)  path 1
#4  loop (t.c:1)  path 4
#5  loop (t.c:1)  path 5
#6  helper (t.c:20)  path 0
#7  fatal (u.c:3)  path 1
#8  loop (t.c:1)  path 2
#9  wide (u.c:30)  path 1152921504606846977
#10  helper (u.c:10)  path 1"
is "$(ranking "$OUT" "Paths by count")" "$expected_by_count" "ranking by count (top 10, ties in profile order)"
has "$OUT" "Paths by count (top 10 of 11)" "by count: title says top 10 of 11"

expected_by_weight="#1  fatal (u.c:3)  path 0
#2  loop (t.c:1)  path 3
#3  loop (t.c:1)  path 1
#4  loop (t.c:1)  path 4
#5  loop (t.c:1)  path 5
#6  loop (t.c:1)  path 2
#7  fatal (u.c:3)  path 1
#8  helper (t.c:20)  path 0
#9  wide (u.c:30)  path 1152921504606846977
#10  helper (u.c:10)  path 1"
is "$(ranking "$OUT" "Paths by count x length")" "$expected_by_weight" "ranking by count x length"
has "$OUT" "    count 9007199254740993 x 2 blocks = 18014398509481986 (100.0%)" \
    "count x length is exact"
has "$OUT" "    count 20 x 4 blocks = 80 (0.0%)" "count x length of loop path 3"

# The path of loop with ID 3, as source lines.
block=$(printf '%s\n' "$OUT" | awk '/^#2  loop \(t.c:1\)  path 3$/ { on = 1; next } on && /^$/ { exit } on')
expected_block="    count 20 (0.0%), 4 blocks
    starts at loop header t.c:3 after back edge; ends taking back edge to t.c:3
    t.c:3
           3 |     while (i < n) {
      branch at line 3 -> line 4; not taken: line 10
    t.c:4
           4 |         if (i & 1)
      branch at line 4 -> line 5; not taken: line 7
    t.c:5
           5 |             s += i;
    t.c:8
           8 |         i++;"
is "$block" "$expected_block" "path 3: start, end, line ranges cut at each branch with the way taken, source text"
has "$OUT" "    starts at function entry; ends at noreturn call (exit, abort, trap...)" \
    "fatal path 0 ends at a noreturn call"
has "$OUT" "    starts at loop header t.c:3 after back edge; ends at return" "loop path 5: loop to return"
has "$OUT" "    starts at function entry; ends at return" "entry to return"

# Without the sources: the same ranges, no text, said once at the end.
cd "$T/nosrc" || exit 1
cli_run report "$T/p.pp"
is "$RC" 0 "no sources: exit 0"
is "$ERR" "" "no sources: nothing on stderr"
has "$OUT" "    t.c:3" "no sources: ranges still shown"
has "$OUT" "      branch at line 4 -> line 5; not taken: line 7" "no sources: branches still shown"
lacks "$OUT" " \| " "no sources: no source text"
is "$(printf '%s\n' "$OUT" | grep -c 'not found')" 1 "no sources: said once"
has "$OUT" "sources    not found: u.c, t.c (lines are shown without their text; relative names are looked up from the current directory)" \
    "no sources: the missing files named, in the order they were needed"
cd "$T/src" || exit 1
cli_run report "$T/p.pp"
has "$OUT" "sources    not found: u.c (lines are shown without their text; relative names are looked up from the current directory)" \
    "with t.c there: only u.c is named"
cd "$T/nosrc" || exit 1

# A source file given by a relative name is found from the current directory.
cd "$T" || exit 1
cli_run report "$T/p.pp"
lacks "$OUT" " \| " "sources are looked up relative to the current directory"

cd "$T/src" || exit 1
cli_run report "$T/p.pp" --top 3
is "$(ranking "$OUT" "Paths by count" | wc -l)" 3 "--top 3: three paths by count"
is "$(ranking "$OUT" "Paths by count x length" | wc -l)" 3 "--top 3: three paths by count x length"
has "$OUT" "Paths by count (top 3 of 11)" "--top 3: title"
has "$OUT" "Functions by paths executed (top 3 of 5)" "--top 3: function table limited too"

cli_run report "$T/p.pp" --function helper
is "$RC" 0 "--function helper: exit 0"
is "$(ranking "$OUT" "Paths by count")" "#1  helper (t.c:20)  path 0
#2  helper (u.c:10)  path 1" "--function helper: both static functions named helper"
cli_run report "$T/p.pp" --function=u.c:helper
is "$(ranking "$OUT" "Paths by count")" "#1  helper (u.c:10)  path 1" "--function FILE:NAME picks one"
cli_run report "$T/p.pp" --function loop --function fatal --top 2
is "$(ranking "$OUT" "Paths by count")" "#1  fatal (u.c:3)  path 0
#2  loop (t.c:1)  path 3" "--function twice: both functions"
cli_run report "$T/p.pp" --function cold
is "$RC" 0 "--function of a function that never ran: exit 0"
has "$OUT" "No path was executed." "--function cold: says no path ran"
cli_run report "$T/p.pp" --function nosuch
is "$RC" 1 "--function of an unknown function: exit 1"
is "$ERR" "pathprof: $T/p.pp: no function 'nosuch'" "--function unknown: one line naming it"

# Options may come before the file; -- ends options.
cli_run report --top 1 "$T/p.pp"
is "$RC" 0 "options before FILE"
cp "$T/p.pp" "$T/src/-p.pp"
cli_run report --top 1 -- -p.pp
is "$RC" 0 "-- lets a file name start with '-'"
done_testing
