#!/usr/bin/env bash
# TPP with a pathprof profile as its edge profile (edge-profile=FILE,
# docs/tpp.md): the edge counts are the path counts of a plain Ball-Larus
# profile summed along each path's edges.
#  - Same CFG, same training input: built with -fprofile-use and
#    edge-profile=(BLPP profile of the -fprofile-use build on the training
#    input), TPP must number exactly as TPP built from GCC's own counts,
#    and count the same on the training input and on another one: both
#    edge profiles are exact.
#  - The plain pipeline (no -fprofile-use anywhere): on the training input
#    and another, tests/oracle/tppcheck.pl checks every path against the
#    BLPP profile of the same run (a measured path has its BLPP count, a
#    derived one its defining edge's flow, the cold counter the flow of the
#    paths TPP does not number).
#  - A function changed since the profile is refused, naming it and its
#    file; a function the profile lacks is plain Ball-Larus, flagged;
#    a TPP profile, an unreadable file and edge-profile without tpp are
#    refused.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/tpp/lib.sh"
pp_require_build
pp_flags
SRC=$TAP_ROOT/tests/tpp/branches.c
# numbering JSON: per function its numbering and counts, the source aside
numbering() {
    perl -MJSON::PP -0ne 'for my $f (sort { $a->{name} cmp $b->{name} } @{decode_json($_)->{functions}}) {
        my $t = $f->{tpp} or die "$f->{name}: no tpp\n";
        print "$f->{name} $f->{checksum} npaths $f->{npaths} edge_profile ", ($t->{edge_profile} ? 1 : 0),
              " cold $t->{cold} derived ", join(",", map { "$_->{id}:$_->{edge}" } @{$t->{derived_list}}),
              " truncated ", scalar @{$t->{truncated}}, "\n";
        print "  $_->{id} $_->{count}\n" for sort { $a->{id} <=> $b->{id} } @{$f->{paths}};
    }' "$1"
}
source_of() { jget "$1" '$j->{tpp}{edge_source}'; }

for level in O0 O2; do
    d=$T/$level
    mkdir -p "$d" && cp "$SRC" "$d/prog.c"
    if ! tpp_train "$d" -"$level"; then
        fail "-$level: training run with -fprofile-generate" "$(cat "$d/gen.log")"; continue
    fi
    # Same CFG: every build reads the .gcda (it changes the CFG at -O2).
    ok "-$level: BLPP with -fprofile-use builds and profiles the training input" \
        eval 'tpp_build "$d" blppu -"$level" -fprofile-use $_pp_cflags && tpp_run_json "$d" blppu train'
    for cfg in 5,0 10,10 5,15; do
        n=${cfg/,/-}
        ok "-$level TPP($cfg): builds from GCC's counts and from the BLPP profile" \
            eval 'tpp_build "$d" gcc$n -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=$cfg &&
                  tpp_build "$d" pp$n -"$level" -fprofile-use $_pp_cflags -fplugin-arg-pathprof-tpp=$cfg \
                      -fplugin-arg-pathprof-edge-profile="$d/blppu-train.prof"'
        for in in train other; do
            tpp_run_json "$d" "gcc$n" "$in" && tpp_run_json "$d" "pp$n" "$in" ||
                fail "-$level TPP($cfg) $in: runs and its profiles read"
            is "$(numbering "$d/pp$n-$in.json")" "$(numbering "$d/gcc$n-$in.json")" \
                "-$level TPP($cfg) $in: numbering, cold counters, derived paths and counts equal GCC-sourced TPP's"
        done
        is "$(source_of "$d/pp$n-other.json") $(source_of "$d/gcc$n-other.json")" "pathprof gcc" \
            "-$level TPP($cfg): the profiles name their edge source"
    done
    ok "-$level: report names the pathprof source" \
        grep -q '^tpp        TPP(5, 0), edge profile from an earlier pathprof profile' \
        <("$PP_CLI" report "$d/pp5-0-other.prof")

    # The plain pipeline: no .gcda at all.
    p=$d/plain
    mkdir -p "$p" && cp "$SRC" "$p/prog.c"
    ok "-$level plain: BLPP builds, profiles training, TPP(5, 0) and TPP(5, 15) build from it" \
        eval 'tpp_build "$p" blpp -"$level" $_pp_cflags && tpp_run_json "$p" blpp train &&
              mv "$p/blpp-train.prof" "$p/edges.prof" &&
              tpp_build "$p" tpp -"$level" $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 \
                  -fplugin-arg-pathprof-edge-profile="$p/edges.prof" &&
              tpp_build "$p" tppj -"$level" $_pp_cflags -fplugin-arg-pathprof-tpp=5,15 \
                  -fplugin-arg-pathprof-edge-profile="$p/edges.prof"'
    for in in train other; do
        tpp_run_json "$p" blpp "$in" || fail "-$level plain blpp $in: runs"
        for b in tpp tppj; do
            if ! tpp_run_json "$p" "$b" "$in"; then
                fail "-$level plain $b $in: runs and its profile reads"; continue
            fi
            ok "-$level plain $b $in: same output as BLPP" diff "$p/blpp-$in.out" "$p/$b-$in.out"
            tpp_check "-$level plain $b $in" "$p/$b-$in.json" "$p/blpp-$in.json"
        done
    done
    ok "-$level plain: every function has an edge profile" \
        perl -MJSON::PP -0ne 'my @f = @{decode_json($_)->{functions}}; exit !(@f && !grep { !$_->{tpp}{edge_profile} } @f)' \
        "$p/tpp-other.json"
