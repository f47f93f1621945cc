#!/usr/bin/env bash
# pathprof diff and residual pair a function of one profile with the same
# function of the other by name and file (cli/query/func_index.c), not by
# position: two builds of one program whose translation units are linked
# in the two orders put every function at another place in the profile,
# and each file has a static helper() of its own. The oracle is each
# profile's own report: every row of diff must carry the totals its two
# reports give the row's (name, file), and residual's lists must be the
# set differences of the two reports' executed paths.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/ppp/oracle.pl
N=150
cd "$T" || exit 1

# one_K and two_K take their odd path for an odd argument; main passes
# argc - 1 to one.c's functions and 0 to two.c's, so a second argument
# moves one.c's paths only.
for f in one two; do
    {
        echo "__attribute__((noinline)) static int helper(int x) { if (x & 1) return x * 5; return x + 1; }"
        for ((k = 0; k < N; k++)); do
            echo "__attribute__((noinline)) int ${f}_$k(int x) { if (x & 1) return helper(x) + $k; return x - $k; }"
        done
        echo "int ${f}_all(int x) { int s = 0; for (int i = 0; i < 3; i++) {"
        for ((k = 0; k < N; k++)); do echo "  s += ${f}_$k(x);"; done
        echo "} return s; }"
    } >"$f.c"
done
cat >main.c <<'EOF_C'
#include <stdio.h>
int one_all(int x);
int two_all(int x);
int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", one_all(argc - 1) + two_all(0));
    return 0;
}
EOF_C
pp_cc "$T/fwd" main.c -O1 one.c two.c && pp_cc "$T/rev" main.c -O1 two.c one.c ||
    BAIL_OUT "cannot build one.c and two.c in two link orders"

PATHPROF_QUIET=1 PATHPROF_OUT=$T/t.pp "$T/fwd" >/dev/null &&
    PATHPROF_QUIET=1 PATHPROF_OUT=$T/same.pp "$T/rev" >/dev/null &&
    PATHPROF_QUIET=1 PATHPROF_OUT=$T/p.pp "$T/rev" x >/dev/null || BAIL_OUT "runs"
for p in t same p; do
    "$PP_CLI" report --json "$p.pp" >"$p.json" || BAIL_OUT "report --json $p.pp"
done

# The two builds really do list their functions in other orders.
order() { perl -MJSON::PP -e 'local $/; print join(" ", map { $_->{name} } @{ decode_json(<STDIN>)->{functions} }), "\n"' <"$1"; }
isnt "$(order t.json)" "$(order same.json)" "the link orders give two function orders"

# diff_rows DIFF.json: "name file status a_count b_count" per function row;
# totals A.json B.json: what the reports say those rows must be.
diff_rows() {
    perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        print join(" ", $_->{name}, $_->{file}, $_->{status}, $_->{a_count}, $_->{b_count}), "\n"
            for @{ $d->{functions} }' <"$1" | sort
}
totals() {
    perl -MJSON::PP -e '
        sub t { open my $fh, "<", $_[0] or die; local $/; my %t;
                $t{"$_->{name} $_->{file}"} += $_->{total} for @{ decode_json(<$fh>)->{functions} }; \%t }
        my ($a, $b) = (t($ARGV[0]), t($ARGV[1]));
        for my $k (sort keys %{{ %$a, %$b }}) {
            my ($x, $y) = ($a->{$k} // 0, $b->{$k} // 0);
            next unless $x || $y;
            print "$k ", ($x && $y ? "both" : $x ? "gone" : "new"), " $x $y\n";
        }' "$1" "$2" | sort
}

"$PP_CLI" diff --json t.pp same.pp >d-same.json || BAIL_OUT "diff t.pp same.pp"
is "$(diff_rows d-same.json)" "$(totals t.json same.json)" \
    "diff of one input in two link orders: every function pairs with its own name and file"
is "$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
    print scalar(grep { $_->{status} ne "both" || $_->{a_count} != $_->{b_count} } @{ $d->{paths} }), "\n"' <d-same.json)" \
    0 "... and every path is in both with the same count"
is "$(grep -c ' both ' <(diff_rows d-same.json))" "$((2 * N + 3))" \
    "... all $((2 * N + 3)) functions that ran (main, two _all and the ${N}s; helper needs an odd x)"

"$PP_CLI" diff --json t.pp p.pp >d-moved.json || BAIL_OUT "diff t.pp p.pp"
is "$(diff_rows d-moved.json)" "$(totals t.json p.json)" \
    "diff of two inputs in two link orders: rows carry their reports' totals"
is "$(perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); my @f = @{ $d->{functions} };
    my %c; $c{ $f[$_->{function}]{file} }++ for grep { $_->{status} eq "new" } @{ $d->{paths} };
    print join(" ", map { "$_=$c{$_}" } sort keys %c), "\n"' <d-moved.json)" \
    "one.c=$((N + 1))" "... new paths only in one.c: each one_K's odd path and its helper's"

"$PP_CLI" residual --json t.pp p.pp >res.json || BAIL_OUT "residual t.pp p.pp"
is "$(perl "$ORACLE" residual res.json only_in_production | sort)" \
    "$(perl "$ORACLE" only p.json t.json | sort)" "residual: only_in_production == the reports' set difference"
is "$(perl "$ORACLE" residual res.json only_in_test | sort)" \
    "$(perl "$ORACLE" only t.json p.json | sort)" "residual: only_in_test == the reports' set difference"
is "$(perl "$ORACLE" residual res.json only_in_production | grep -c '^helper one.c ')" 1 \
    "residual: one.c's helper gained a path, two.c's (same name) did not"
"$PP_CLI" residual --json t.pp same.pp >res-same.json || BAIL_OUT "residual t.pp same.pp"
is "$(perl "$ORACLE" residual res-same.json only_in_production; perl "$ORACLE" residual res-same.json only_in_test)" "" \
    "residual of one input in two link orders: nothing"
done_testing
