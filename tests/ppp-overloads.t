#!/usr/bin/env bash
# PPP on C++ overloads (docs/perfctl.md, finding 7): the two score() of
# tests/ppp/overloads.cc share name and file, so `pathprof select` gives
# their lines the declaration line (format version 3) and the plugin's
# ppp=FILE matches by name, file and line. With one overload listed and
# the other not, and with both listed, the build succeeds and its counts
# equal those of plain Ball-Larus counting, path for path; only the
# listed overload's paths get PPP numbers. A file without lines (version
# 2) still builds; one listing an overload with a wrong checksum at its
# line is refused naming it. The oracle is tests/ppp/oracle.pl.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

ORACLE=$TAP_ROOT/tests/ppp/oracle.pl
export PP_ORACLE_SEP=tab
cp "$TAP_ROOT/tests/ppp/overloads.cc" "$T/"
cd "$T" || exit 1
command -v g++ >/dev/null || plan skip_all "no g++"
counts() { "$PP_CLI" report --json "$1" >"$1.json" && perl "$ORACLE" executed "$1.json" | sort; }
# "NAME<tab>LINE<tab>CHECKSUM<tab>ID" of the paths with a PPP number in profile $1.
numbered() {
    "$PP_CLI" report --json "$1" | perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        for my $f (@{ $d->{functions} }) { for (@{ $f->{paths} }) {
            print "$f->{name}\t$f->{line}\t$f->{checksum}\t$_->{id}\n" if defined $_->{ppp_number} } }' | sort
}
# The declaration line of the score() whose parameter is $1.
decl_line() { grep -n "score($1" overloads.cc | head -n 1 | cut -d: -f1; }
LINT=$(decl_line 'int v')
LSTR=$(decl_line 'const char')
TRAIN="ab9!"
PROD="aB 9! zz 01"

PP_GCC=g++ pp_cc_plain native overloads.cc -O2 || BAIL_OUT "cannot build overloads.cc"
PP_GCC=g++ pp_cc bl overloads.cc -O2 || BAIL_OUT "cannot build overloads.cc with pathprof"
pp_run train.pp ./bl "$TRAIN"
pp_run bl.pp ./bl "$PROD"
is "$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        print join(" ", sort map { $_->{line} } grep { $_->{name} eq "score" } @{ $d->{functions} })' \
        < <("$PP_CLI" report --json train.pp))" "$(printf '%s\n' "$LINT" "$LSTR" | sort | tr '\n' ' ' | sed 's/ $//')" \
    "the profile has both overloads under one name, at their lines"

cli_run select train.pp
is "$RC" 0 "select: exit 0"
printf '%s\n' "$OUT" >all.txt
is "$(head -n 1 all.txt)" "pathprof-interesting-paths 3" "overloads make it version 3"
like "$OUT" "^score overloads\\.cc $LINT 0x[0-9a-f]{16} [0-9]+  # count" "score(int): its line after the file"
like "$OUT" "^score overloads\\.cc $LSTR 0x[0-9a-f]{16} [0-9]+  # count" "score(const char *): its line after the file"
like "$OUT" "^main overloads\\.cc 0x[0-9a-f]{16} [0-9]+  # count" "main, not overloaded: no line"
is "$(perl "$ORACLE" interesting all.txt | sort)" "$(counts train.pp | cut -f1-4)" \
    "every executed path, read back"

# ppp_build TAG FILE: builds with ppp=FILE and runs; its counts must be
# Ball-Larus's, its output the program's.
ppp_build() {
    PP_GCC=g++ pp_cc "ppp-$1" overloads.cc -O2 "-fplugin-arg-pathprof-ppp=$2" || { fail "$1: builds"; return 1; }
    pass "$1: builds"
    pp_run "ppp-$1.pp" "./ppp-$1" "$PROD"
    is "$(cat "ppp-$1.pp.stdout")" "$(./native "$PROD")" "$1: computes what the program computes"
    is "$(counts "ppp-$1.pp")" "$(counts bl.pp)" "$1: PPP counts == Ball-Larus counts, path for path"
}
# The lines of $1 whose third field is line $2 (one overload), with the header.
only() { { head -n 1 "$1"; awk -v l="$2" '$3 == l' "$1"; } >"$3"; }