done

# Refusals, on the -O0 plain pipeline's profile.
p=$T/O0/plain
# refused WANT ARG...: the plugin arguments ARG... stop the compilation of
# DIR/prog.c with WANT in the message
refused() {
    local want=$1 log st; shift
    # shellcheck disable=SC2086
    log=$(cd "$p" && "$PP_GCC" -O0 $_pp_cflags "${@/#/-fplugin-arg-pathprof-}" -c prog.c -o bad.o 2>&1)
    st=$?
    if [ $st -ne 0 ] && grep -qF -- "$want" <<<"$log"; then pass "$* refused ($want)"
    else fail "$* refused with '$want'" "$log"; fi
}
cp "$p/prog.c" "$p/prog.c.orig"
# classify gets one more branch: its CFG, and so its checksum, changes.
perl -0pi -e 's/(static int classify\(int x, int rare\)\n\{\n)/$1    if (x == -12345)\n        return 7;\n/' "$p/prog.c"
ok "changed source: classify really changed" eval '! cmp -s "$p/prog.c" "$p/prog.c.orig"'
refused "function 'classify' of prog.c changed since $p/edges.prof was profiled" tpp=5,0 edge-profile="$p/edges.prof"
cp "$p/prog.c.orig" "$p/prog.c"
refused "$p/missing.prof (plugin argument 'edge-profile')" tpp=5,0 edge-profile="$p/missing.prof"
head -c 100 "$p/edges.prof" >"$p/short.prof"
refused "$p/short.prof (plugin argument 'edge-profile')" tpp=5,0 edge-profile="$p/short.prof"
refused "function 'classify' of prog.c cannot take its edge counts from $p/tpp-train.prof: it was built with tpp" \
    tpp=5,0 edge-profile="$p/tpp-train.prof"
refused "plugin argument 'edge-profile' is the edge profile of 'tpp'" edge-profile="$p/edges.prof"
refused "plugin argument 'edge-profile' needs a file" tpp=5,0 edge-profile=

# A function absent from the profile: plain Ball-Larus, flagged.
ok "a profile without classify (exclude=classify) builds and runs" \
    eval 'tpp_build "$p" blppx -O0 $_pp_cflags -fplugin-arg-pathprof-exclude=classify && tpp_run_json "$p" blppx train &&
          tpp_build "$p" tppx -O0 $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 \
              -fplugin-arg-pathprof-edge-profile="$p/blppx-train.prof" && tpp_run_json "$p" tppx other'
is "$(perl -MJSON::PP -0ne 'print join " ", map { "$_->{name}=" . ($_->{tpp}{edge_profile} ? 1 : 0) } sort { $a->{name} cmp $b->{name} } @{decode_json($_)->{functions}}' "$p/tppx-other.json")" \
   "classify=0 early=1 main=1 never_in_training=1 once=1 pick=1 rec=1" "absent function: tpp-no-edge-profile, the others from the profile"

# A header's static function compiled into two TUs with other code in each
# (tests/tpp/inline.h's mix): the profile has an entry per copy, both of
# the same name and file, and each TU must take its own copy's counts (the
# one with its checksum), not the first of that name: before, inline-b.c's
# build was refused as "changed since profiled".
h=$T/copies
mkdir -p "$h" && cp "$TAP_ROOT"/tests/tpp/inline* "$h/"
ok "two TUs: BLPP builds and profiles training, TPP(5, 0) builds from it" \
    eval 'TPP_SOURCES="inline-a.c inline-b.c" tpp_build "$h" blpp -O2 $_pp_cflags && tpp_run_json "$h" blpp train &&
          TPP_SOURCES="inline-a.c inline-b.c" tpp_build "$h" tpp -O2 $_pp_cflags -fplugin-arg-pathprof-tpp=5,0 \
              -fplugin-arg-pathprof-edge-profile="$h/blpp-train.prof"' "$(cat "$h"/*.log 2>/dev/null)"
is "$(jget "$h/blpp-train.json" 'scalar grep { $_->{name} eq "mix" } @{$j->{functions}}')" 2 \
    "two TUs: the edge profile has two copies of mix"
for in in train other; do
    tpp_run_json "$h" blpp "$in" && tpp_run_json "$h" tpp "$in" || fail "two TUs $in: runs"
    ok "two TUs $in: same output as BLPP" diff "$h/blpp-$in.out" "$h/tpp-$in.out"
    # each copy's total against BLPP's copy with the same declaration line
    # and blocks' lines (what tells the copies apart: perfctl/lib/tpp-stats.pl)
    is "$(jget "$h/tpp-$in.json" 'join " ", map { "$_->{name}:" . ($_->{tpp}{edge_profile} ? 1 : 0) . ":$_->{total}" } sort { $a->{name} cmp $b->{name} || $a->{total} <=> $b->{total} } @{$j->{functions}}')" \
        "$(jget "$h/blpp-$in.json" 'join " ", map { "$_->{name}:1:$_->{total}" } sort { $a->{name} cmp $b->{name} || $a->{total} <=> $b->{total} } @{$j->{functions}}')" \
        "two TUs $in: every copy has its edge profile and BLPP's total"
    tpp_check "two TUs $in" "$h/tpp-$in.json" "$h/blpp-$in.json"
done
done_testing
