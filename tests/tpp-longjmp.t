#!/usr/bin/env bash
# TPP's derived counts when a callee longjmps out of the function after
# the defining edge (tests/tpp/longjmp.c; dash's evaltree in
# perfctl/robustness: an error in `command eval` longjmps out of it). A
# derived count is the number of times its defining edge ran
# (docs/tpp.md), so it counts the activations abandoned after the edge,
# whose Ball-Larus path never completes: it is the BLPP count of the
# paths crossing the edge plus those abandonments. The program's own
# branch counters are the oracle. tests/oracle/tppcheck.pl then takes the
# edge's count from the BLPP profile's verify edges (a `verify` build, the
# plugin's direct edge counters) when it has them: with them it passes,
# without them (the crossing paths' sum) it reports the difference.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/tpp/lib.sh"
pp_require_build
pp_flags

# paths_of JSON FUNCTION: "ID:COUNT[:d]" per path, d for a derived one
paths_of() {
    jget "$1" "join ' ', map { my \$f = \$_; map { \"\$_->{id}:\$_->{count}\" . (\$_->{derived_from} ? ':d' : '') }
        sort { \$a->{id} <=> \$b->{id} } @{\$f->{paths}} } grep { \$_->{name} eq '$2' } @{\$j->{functions}}"
}
# count_of JSON FUNCTION BLOCK: the count of FUNCTION's paths through BLOCK
count_of() {
    jget "$1" "my \$s = 0; for my \$f (grep { \$_->{name} eq '$2' } @{\$j->{functions}}) {
        \$s += \$_->{count} for grep { my \$p = \$_; grep { \$_ == $3 } @{\$p->{blocks}} } @{\$f->{paths}} } \$s"
}

for level in O0 O2; do
    d=$T/$level
    mkdir -p "$d" && cp "$TAP_ROOT/tests/tpp/longjmp.c" "$d/prog.c"
    if ! tpp_train "$d" -"$level"; then
        fail "-$level: training run with -fprofile-generate" "$(cat "$d/gen.log")"; continue
    fi
    if ! tpp_build "$d" blpp -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-max-paths=2^61 ||
        ! tpp_build "$d" blppv -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-max-paths=2^61 -fplugin-arg-pathprof-verify ||
        ! tpp_build "$d" tpp -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-max-paths=2^61 -fplugin-arg-pathprof-tpp=5,5; then
        fail "-$level: the BLPP, BLPP verify and TPP(5, 5) builds" "$(cat "$d"/*.log)"; continue
    fi
    for b in blpp blppv tpp; do tpp_run_json "$d" "$b" other || fail "-$level $b: runs, its profile reads"; done
    read -r _ then_runs then_bails < <(grep '^then' "$d/tpp-other.out")
    read -r _ else_runs else_bails < <(grep '^else' "$d/tpp-other.out")
    is "$(cat "$d/blpp-other.out")" "$(cat "$d/tpp-other.out")" "-$level: the builds print the same"
    ok "-$level: the run bailed out on both branches ($then_bails, $else_bails)" \
        test "$then_bails" -gt 0 -a "$else_bails" -gt 0
    # both of step's paths are derived, each counts its branch's runs
    like "$(paths_of "$d/tpp-other.json" step)" "^[0-9]+:[0-9]+:d [0-9]+:[0-9]+:d$" \
        "-$level: TPP derives both of step's paths"
    is "$(paths_of "$d/tpp-other.json" step | tr ' :' '\n\n' | grep -v d | sed -n '2p;4p' | sort -n | tr '\n' ' ')" \
        "$(printf '%s\n' "$then_runs" "$else_runs" | sort -n | tr '\n' ' ')" \
        "-$level: each derived count is its branch's runs, the bailed-out ones included (the edge ran)"
    is "$(paths_of "$d/blpp-other.json" step | tr ' :' '\n\n' | sed -n '2p;4p' | sort -n | tr '\n' ' ')" \
        "$(printf '%s\n' $((then_runs - then_bails)) $((else_runs - else_bails)) | sort -n | tr '\n' ' ')" \
        "-$level: BLPP counts the completed paths only"
    tpp_check "-$level with verify edges" "$d/tpp-other.json" "$d/blppv-other.json"
    perl "$TPPCHECK" "$d/tpp-other.json" "$d/blpp-other.json" >"$d/check-plain.out" 2>&1
    like "$(grep -A3 '^not ok.*step' "$d/check-plain.out")" \
        "derived path [0-9]+ \\(edge [0-9]+->[0-9]+\\): TPP [0-9]+, want [0-9]+" \
        "-$level without verify edges: tppcheck reports the abandoned activations as a difference"
done
done_testing
