# tests/lib/programs.sh - run one test program of tests/programs/ with and
# without pathprof and check its profile (source after tap.sh).
#
#   pp_program SRC LEVEL [verify|sanitize|pp:FLAG...] [-- EXTRA GCC FLAGS]
#
# noexpect: leave out the `//! expect` checks (another test does them).
# gcov: also build SRC with --coverage (no plugin), run it, and check every
# marker line's path count against gcov's line count (ppcheck.pl gcov).
# pp:FLAG goes to the instrumented build only, EXTRA FLAGS to both builds;
# PP_LAST_DIR is left naming the directory of the builds and profile.
#
# builds SRC plain and instrumented at LEVEL (O0, O2), runs both with the
# arguments of its `//! run` line, and checks:
#   - same stdout, stderr and exit status (instrumentation never changes
#     what a program computes), and the status its `//! status` line states;
#   - a profile was written and `pathprof report --json` reads it;
#   - the profile is well formed (tests/oracle/ppcheck.pl sanity);
#   - every `//! expect` line for LEVEL (ppcheck.pl expect);
#   - with `verify`: derived edge counts against direct ones (ppcheck.pl oracle).
# `sanitize` adds -fsanitize=address,undefined to the instrumented build.

PP_PROGRAMS=$TAP_ROOT/tests/programs
PP_ORACLE=$TAP_ROOT/tests/oracle/ppcheck.pl

