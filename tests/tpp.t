#!/usr/bin/env bash
# Targeted path profiling (docs/tpp.md) against plain Ball-Larus, in the
# two-stage build it is made for: a -fprofile-generate run on the training
# input, then builds with -fprofile-use, with and without tpp=I,J.
# tests/oracle/tppcheck.pl compares each TPP profile with the BLPP profile
# of the same run, path for path: a counted path has its BLPP count, the
# cold counter holds exactly the flow of the BLPP paths TPP does not
# count, an obvious path's count is its defining edge's (every path that
# crosses it). Run on the training input and on one that takes the cold
# edges often; with loop disconnection (J > 0) BLPP's paths are first split
# where TPP's are. Program output must not change.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/tpp/lib.sh"
pp_require_build
pp_flags
declare -A derived
SRC=$TAP_ROOT/tests/tpp/branches.c

# cold JSON: the profile's cold flow, from the top-level "tpp" object
cold_of() { jget "$1" '$j->{tpp}{cold}'; }
npaths_of() { perl -MJSON::PP -0ne 'my $s = 0; $s += $_->{npaths} for @{decode_json($_)->{functions}}; print $s' "$1"; }

for level in O0 O2; do
    d=$T/$level
    mkdir -p "$d" && cp "$SRC" "$d/prog.c"
    # Every build of one level takes the sanitizer flags of the test build
    # (PP_SAN_CFLAGS, in _pp_cflags too; tpp_train's too).
    if ! tpp_train "$d" -"$level"; then
        fail "-$level: training run with -fprofile-generate" "$(cat "$d/gen.log")"; continue
    fi
    ok "-$level: builds with -fprofile-use: plain, BLPP, TPP(5, 0) with and without obvious paths, TPP(0, 0), TPP(5, 0) hashed, TPP(5, 15), TPP(10, 10)" \
        eval 'tpp_build "$d" plain -"$level" -fprofile-use ${PP_SAN_CFLAGS:-} &&
              tpp_build "$d" blpp -"$level" -fprofile-use $_pp_cflags &&
              tpp_build "$d" tpp -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 &&
              tpp_build "$d" tppn -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 \
                  -fplugin-arg-pathprof-tpp-obvious=0 &&
              tpp_build "$d" tpp0 -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=0,0 &&
              tpp_build "$d" tpph -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 \
                  -fplugin-arg-pathprof-hash-threshold=1 &&
              tpp_build "$d" tppj -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=5,15 &&
              tpp_build "$d" tppk -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=10,10'
    for in in train other; do
        (cd "$d" && ./plain "$in" >"plain-$in.out")
        for b in blpp tpp tppn tpp0 tpph tppj tppk; do
            if ! tpp_run_json "$d" "$b" "$in"; then
                fail "-$level $b $in: runs and its profile reads"; continue
            fi
            ok "-$level $b $in: same output as the plain build" diff "$d/plain-$in.out" "$d/$b-$in.out"
        done
        for b in tpp tppn tpp0 tpph tppj tppk; do
            tpp_check "-$level $b $in" "$d/$b-$in.json" "$d/blpp-$in.json"
            derived[$b]=$(sed -n 's/^# derived_functions //p' <<<"$tpp_check_out")
        done
        ok "-$level $in: TPP(5, 0) derives obvious paths in some function (${derived[tpp]})" test "${derived[tpp]:-0}" -gt 0
        is "${derived[tppn]}" 0 "-$level $in: tpp-obvious=0 derives none"
        is "$(cold_of "$d/tpp0-$in.json")" 0 "-$level $in: TPP(0, 0) has no cold flow"
    done
    ctrain=$(cold_of "$d/tpp-train.json") cother=$(cold_of "$d/tpp-other.json")
    ok "-$level: the other input sends more flow through cold edges ($cother) than training ($ctrain)" \
        test "$cother" -gt "$ctrain"
    ok "-$level: TPP(5, 15) disconnects a loop (its entry and exit edges end paths)" \
        perl -MJSON::PP -0ne 'exit !grep { $_->{tpp} && @{ $_->{tpp}{truncated} } } @{decode_json($_)->{functions}}' "$d/tppj-train.json"
    tp=$(npaths_of "$d/tpp-train.json") bp=$(npaths_of "$d/blpp-train.json")
    ok "-$level: TPP(5, 0) numbers fewer paths than BLPP ($tp + cold counters vs $bp)" test "$tp" -lt "$bp"
    is "$(npaths_of "$d/tpp0-train.json")" "$bp" "-$level: TPP(0, 0) numbers as many paths as BLPP"
    colds() { perl -MJSON::PP -0ne 'for (@{decode_json($_)->{functions}}) { print "$_->{name} $_->{npaths} ", ($_->{tpp} ? $_->{tpp}{cold} : $_->{cold}), "\n" }'; }
    is "$(perl "$TAP_ROOT/tests/oracle/ppdecode.pl" "$d/tpp-other.prof" | colds)" "$(colds <"$d/tpp-other.json")" \
        "-$level: tests/oracle/ppdecode.pl (docs/format.md alone) reads the same hot paths and cold counters"
    ok "-$level: report names the configuration" \
        grep -q '^tpp        TPP(5, 0)' <("$PP_CLI" report "$d/tpp-other.prof")
