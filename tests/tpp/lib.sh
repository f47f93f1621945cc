# shellcheck shell=bash
# tests/tpp/lib.sh - what the TPP tests (tests/tpp*.t) share: the
# two-stage build TPP is made for (a -fprofile-generate run on the training
# input, then builds with -fprofile-use, with and without the plugin), a
# build's run into its `report --json`, and tests/oracle/tppcheck.pl as
# TAP. Source after tests/lib/tap.sh and tests/lib/programs.sh, then call
# pp_flags. A test directory DIR holds the program's sources:
# TPP_SOURCES (default prog.c), compiled with TPP_CC (default PP_GCC);
# both may be set for one call (TPP_CC=g++ TPP_SOURCES=prog.cc tpp_build ...).

TPPCHECK=$TAP_ROOT/tests/oracle/tppcheck.pl

# tpp_objects: the objects of TPP_SOURCES, as gcc -c names them
tpp_objects() { sed 's/\.[a-z]*\( \|$\)/.o\1/g' <<<"${TPP_SOURCES:-prog.c}"; }

# tpp_train DIR [GCC FLAGS...]: DIR's sources built with -fprofile-generate
# into DIR/gen and run on the training input, leaving their .gcda in DIR;
# the log in DIR/gen.log. The test build's sanitizer flags come too: they
# change the control flow, and -fprofile-use refuses a CFG other than the
# training run's.
tpp_train() {
    local d=$1; shift
    # Under TSan, GCC's own time-profiler counters (__gcov7.*) race in a
    # threaded program: GCC's, not ours, told to TSan.  (Built without the
    # sanitizer instead, its .gcda would not match the -fprofile-use build.)
    local supp=
    if [ "${PP_SANITIZE:-}" = thread ]; then
        echo "race:__gcov7." >"$d/gcov.supp"
        supp="${TSAN_OPTIONS:-}${TSAN_OPTIONS:+:}suppressions=$d/gcov.supp"
    fi
    # shellcheck disable=SC2046,SC2086
    (cd "$d" && "${TPP_CC:-$PP_GCC}" "$@" -fprofile-generate ${PP_SAN_CFLAGS:-} -c ${TPP_SOURCES:-prog.c} &&
        "${TPP_CC:-$PP_GCC}" "$@" -fprofile-generate ${PP_SAN_CFLAGS:-} $(tpp_objects) -o gen &&
        if [ -n "$supp" ]; then TSAN_OPTIONS=$supp ./gen train; else ./gen train; fi >/dev/null) >"$d/gen.log" 2>&1
}

# tpp_build DIR NAME [GCC FLAGS...]: DIR's sources into DIR/NAME (reading
# their .gcda with -fprofile-use); the log in DIR/NAME.log
tpp_build() {
    local d=$1 name=$2; shift 2
    # shellcheck disable=SC2046,SC2086
    (cd "$d" && "${TPP_CC:-$PP_GCC}" -g "$@" -c ${TPP_SOURCES:-prog.c} &&
        "${TPP_CC:-$PP_GCC}" $(tpp_objects) -o "$name" $_pp_libs) >"$d/$name.log" 2>&1
}

# tpp_run_json DIR BIN INPUT [VAR=VALUE...]: DIR/BIN on INPUT (its output in
# DIR/BIN-INPUT.out), its profile DIR/BIN-INPUT.prof and the profile's
# report --json, DIR/BIN-INPUT.json
tpp_run_json() {
    local d=$1 bin=$2 in=$3; shift 3
    (cd "$d" && env PATHPROF_OUT="$d/$bin-$in.prof" PATHPROF_QUIET=1 "$@" "./$bin" "$in" >"$bin-$in.out") &&
        pp_json "$d/$bin-$in.prof" >"$d/$bin-$in.json"
}

# jget JSON EXPR: EXPR, Perl over $j, the decoded document
jget() { perl -MJSON::PP -0ne "my \$j = decode_json(\$_); print $2" "$1"; }

# tpp_check LABEL TPP.json BLPP.json: tests/oracle/tppcheck.pl's checks as
# TAP, each named after LABEL; its whole output left in tpp_check_out
tpp_check() {
    tpp_check_out=$(perl "$TPPCHECK" "$2" "$3" 2>&1)
    pp_tap_lines <<<"$(sed "s/\t/\t$1: /" <<<"$tpp_check_out")"
}