# pp_tap_lines: turn ppcheck.pl output into TAP results
pp_tap_lines() {
    local line name st buf=() pending=
    while IFS= read -r line; do
        case $line in
        '# '*) buf+=("${line#\# }") ;;
        *)
            if [ -n "$pending" ]; then _pp_emit "$pending" "${buf[@]}"; fi
            buf=() pending=$line ;;
        esac
    done
    [ -n "$pending" ] && _pp_emit "$pending" "${buf[@]}"
    return 0
}
_pp_emit() {
    local l=$1; shift
    local st=${l%%$'\t'*} name=${l#*$'\t'}
    if [ "$st" = ok ]; then pass "$name"; else fail "$name" "$@"; fi
}

# pp_check CMD...: run ppcheck.pl, a crash of the checker is a failure too
pp_check() {
    local out rc
    out=$(perl "$PP_ORACLE" "$@" 2>&1); rc=$?
    pp_tap_lines <<<"$out"
    [ $rc = 0 ] || fail "ppcheck.pl $1 ran (status $rc)" "$out"
}

pp_spec() { perl "$PP_ORACLE" spec "$1" "$2"; }

# pp_program SRC LEVEL [OPTIONS...] [-- EXTRA FLAGS]
pp_program() {
    local src=$1 level=$2; shift 2
    local verify= sanitize= noexpect= gcov= extra=() ppextra=()
    while [ $# -gt 0 ]; do
        case $1 in
        verify) verify=1 ;;
        sanitize) sanitize=1 ;;
        noexpect) noexpect=1 ;;
        gcov) gcov=1 ;;
        pp:*) ppextra+=("${1#pp:}") ;;
        --) shift; extra=("$@"); break ;;
        *) BAIL_OUT "pp_program: unknown option $1" ;;
        esac
        shift
    done
    local base tag d
    base=$(basename "$src" .c)
    tag="$base -$level${verify:+ verify}${sanitize:+ asan+ubsan}${extra[*]:+ ${extra[*]}}${ppextra[*]:+ ${ppextra[*]}}"
    d=$T/$base-$level${verify:+-v}${sanitize:+-s}
    [ ${#extra[@]} -gt 0 ] || [ ${#ppextra[@]} -gt 0 ] && d=$d-$(printf '%s' "${extra[*]}${ppextra[*]}" | cksum | cut -d' ' -f1)
    PP_LAST_DIR=$d
    mkdir -p "$d"
    local args status_spec profile_opt
    args=$(pp_spec "$src" run) || args=
    status_spec=$(pp_spec "$src" status) || status_spec=
    [ -z "$status_spec" ] && status_spec=0
    if sig=$(pp_spec "$src" signal); then status_spec=$((128 + sig)); fi
    profile_opt=$(pp_spec "$src" profile) || profile_opt=
    local cflags
    cflags=$(pp_spec "$src" cflags) || cflags=

    # shellcheck disable=SC2206
    local flags=(-"$level" $cflags "${extra[@]}") ppflags=()
    [ -n "$verify" ] && ppflags+=(-fplugin-arg-pathprof-verify)
    [ -n "$sanitize" ] && ppflags+=(-fsanitize=address,undefined -fno-sanitize-recover=all)
    ppflags+=("${ppextra[@]}")

    if ! pp_cc_plain "$d/plain" "$src" "${flags[@]}"; then
        fail "$tag: builds without pathprof"; return 1
    fi
    if ! pp_cc "$d/pp" "$src" "${flags[@]}" "${ppflags[@]}"; then
        fail "$tag: builds with pathprof"; return 1
    fi
    pass "$tag: builds with and without pathprof"

    # shellcheck disable=SC2086
    { (cd "$d" && exec ./plain $args >plain.out 2>plain.err </dev/null); } 2>/dev/null; local st_plain=$?
    # PATHPROF_QUIET: the runtime's "profile written" note is not the program's output
    # shellcheck disable=SC2086
    { (cd "$d" && PATHPROF_OUT=$d/prof PATHPROF_QUIET=1 exec ./pp $args >pp.out 2>pp.err </dev/null); } 2>/dev/null
    local st_pp=$?
    is "$st_plain" "$status_spec" "$tag: plain build ends with status $status_spec"
    is "$st_pp" "$st_plain" "$tag: same exit status with pathprof"
    ok "$tag: same stdout with pathprof" diff "$d/plain.out" "$d/pp.out"
    if [ -n "$sanitize" ]; then
        # the sanitizer runtime may add nothing when no error is found
        ok "$tag: same stderr with pathprof (no sanitizer report)" diff "$d/plain.err" "$d/pp.err"
    else
        ok "$tag: same stderr with pathprof" diff "$d/plain.err" "$d/pp.err"
    fi

    if [ "$profile_opt" = none ]; then
        # docs/algorithms.md: a process that dies without running atexit
        # handlers (abort, fatal signal, _exit) writes no profile, like gcov
        ok "$tag: no profile written (the process died without exit handlers)" test ! -e "$d/prof"
        return 0
    fi
    if [ ! -e "$d/prof" ]; then
        if [ "$profile_opt" = optional ]; then
            note "$tag: no profile written (the program dies by a signal)"
            return 0
        fi
        fail "$tag: profile written to PATHPROF_OUT"; return 1
    fi
    if ! pp_json "$d/prof" >"$d/prof.json" 2>"$d/report.err"; then
        fail "$tag: pathprof report --json reads the profile" "$(cat "$d/report.err")"; return 1
    fi
    pass "$tag: profile written and read by pathprof report --json"
    local meta=()
    if perl "$TAP_ROOT/tests/oracle/ppdecode.pl" "$d/prof" >"$d/decoded.json" 2>"$d/decode.err"; then
        meta=(--meta "$d/decoded.json")
        [ "${PP_DECODER:-}" = perl ] || pp_check decode "$d/prof.json" "$d/decoded.json" "$tag: "
    else
        fail "$tag: tests/oracle/ppdecode.pl reads the profile (docs/format.md)" "$(cat "$d/decode.err")"
    fi
    pp_check sanity "$d/prof.json" "$tag: "
    if [ "$profile_opt" = optional ]; then
        note "$tag: a profile was written although the program died by a signal"
    fi
    [ -z "$noexpect" ] && pp_check "${meta[@]}" expect "$src" "$d/prof.json" "$level" "$tag: "
    [ -n "$verify" ] && pp_check "${meta[@]}" oracle "$src" "$d/prof.json" "$tag: "
    [ -n "$gcov" ] && pp_gcov "$src" "$level" "$d" "$tag" "${meta[@]}" -- "${flags[@]}"
    return 0
}

# pp_gcov SRC LEVEL DIR TAG [--meta DECODED] -- FLAGS: GCC's own coverage
# counts as an oracle for the marker lines of SRC's profile in DIR
pp_gcov() {
    local src=$1 level=$2 d=$3 tag=$4; shift 4
    local meta=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do meta+=("$1"); shift; done
    shift
    local base args
    base=$(basename "$src" .c)
    args=$(pp_spec "$src" run) || args=
    mkdir -p "$d/cov"
    cp "$src" "$d/cov/$base.c"
    if ! (cd "$d/cov" && "$PP_GCC" -g "$@" --coverage -fprofile-update=atomic "$base.c" -o cov >cc.log 2>&1); then
        fail "$tag: --coverage build" "$(cat "$d/cov/cc.log")"; return 1
    fi
    # shellcheck disable=SC2086
    { (cd "$d/cov" && exec ./cov $args >/dev/null 2>&1 </dev/null); } 2>/dev/null
    if ! (cd "$d/cov" && gcov -t -j "cov-$base.gcda" >gcov.json 2>gcov.err); then
        fail "$tag: gcov reads the coverage data" "$(cat "$d/cov/gcov.err")"; return 1
    fi
    pp_check "${meta[@]}" gcov "$src" "$d/prof.json" "$d/cov/gcov.json" "$tag gcov: "
}
