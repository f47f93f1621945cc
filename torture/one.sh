#!/bin/bash
# Compiles and runs one torture test at one -O level, natively and, if that
# passes, with the pathprof plugin. Prints one line:
#   NAME -OLEVEL NATIVE PLUGIN
# NATIVE: pass | compile-fail | exit=N | timeout
# PLUGIN: pass | ice | compile-error | link-error | exit=N | timeout |
#         report-error | not-run (native did not pass) | same-as-* (the
#         TORTURE_SAME_AS build failed, or its profile differs)
# Needs TORTURE_SRC, TORTURE_WORK, PP_CFLAGS, PP_LIBS (see torture/run.sh);
# PATHPROF_CLI, if set, must read back every profile written.
# TORTURE_CFLAGS (a sanitizer suite's) go to both builds, so that a test
# whose own undefined behaviour a sanitizer reports fails natively too and
# is not held against the plugin; the native run's reports go to its
# run.log, not to the suite's report files (they are GCC's tests' own).
# Usage: torture/one.sh OLEVEL NAME [EXTRA_OPTION ...]
set -u
olevel=$1 name=$2
shift 2
src=$TORTURE_SRC/$name.c
work=$TORTURE_WORK/$name-O$olevel
run_timeout=${TORTURE_RUN_TIMEOUT:-20}
cc_timeout=${TORTURE_CC_TIMEOUT:-300}
rm -rf "$work"
mkdir -p "$work/native" "$work/plugin"

# compile DIR EXTRA_FLAGS EXTRA_LIBS: 0 ok, 1 compile error, 2 ICE, 3 link error, 4 timeout
compile() {
    local dir=$1 flags=$2 libs=$3 rc
    shift 3
    # shellcheck disable=SC2086
    (cd "$dir" && timeout "$cc_timeout" gcc -w -O"$olevel" $flags "$@" \
        -c "$src" -o t.o) >"$dir/cc.log" 2>&1
    rc=$?
    if [ $rc = 124 ]; then return 4; fi
    if grep -q -E 'internal compiler error|during [A-Z]+ pass|Please submit a full bug report' "$dir/cc.log"; then
        return 2
    fi
    [ $rc = 0 ] || return 1
    # shellcheck disable=SC2086
    (cd "$dir" && gcc -O"$olevel" t.o -o t $libs ${TORTURE_CFLAGS:-} -lm) >>"$dir/cc.log" 2>&1 || return 3
    return 0
}

# execute DIR: prints pass | exit=N | timeout
execute() {
    local dir=$1 rc
    (cd "$dir" && PATHPROF_OUT="$PWD/pathprof.out" timeout "$run_timeout" ./t \
        </dev/null >run.log 2>&1)
    rc=$?
    case $rc in
        0) echo pass ;;
        124) echo timeout ;;
        *) echo "exit=$rc" ;;
    esac
}

native=pass
compile "$work/native" "${TORTURE_CFLAGS:-}" "" "$@"
case $? in
    0) native=$(for v in ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
           [ -n "${!v:-}" ] && export "$v=${!v}:log_path=stderr"; done
       execute "$work/native") ;;
    4) native=timeout ;;
    *) native=compile-fail ;;
esac
if [ "$native" != pass ]; then
    echo "$name -O$olevel $native not-run"
    rm -rf "$work"
    exit 0
fi

plugin=pass
compile "$work/plugin" "$PP_CFLAGS ${TORTURE_CFLAGS:-}" "$PP_LIBS" "$@"
case $? in
    0) plugin=$(execute "$work/plugin") ;;
    1) plugin=compile-error ;;
    2) plugin=ice ;;
    3) plugin=link-error ;;
    4) plugin=compile-timeout ;;
esac
if [ "$plugin" = pass ] && [ -n "${PATHPROF_CLI:-}" ] && [ -f "$work/plugin/pathprof.out" ]; then
    if ! "$PATHPROF_CLI" report "$work/plugin/pathprof.out" >"$work/plugin/report.log" 2>&1; then
        plugin=report-error
    fi
fi
# TORTURE_SAME_AS (torture/run.sh --same-as): a second plugin build with
# these flags too must write the same profile, path for path.
if [ "$plugin" = pass ] && [ -n "${TORTURE_SAME_AS:-}" ] && [ -f "$work/plugin/pathprof.out" ]; then
    mkdir -p "$work/same"
    compile "$work/same" "$PP_CFLAGS $TORTURE_SAME_AS ${TORTURE_CFLAGS:-}" "$PP_LIBS" "$@"
    case $? in
        0) same=$(execute "$work/same")
           if [ "$same" != pass ]; then plugin="same-as-$same"
           elif ! "$PATHPROF_CLI" report --json "$work/plugin/pathprof.out" >"$work/plugin/prof.json" 2>"$work/plugin/json.log" ||
                ! "$PATHPROF_CLI" report --json "$work/same/pathprof.out" >"$work/same/prof.json" 2>"$work/same/json.log"; then
               plugin=same-as-report-error
           elif ! perl "$TORTURE_ROOT/tests/oracle/samepaths.pl" "$work/plugin/prof.json" "$work/same/prof.json" >"$work/same/diff.log" 2>&1; then
               plugin=same-as-profile-differs
           fi ;;
        *) plugin=same-as-build-error ;;
    esac
fi
echo "$name -O$olevel $native $plugin"
# Keep the evidence of failures only.
[ "$plugin" = pass ] && rm -rf "$work"
exit 0
