#!/usr/bin/env bash
# `pathprof select` (the interesting-paths file of PPP) and `pathprof
# residual` (paths that ran in one profile and never in another) on a real
# program whose path sets differ by construction (tests/ppp/residual.c):
# the test input has digits, lower case and blanks, the production input
# lower case, blanks, upper case and a '!' (which calls rare()). The oracle
# is tests/ppp/oracle.pl over each profile's `report --json`.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

ORACLE=$TAP_ROOT/tests/ppp/oracle.pl
cp "$TAP_ROOT/tests/ppp/residual.c" "$T/"
cd "$T" || exit 1
line_of() { grep -n "/\* $1 \*/" residual.c | cut -d: -f1; }
TEST_IN="abc 123 9"
PROD_IN="abc XY!"
sorted() { printf '%s\n' "$1" | sed '/^$/d' | sort; }

pp_cc_plain native residual.c -O2 || BAIL_OUT "cannot build residual.c"
for level in O0 O2; do
    pp_cc "r-$level" residual.c "-$level" || continue
    pp_run "t-$level.pp" "./r-$level" "$TEST_IN"
    pp_run "p-$level.pp" "./r-$level" "$PROD_IN"
    is "$(cat "t-$level.pp.stdout") / $(cat "p-$level.pp.stdout")" \
        "$(./native "$TEST_IN") / $(./native "$PROD_IN")" "-$level: same output as without pathprof"
    "$PP_CLI" report --json "t-$level.pp" >"t-$level.json" &&
        "$PP_CLI" report --json "p-$level.pp" >"p-$level.json" || BAIL_OUT "report --json failed"

    # select: every executed path, one line each, as the oracle reads the file.
    cli_run select "t-$level.pp"
    is "$RC" 0 "-$level: select: exit 0"
    printf '%s\n' "$OUT" >"all-$level.txt"
    got=$(perl "$ORACLE" interesting "all-$level.txt" | sort)
    want=$(perl "$ORACLE" executed "t-$level.json" | cut -d' ' -f1-4 | sort)
    is "$got" "$want" "-$level: select writes exactly the executed paths (function, file, checksum, ID)"
    like "$OUT" "# selected from t-$level.pp: [0-9]+ of [0-9]+ executed paths" \
        "-$level: select says where the paths come from"

    # --cover 0.5: the fewest hottest paths reaching half the executions.
    cli_run select "t-$level.pp" --cover 0.5
    printf '%s\n' "$OUT" >"half-$level.txt"
    sel=$(perl "$ORACLE" interesting "half-$level.txt" | sort)
    out=$(perl -e '
        my ($sel, $all) = @ARGV; my (%in, @s, @u, $tot);
        $in{$_} = 1 for grep { length } split /\n/, $sel;
        for (split /\n/, $all) { my @f = split; $tot += $f[4];
            if ($in{"@f[0..3]"}) { push @s, $f[4]; delete $in{"@f[0..3]"} } else { push @u, $f[4] } }
        die "selected a path that never ran: ", join(",", keys %in), "\n" if %in;
        my $sum = 0; $sum += $_ for @s; my ($min) = sort { $a <=> $b } @s;
        die "sum $sum below half of $tot\n" if 2 * $sum < $tot;
        die "not the fewest: $sum - $min still reaches half of $tot\n" if 2 * ($sum - $min) >= $tot;
        for (@u) { die "unselected path ran $_ times, more than selected $min\n" if $_ > $min }
        print "ok\n";' "$sel" "$(perl "$ORACLE" executed "t-$level.json")" 2>&1)
    is "$out" "ok" "-$level: select --cover 0.5 keeps the fewest hottest paths reaching half the flow"

    # residual, JSON: both lists against the set differences of the reports.
    cli_run residual "t-$level.pp" "p-$level.pp" --json
    is "$RC" 0 "-$level: residual --json: exit 0"
    printf '%s\n' "$OUT" >"res-$level.json"
    is "$(perl "$ORACLE" residual "res-$level.json" only_in_production | sort)" \
        "$(perl "$ORACLE" only "p-$level.json" "t-$level.json" | sort)" \
        "-$level: only_in_production == paths of prod's report absent from test's"
    is "$(perl "$ORACLE" residual "res-$level.json" only_in_test | sort)" \
        "$(perl "$ORACLE" only "t-$level.json" "p-$level.json" | sort)" \
        "-$level: only_in_test == paths of test's report absent from prod's"
    has "$(perl "$ORACLE" residual "res-$level.json" only_in_production)" "rare residual.c 0" \
        "-$level: rare(), called only on '!', is residual"
    # Each profile's residual list is what the other run never did, ranked by count.
    counts=$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        print join(" ", map { $_->{count} } @{ $d->{only_in_production} })' <"res-$level.json")
    is "$counts" "$(printf '%s\n' $counts | sort -rn | tr '\n' ' ' | sed 's/ $//')" \
        "-$level: residual paths ranked by count"

    cli_run residual "t-$level.pp" "p-$level.pp"
    is "$RC" 0 "-$level: residual (text): exit 0"
    n=$(perl "$ORACLE" only "p-$level.json" "t-$level.json" | grep -c .)
    like "$OUT" "^Paths that ran in p-$level.pp and never in t-$level.pp: $n in [0-9]+ functions?, run [0-9]+ times$" \
        "-$level: text names the direction and counts the $n residual paths"
    like "$OUT" "return c \* 3 \+ 1; /\* RARE \*/" "-$level: text shows rare()'s source line"
done

# At -O0 each class returns from its own block, so the construction is
# visible in the lines: classify's residual paths in production are
# exactly those running the UPPER or OTHER line, in test those running DIGIT.
is "$(perl "$ORACLE" residual res-O0.json only_in_production | awk '$1 == "classify" { print $3 }' | sort)" \
    "$(perl "$ORACLE" covers p-O0.json classify "$(line_of UPPER)" "$(line_of OTHER)" | sort)" \
    "-O0: classify's production-only paths are those through UPPER and OTHER"
is "$(perl "$ORACLE" residual res-O0.json only_in_test | awk '$1 == "classify" { print $3 }' | sort)" \
    "$(perl "$ORACLE" covers t-O0.json classify "$(line_of DIGIT)" | sort)" \
    "-O0: classify's test-only paths are those through DIGIT"
isnt "$(perl "$ORACLE" covers p-O0.json classify "$(line_of UPPER)")" "" "-O0: production did run UPPER"

# A changed function is listed, never compared: its IDs mean other paths.
sed 's|return 4; /\* OTHER \*/|if (c == 0x7f) return 5;\n    return 4; /* OTHER */|' residual.c >changed.c
pp_cc r-changed changed.c -O0 && pp_run c.pp ./r-changed "$PROD_IN"
cli_run residual t-O0.pp c.pp --json
is "$RC" 0 "changed build: residual exit 0"
printf '%s\n' "$OUT" >res-changed.json
like "$OUT" '"function":"classify","file":"changed.c",.*"function_absent":true' \
    "changed build in another file: its classify is another function, absent from the test"
cp changed.c residual.c
pp_cc r-changed2 residual.c -O0 && pp_run c2.pp ./r-changed2 "$PROD_IN"
cli_run residual t-O0.pp c2.pp
like "$OUT" "^Functions not compared \(1\): their graphs differ between the two builds$" \
    "changed build: the changed function is listed"
like "$OUT" "^  classify \(residual.c:[0-9]+\): checksum 0x[0-9a-f]{16} in t-O0.pp, 0x[0-9a-f]{16} in c2.pp$" \
    "changed build: with both checksums"
lacks "$OUT" "^#[0-9]+  classify " "changed build: none of classify's paths is listed"
like "$OUT" "^#[0-9]+  rare \(residual.c:[0-9]+\)  path 0$" "changed build: unchanged functions still compared"

# Bad input: one line, status 2.
cli_run select t-O0.pp --cover 0
is "$RC" 2 "select --cover 0: usage error"
like "$ERR" "select: --cover needs a fraction above 0, at most 1" "select --cover 0: says why"
cli_run select t-O0.pp --cover 1.5
is "$RC" 2 "select --cover 1.5: usage error"
cli_run residual t-O0.pp
is "$RC" 2 "residual with one profile: usage error"
like "$ERR" "residual: needs TEST_PROFILE and PROD_PROFILE" "residual with one profile: says why"
cli_run residual t-O0.pp nosuch.pp
is "$RC" 2 "residual with a missing profile: status 2"
is "$ERR" "pathprof: nosuch.pp: No such file or directory" "residual: names the missing file"
done_testing