ppp_build both all.txt
is "$(numbered ppp-both.pp | cut -f1,3,4)" "$(perl "$ORACLE" interesting all.txt | cut -f1,3,4 | sort)" \
    "both listed: the paths with a PPP number are the interesting ones"

for o in "INT:$LINT" "STR:$LSTR"; do
    l=${o#*:} o=${o%%:*}
    only all.txt "$l" "only-$o.txt"
    isnt "$(tail -n +2 "only-$o.txt")" "" "only-$o: the file lists score at line $l"
    ppp_build "only-$o" "only-$o.txt" || continue
    is "$(numbered "ppp-only-$o.pp" | cut -f1,2 | sort -u)" "$(printf 'score\t%s' "$l")" \
        "only-$o: only score at line $l is numbered preferentially"
    is "$(numbered "ppp-only-$o.pp" | cut -f1,3,4)" "$(perl "$ORACLE" interesting "only-$o.txt" | cut -f1,3,4 | sort)" \
        "only-$o: its numbered paths are the listed ones"
done

# An older file (version 2, no lines): both overloads listed, each told
# apart by its checksum, builds; one listed is refused (without a line an
# entry stands for every score of the file), saying what to do.
{ echo 'pathprof-interesting-paths 2'; awk 'NF >= 4 && $1 !~ /^#/ && $3 !~ /^0x/ { print $1, $2, $4, $5; next }
    NF >= 4 && $1 !~ /^#/ { print $1, $2, $3, $4 }' all.txt; } >v2.txt
is "$(perl "$ORACLE" interesting v2.txt | sort)" "$(perl "$ORACLE" interesting all.txt | sort)" \
    "v2: the same paths without lines"
ppp_build v2 v2.txt
is "$(numbered ppp-v2.pp | cut -f1,3,4)" "$(perl "$ORACLE" interesting v2.txt | cut -f1,3,4 | sort)" \
    "v2, both overloads listed: the paths with a PPP number are the interesting ones"
{ echo 'pathprof-interesting-paths 2'; awk -v l="$LSTR" '$3 == l { print $1, $2, $4, $5 }' all.txt; } >v2one.txt
if PP_GCC=g++ pp_cc ppp-v2one overloads.cc -O2 -fplugin-arg-pathprof-ppp=v2one.txt 2>/dev/null; then
    fail "v2, one overload listed: refused" "compiled"
else
    like "$(cat ppp-v2one.log)" "note: pathprof: if v2one.txt:2 lists another overload of 'score', give it its declaration line" \
        "v2, one overload listed: refused, pointing at the LINE field"
fi

# Hand edits: a LINE in a version 2 file, a wrong LINE, a stale checksum.
ppp_fails() { # NAME REGEX FILE
    if g++ -fplugin="$PP_PLUGIN" -fplugin-arg-pathprof-ppp="$3" -c overloads.cc -o /dev/null 2>err.txt; then
        fail "$1" "compiled"
    else
        like "$(cat err.txt)" "$2" "$1"
    fi
}
{ echo 'pathprof-interesting-paths 2'; tail -n +2 only-STR.txt; } >v2line.txt
ppp_fails "a LINE field in a version 2 file: refused, saying why" \
    "v2line.txt:2: 5 fields, want 4: .*a LINE field after FILE needs version 3" v2line.txt
printf 'pathprof-interesting-paths 3\nscore overloads.cc x12 0x1 3\n' >badline.txt
ppp_fails "a LINE that is not a number: refused naming it" \
    "badline.txt:2: LINE .x12. \\(the 3rd of 5 fields" badline.txt
printf 'pathprof-interesting-paths 3\nscore overloads.cc %s 0x0000000000000001 0\n' "$LSTR" >stale.txt
ppp_fails "a wrong checksum at an overload's line: refused naming file and line" \
    "function .score. changed since its interesting paths were selected: stale.txt:2 gives checksum 0x0000000000000001" stale.txt
# The other overload's line with a made-up checksum does not touch score(int).
printf 'pathprof-interesting-paths 3\nscore overloads.cc 1 0x0000000000000001 0\n' >elsewhere.txt
ppp_build elsewhere elsewhere.txt
is "$(numbered ppp-elsewhere.pp)" "" "an entry at a line no overload is on: nothing numbered"
done_testing