done

# C++ exceptions: cold EH edges, paths thrown into a landing pad.
d=$T/eh
mkdir -p "$d" && cp "$TAP_ROOT/tests/tpp/throws.cc" "$d/prog.cc"
if TPP_CC=g++ TPP_SOURCES=prog.cc tpp_train "$d" -O2; then
    ehbuild() { TPP_CC=g++ TPP_SOURCES=prog.cc tpp_build "$d" "$1" -O2 -fprofile-use "${@:2}"; }
    ok "C++: builds with -fprofile-use: plain, BLPP, TPP(5, 0), TPP(5, 15)" \
        eval 'ehbuild plain ${PP_SAN_CFLAGS:-} && ehbuild blpp $_pp_cflags &&
              ehbuild tpp $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 &&
              ehbuild tppj $_pp_cflags -fplugin-arg-pathprof-tpp=5,15'
    for in in train other; do
        (cd "$d" && ./plain "$in" >"plain-$in.out")
        for b in blpp tpp tppj; do
            tpp_run_json "$d" "$b" "$in" || fail "C++ $b $in: runs and its profile reads"
            ok "C++ $b $in: same output as the plain build" diff "$d/plain-$in.out" "$d/$b-$in.out"
        done
        for b in tpp tppj; do
            tpp_check "C++ $b $in" "$d/$b-$in.json" "$d/blpp-$in.json"
        done
    done
    ok "C++: throwing on every third call sends flow through cold edges" test "$(cold_of "$d/tpp-other.json")" -gt 0
else
    fail "C++: training run with -fprofile-generate" "$(cat "$d/gen.log")"
fi

# Without an edge profile: plain Ball-Larus paths, and the profile says so.
d=$T/noprofile
mkdir -p "$d" && cp "$SRC" "$d/prog.c"
ok "no -fprofile-use: builds" eval 'tpp_build "$d" blpp -O2 $_pp_cflags &&
    tpp_build "$d" tpp -O2 $_pp_cflags -fplugin-arg-pathprof-tpp=5,0'
tpp_run_json "$d" blpp other && tpp_run_json "$d" tpp other
paths_of() { perl -MJSON::PP -0ne 'for my $f (@{decode_json($_)->{functions}}) { print "$f->{name} $_->{id} $_->{count}\n" for @{$f->{paths}} }' "$1"; }
is "$(paths_of "$d/tpp-other.json")" "$(paths_of "$d/blpp-other.json")" \
    "no edge profile: the same path counts as BLPP"
ok "no edge profile: every function flagged tpp-no-edge-profile" \
    perl -MJSON::PP -0ne 'my @f = @{decode_json($_)->{functions}}; exit !(@f && !grep { !$_->{tpp} || $_->{tpp}{edge_profile} } @f)' "$d/tpp-other.json"
ok "no edge profile: report says plain Ball-Larus" \
    grep -q 'without an edge profile (plain Ball-Larus)' <("$PP_CLI" report "$d/tpp-other.prof")

# Bad values stop the compilation with a message naming the argument.
# bad WANT ARG...: the plugin arguments ARG... stop the compilation with WANT
bad() {
    local want=$1 log st; shift
    # shellcheck disable=SC2086
    log=$("$PP_GCC" $_pp_cflags "${@/#/-fplugin-arg-pathprof-}" -c "$SRC" -o "$T/bad.o" 2>&1)
    st=$?
    if [ $st -ne 0 ] && grep -qF -- "$want" <<<"$log"; then pass "$* refused"
    else fail "$* refused with '$want'" "$log"; fi
}
bad "bad value '' for plugin argument 'tpp'" tpp
bad "bad value '5' for plugin argument 'tpp'" tpp=5
bad "bad value '101,0'" tpp=101,0
bad "bad value 'a,0'" tpp=a,0
bad "bad value '5,-1'" tpp=5,-1
bad "bad value '5,101'" tpp=5,101
done_testing
