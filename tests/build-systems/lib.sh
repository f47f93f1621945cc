# tests/build-systems/lib.sh - what tests/build-*.t share: lay out a small
# project of one kind in $T/proj, build it with the one flag the docs give
# (docs/build-systems.md), run its own test suite with accumulation on,
# and check the profile against counts known by construction.
# Source after lib/tap.sh.

BS_DIR=$TAP_ROOT/tests/build-systems

# bs_setup KIND: the project's files in $T/proj; SPECS, PROF set; cd there
bs_setup() {
    pp_require_build
    pp_not_under_sanitizer "address undefined thread" \
        "the projects are built with plain gcc, not the sanitizer's flags"
    SPECS=$("$PP_CLI" config --specs) || BAIL_OUT "pathprof config --specs failed"
    PROF=$T/prof.out
    mkdir -p "$T/proj"
    cp "$BS_DIR"/src/* "$BS_DIR/$1"/* "$T/proj/" || BAIL_OUT "cannot copy the $1 project"
    cd "$T/proj" || BAIL_OUT "cannot enter $T/proj"
}

# bs_step NAME LOG CMD...: runs CMD with its output in LOG; a test line
bs_step() {
    local name=$1 log=$2; shift 2
    if "$@" >"$log" 2>&1; then
        pass "$name"
    else
        fail "$name" "$* failed:" "$(tail -n 25 "$log")"
    fi
}

# bs_check_profile: the project's two test runs (calc 100, calc 10) went
# into one profile: calc_classify's three paths ran 34 + 4 (multiples of
# 3), 33 + 3 (even) and 33 + 3 (odd) times; calc_sum's loop made n + 1
# paths per call (entry to the first back edge, n - 1 iterations, the
# exit), 101 + 11; main ran twice.
bs_check_profile() {
    ok "the test suite left one profile at PATHPROF_OUT" test -s "$PROF"
    local got
    got=$(pp_json "$PROF" | perl -MJSON::PP -e '
        my $j = decode_json(join "", <STDIN>);
        my %f = map { $_->{name} => $_ } @{ $j->{functions} };
        for my $n (qw(calc_classify calc_sum main)) {
            my $f = $f{$n} or do { print "$n missing\n"; next };
            print "$n $f->{total} ", join(" ", sort { $b <=> $a } map { $_->{count} } @{ $f->{paths} }), "\n";
        }')
    is "$(printf '%s\n' "$got" | sed -n 1p)" "calc_classify 110 38 36 36" \
        "calc_classify (in the library): 38, 36 and 36 runs of its paths, both processes summed"
    like "$(printf '%s\n' "$got" | sed -n 2p)" "^calc_sum 112 " "calc_sum: 101 + 11 paths"
    like "$(printf '%s\n' "$got" | sed -n 3p)" "^main 2 " "main (the program): 2 runs"
    ok "no lock or temporary left but the lock file" \
        test -z "$(find "$T" -maxdepth 1 -name 'prof.out.tmp*')"
}
