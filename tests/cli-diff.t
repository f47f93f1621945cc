#!/usr/bin/env bash
# pathprof diff on two runs of a real program (tests/cli/diff/inputs.c)
# whose path differences are known by construction: input 0 sends 100 even
# numbers through classify and calls only_a 100 times; input 1 sends 30
# even and 70 odd numbers and calls only_b instead. Which path is EVEN and
# which ODD is told by the source lines the JSON gives for each path.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

cp "$PP_CLI_DIR/diff/inputs.c" "$T/"
cd "$T" || exit 1
line_of() { grep -n -- "$1" inputs.c | cut -d: -f1; }
EVEN=$(line_of '/\* EVEN \*/') ODD=$(line_of '/\* ODD \*/')
ONLY_A=$(line_of '/\* ONLY_A \*/') ONLY_B=$(line_of '/\* ONLY_B \*/')

pp_cc "$T/inputs" inputs.c -O2 || exit 1
PATHPROF_QUIET=1 PATHPROF_OUT=$T/a.pp "$T/inputs" 0 >/dev/null
PATHPROF_QUIET=1 PATHPROF_OUT=$T/b.pp "$T/inputs" 1 >/dev/null

# rows JSON: one line per path of the named functions:
# "path FUNCTION STATUS A_COUNT B_COUNT CHANGE LINE..." (each line of its
# ranges), per function "function FUNCTION STATUS A B"
rows() {
    perl -MJSON::PP -e '
        local $/; my $d = decode_json(<STDIN>); my @f = @{$d->{functions}};
        print join(" ", "function", $_->{name}, $_->{status}, $_->{a_count}, $_->{b_count}), "\n" for @f;
        for my $p (@{$d->{paths}}) {
            print join(" ", "path", $f[$p->{function}]{name}, $p->{status}, $p->{a_count},
                       $p->{b_count}, sprintf("%.4f", $p->{change}),
                       map { /^(.*):(\d+)(?:-(\d+))?$/ ? map { "$1:$_" } $2 .. ($3 // $2) : $_ } @{$p->{lines}}), "\n";
        }
        print "by_change ", join(",", @{$d->{by_change}}), "\n";
        print "totals $d->{a}{total} $d->{b}{total}\n";'
}

cli_run diff a.pp b.pp --json
is "$RC:$ERR" "0:" "diff --json: exit 0, nothing on stderr"
R=$(printf '%s\n' "$OUT" | rows)
has "$R" "function classify both 100 100" "classify ran 100 times in both runs"
has "$R" "function only_a gone 100 0" "only_a: gone from B"
has "$R" "function only_b new 0 100" "only_b: new in B"
even=$(printf '%s\n' "$R" | grep "^path classify both 100 30 " )
odd=$(printf '%s\n' "$R" | grep "^path classify new 0 70 ")
like "$even" " inputs\\.c:$EVEN( |\$)" "classify: the EVEN path (line $EVEN) ran 100 then 30 times"
lacks "$even" "inputs\\.c:$ODD( |\$)" "... and does not run the ODD line"
like "$odd" " inputs\\.c:$ODD( |\$)" "classify: the ODD path (line $ODD) is new, 70 times"
is "$(printf '%s\n' "$R" | grep -c '^path classify ')" 2 "classify: two paths in all"
like "$(printf '%s\n' "$R" | grep '^path only_a ')" "^path only_a gone 100 0 -0\\.[0-9]+ inputs\\.c:$ONLY_A" \
    "only_a's path: gone, 100 runs, its lines"
like "$(printf '%s\n' "$R" | grep '^path only_b ')" "^path only_b new 0 100 0\\.[0-9]+ inputs\\.c:$ONLY_B" \
    "only_b's path: new, 100 runs, its lines"
tot=$(printf '%s\n' "$R" | sed -n 's/^totals //p')
read -r ta tb <<<"$tot"
ok "totals: each profile's paths executed ($tot)" test "$ta" -ge 200 -a "$tb" -ge 200
# Shares follow from the counts: the EVEN path's change is 30/tb - 100/ta.
want=$(perl -e "printf '%.4f', 30 / $tb - 100 / $ta")
like "$even" "^path classify both 100 30 $want " "EVEN: change of share = 30/$tb - 100/$ta"
# by_change: every path once, largest absolute change first.
is "$(printf '%s\n' "$OUT" | perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
    my @c = map { abs($d->{paths}[$_]{change}) } @{$d->{by_change}};
    my $ok = @c == @{$d->{paths}}; $ok &&= $c[$_ - 1] >= $c[$_] for 1 .. $#c; print $ok ? "sorted" : "not sorted"')" \
    sorted "by_change lists every path, by decreasing change"

cli_run diff a.pp b.pp
is "$RC:$ERR" "0:" "diff in text: exit 0"
has "$OUT" "functions  4 ran: 2 in both, 1 new in B, 1 gone from B, 0 with changed code" \
    "text: the functions counted by status"
like "$OUT" "A          a\\.pp: [^ ]*/inputs 0 \\(pid [0-9]+, written [0-9-]+ [0-9:]+ UTC\\), $ta paths executed" \
    "text: what A is"
idE=$(printf '%s\n' "$OUT" | sed -n "/^classify (inputs.c:[0-9]*): A 100, B 100$/,/^$/p" | sed -n 's/^ *100\.0% *30\.0% *-70\.0  \([0-9]*\)$/\1/p')
idO=$(printf '%s\n' "$OUT" | sed -n "/^classify (inputs.c:[0-9]*): A 100, B 100$/,/^$/p" | sed -n 's/^ *0\.0% *70\.0% *+70\.0  \([0-9]*\)  NEW$/\1/p')
ok "text, within classify: EVEN 100% -> 30%, ODD new 0% -> 70% (paths $idE, $idO)" test -n "$idE" -a -n "$idO"
block=$(printf '%s\n' "$OUT" | awk -v id="$idO" '$0 ~ "^#[0-9]+  classify \\(inputs.c:[0-9]+\\)  path " id "  NEW$" { on = 1 } on && /^$/ { exit } on')
like "$block" "A 0 \\(0\\.0%\\), B 70 \\([0-9.]+%\\): \\+[0-9.]+ points; within classify 0\\.0% -> 70\\.0%" \
    "text: the ODD path's counts and shares"
like "$block" "$ODD \\|     odds\\+\\+; " "text: the ODD path shown with its source line"
like "$block" "branch at line [0-9]+ -> line $ODD; not taken: line $EVEN" "text: the way the ODD path went"
has "$(printf '%s\n' "$OUT" | sed -n '/^Paths gone from B/,/^$/p')" "  only_a (inputs.c:$((ONLY_A - 2)))  path 0  A 100 ($(perl -e "printf '%.1f', 100 * 100 / $ta")%)" \
    "text: only_a's path among the gone"

# Another build of classify: its code changed, its paths are not compared.
# (same file name, in another directory: functions match by name and file)
mkdir v2
sed 's|return 3 \* x + 1;|return x > 50 ? 3 * x + 1 : x;|' inputs.c >v2/inputs.c
(cd v2 && pp_cc "$T/changed" inputs.c -O2) || exit 1
PATHPROF_QUIET=1 PATHPROF_OUT=$T/c.pp "$T/changed" 1 >/dev/null
cli_run diff a.pp c.pp --function classify
is "$RC" 0 "diff against another build: exit 0"
like "$OUT" "classify \\(inputs\\.c:[0-9]+\\)  CODE CHANGED: paths not compared" "classify's code changed: flagged"
has "$OUT" "paths      0 ran: 0 in both, 0 new in B, 0 gone from B" "... and none of its paths compared"

cli_run diff a.pp b.pp --function nosuch
is "$RC" 1 "--function naming nothing: exit 1"
is "$ERR" "pathprof: diff: no function 'nosuch' in either profile" "... with one line"
cli_run diff a.pp b.pp --function only_b --json
is "$(printf '%s\n' "$OUT" | rows | grep -c '^function')" 1 "--function only_b: one function"
cli_run diff a.pp
is "$RC" 2 "one profile: usage error"
cli_run diff a.pp b.pp c.pp
is "$RC" 2 "three profiles: usage error"
: >empty.pp
cli_run diff a.pp empty.pp
one_error_line empty.pp "" "an unreadable B: one line naming it"
done_testing
