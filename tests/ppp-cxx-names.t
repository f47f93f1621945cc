#!/usr/bin/env bash
# PPP on C++ (docs/perfctl.md, finding 7): function names with blanks and
# quotes (the template instances classify<int, char> and classify<long
# int, unsigned char>, the literal operator operator""_k of
# tests/ppp/templates.cc) go through `pathprof select` quoted (format
# version 2) and back into the plugin's ppp=FILE; the PPP build's counts
# equal those of plain Ball-Larus counting, path for path. A C program's
# file stays version 1, unquoted. Malformed quoting is refused naming
# file, line and column. The interesting-paths oracle is
# tests/ppp/oracle.pl's own parser of docs/format.md.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

ORACLE=$TAP_ROOT/tests/ppp/oracle.pl
export PP_ORACLE_SEP=tab
cp "$TAP_ROOT/tests/ppp/templates.cc" "$TAP_ROOT/tests/ppp/residual.c" "$T/"
cd "$T" || exit 1
counts() { "$PP_CLI" report --json "$1" >"$1.json" && perl "$ORACLE" executed "$1.json" | sort; }
# "NAME<tab>ID" of the paths with a PPP number in profile $1's JSON.
numbered() {
    perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        for my $f (@{ $d->{functions} }) { for (@{ $f->{paths} }) {
            print "$f->{name}\t$_->{id}\n" if defined $_->{ppp_number} } }' <"$1.json" | sort
}
TRAIN="ab 9!"
PROD="aB 9! zz 01"

command -v g++ >/dev/null || plan skip_all "no g++"
PP_GCC=g++ pp_cc_plain native templates.cc -O2 || BAIL_OUT "cannot build templates.cc"
for level in O0 O2; do
    PP_GCC=g++ pp_cc "bl-$level" templates.cc "-$level" || continue
    pp_run "train-$level.pp" "./bl-$level" "$TRAIN"
    pp_run "bl-$level.pp" "./bl-$level" "$PROD"
    for cover in 1 0.6; do
        tag=$level-$cover
        cli_run select "train-$level.pp" --cover "$cover"
        is "$RC" 0 "-$tag: select takes C++ names with blanks: exit 0"
        printf '%s\n' "$OUT" >"int-$tag.txt"
        is "$(head -n 1 "int-$tag.txt")" "pathprof-interesting-paths 2" \
            "-$tag: quoted names make it version 2"
        # The oracle's parser reads back exactly the executed paths' names.
        if [ "$cover" = 1 ]; then
            is "$(perl "$ORACLE" interesting "int-$tag.txt" | sort)" \
                "$(counts "train-$level.pp" | cut -f1-4)" \
                "-$tag: every executed path, names unquoted back to the profile's"
            like "$OUT" '^"classify<int, char>" templates\.cc 0x[0-9a-f]{16} [0-9]+  # count' \
                "-$tag: a template name with a blank is quoted"
            like "$OUT" '^"operator\\"\\"_k" templates\.cc ' "-$tag: quotes in a name are escaped"
        fi
        PP_GCC=g++ pp_cc "ppp-$tag" templates.cc "-$level" "-fplugin-arg-pathprof-ppp=int-$tag.txt" || continue
        pp_run "ppp-$tag.pp" "./ppp-$tag" "$PROD"
        is "$(cat "ppp-$tag.pp.stdout")" "$(./native "$PROD")" "-$tag: the PPP build computes what the program computes"
        is "$(counts "ppp-$tag.pp")" "$(counts "bl-$level.pp")" \
            "-$tag: PPP counts == Ball-Larus counts, path for path"
        is "$(numbered "ppp-$tag.pp")" "$(perl "$ORACLE" interesting "int-$tag.txt" | cut -f1,4 | sort)" \
            "-$tag: the paths with a PPP number are the interesting ones"
        like "$("$PP_CLI" report "ppp-$tag.pp")" '  classify<int, char> \(templates\.cc:[0-9]+\)  \[ppp\]' \
            "-$tag: classify<int, char> is numbered preferentially"
    done
done

# A hand-written file: version 1 with a quoted name, a tab between fields,
# a comment holding a quote.
{
    echo 'pathprof-interesting-paths 1'
    perl "$ORACLE" interesting int-O2-1.txt | awk -F'\t' '$1 == "classify<int, char>" {
        printf "\"%s\"\t%s %s %s #\"hand\n", $1, $2, $3, $4 }'
} >hand.txt
PP_GCC=g++ pp_cc hand templates.cc -O2 -fplugin-arg-pathprof-ppp=hand.txt && pp_run hand.pp ./hand "$PROD"
"$PP_CLI" report --json hand.pp >hand.pp.json
is "$(numbered hand.pp)" "$(perl "$ORACLE" interesting hand.txt | cut -f1,4 | sort)" \
    "hand-written version-1 file with a quoted name: its paths are numbered"
isnt "$(numbered hand.pp)" "" "hand-written file: some path is numbered"

# A C program: nothing to quote, the file stays version 1 as before.
pp_cc_plain cnative residual.c -O2
pp_cc cbl residual.c -O2 && pp_run c-train.pp ./cbl "abc 123" && pp_run c-bl.pp ./cbl "abc XY!"
cli_run select c-train.pp
printf '%s\n' "$OUT" >c.txt
is "$(head -n 1 c.txt)" "pathprof-interesting-paths 1" "C program: version 1"
lacks "$OUT" "^\"" "C program: no name quoted"
pp_cc cppp residual.c -O2 -fplugin-arg-pathprof-ppp=c.txt && pp_run c-ppp.pp ./cppp "abc XY!"
is "$(counts c-ppp.pp)" "$(counts c-bl.pp)" "C program: PPP counts == Ball-Larus counts, path for path"

# Malformed quoting: the compiler stops naming file, line and column.
ppp_fails() { # NAME REGEX FILE
    if g++ -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-ppp="$3" -c templates.cc -o /dev/null 2>err.txt; then
        fail "$1" "compiled"
    else
        like "$(cat err.txt)" "$2" "$1"
    fi
}
printf 'pathprof-interesting-paths 2\n# c\n"classify<int, char> templates.cc 0x0000000000000001 3\n' >open.txt
ppp_fails "an unterminated quote: file, line, column" \
    "open.txt:3:1: a quoted field has no closing '\"'" open.txt
printf 'pathprof-interesting-paths 2\n  "f\\q" - 0x1 3\n' >esc.txt
ppp_fails "an unknown escape: file, line, column" "esc.txt:2:5: unknown escape in a quoted field" esc.txt
printf 'pathprof-interesting-paths 2\n"f"x - 0x1 3\n' >after.txt
ppp_fails "text right after a closing quote: file, line, column" \
    "after.txt:2:4: a closing '\"' must be followed by a blank" after.txt
printf 'pathprof-interesting-paths 2\nclassify<int, char> templates.cc 0x1 3\n' >unq.txt
ppp_fails "an unquoted name with a blank: field count, and how to fix it" \
    "unq.txt:2: 5 fields, want 4: FUNCTION FILE CHECKSUM PATH-ID \(a name with blanks goes in double quotes\)" unq.txt
printf 'pathprof-interesting-paths 4\n' >v4.txt
ppp_fails "an unknown version" "v4.txt:1: not an interesting-paths file" v4.txt
done_testing
