#!/usr/bin/env bash
# sampling=yes on a C++ function whose try has typed catch clauses (a
# GIMPLE_EH_DISPATCH): GCC cannot take a copy of that dispatch (it broke
# with an internal compiler error on yaml-cpp's emitfromevents.cpp), so
# the function gets no checking copy and every path of it is counted, as
# for setjmp. Oracle: the plain build's output and the counting-mode
# profile (PATHPROF_SAMPLE=1/1 = count, path for path).
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
command -v g++ >/dev/null || plan skip_all "no g++"
SRC=$TAP_ROOT/tests/cxx/eh-dispatch.cc
N=3000
# sampled PROFILE NAME: whether NAME has a checking copy ("yes"/"no")
sampled() {
    pp_json "$1" | perl -MJSON::PP -e '
        my $d = decode_json(join "", <STDIN>);
        # the build flag: at 1/1 "sampled" (burst counts) is false
        for my $f (@{$d->{functions}}) { print((grep { $_ eq "sampled" } @{ $f->{flags} }) ? "yes" : "no") if $f->{name} eq $ARGV[0] }' "$2"
}

PP_GCC=g++ pp_cc_plain "$T/plain" "$SRC" -O2 || fail "plain build"
"$T/plain" $N >"$T/plain.out"
for level in O0 O2; do
    if ! PP_GCC=g++ pp_cc "$T/s-$level" "$SRC" -"$level" -fplugin-arg-pathprof-sampling=yes -fplugin-arg-pathprof-verbose; then
        fail "$level: sampling=yes builds (no ICE)"; continue
    fi
    pass "$level: sampling=yes builds (no ICE)"
    like "$(cat "$T/s-$level.log")" "'?main'? has no checking copy, every path of it is counted \\(exactly\\): it dispatches exceptions to typed catch clauses" \
        "$level: verbose says why main has no checking copy"
    PP_GCC=g++ pp_cc "$T/c-$level" "$SRC" -"$level" || fail "$level: count build"
    PATHPROF_SAMPLE=1/1 pp_run "$T/s-$level.pp" "$T/s-$level" $N
    pp_run "$T/c-$level.pp" "$T/c-$level" $N
    is "$(cat "$T/s-$level.pp.stdout")" "$(cat "$T/plain.out")" "$level: sampled output = plain"
    is "$(pp_path_counts "$T/s-$level.pp")" "$(pp_path_counts "$T/c-$level.pp")" "$level: PATHPROF_SAMPLE=1/1 = count, path for path"
    is "$(sampled "$T/s-$level.pp" work)" yes "$level: work (no catch) keeps its checking copy"
    PATHPROF_SAMPLE=1/1000 pp_run "$T/t-$level.pp" "$T/s-$level" $N
    is "$(cat "$T/t-$level.pp.stdout")" "$(cat "$T/plain.out")" "$level: 1/1000 output = plain"
done
done_testing
