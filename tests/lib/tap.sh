# tests/lib/tap.sh - a small TAP producer for pathprof's tests (bash).
#
#   #!/usr/bin/env bash
#   . "$(dirname "$0")/lib/tap.sh"
#   pp_require_build            # skip_all unless plugin, runtime and CLI are built
#   plan 3                      # or: plan skip_all "why"; or done_testing at the end
#   ok "true runs" true         # passes when the command exits 0
#   is "$(echo a)" a "echo"     # string equality, shows got/expected on failure
#   pp_cc "$T/prog" prog.c -O2  # compile with plugin + runtime ($T: private temp dir)
#   done_testing
#
# Every test gets its own temporary directory in $T (removed on exit, kept
# when PP_KEEP_TMP=1 so a failure can be inspected).  Tests run in parallel
# under `prove -j2`, so never write outside $T.

TAP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PP_BUILD=${PATHPROF_BUILD:-$TAP_ROOT/build}
# Read once, then hidden from the programs the tests run: the runtime warns
# about every PATHPROF_* variable it does not know, and tests check stderr.
unset PATHPROF_BUILD
PP_PLUGIN=$PP_BUILD/lib/pathprof.so
PP_LIBDIR=$PP_BUILD/lib
PP_CLI=$PP_BUILD/bin/pathprof
PP_GCC=${PP_GCC:-gcc}
# A sanitizer suite's tree (make check SANITIZE=..., mk/sanitize.mk) says
# which: PP_SANITIZE (address,undefined, thread; empty in the plain tree)
# and PP_SAN_CFLAGS, which every program linked with its libpathprof.so
# must be built with (pp_cc adds them; so does $_pp_cflags/$_pp_libs).
PP_SANITIZE= PP_SAN_CFLAGS=
# shellcheck source=/dev/null
[ -f "$PP_BUILD/sanitize.env" ] && . "$PP_BUILD/sanitize.env"
export LC_ALL=C

_tap_n=0 _tap_failed=0 _tap_planned= _tap_done=

T=$(mktemp -d "${TMPDIR:-/tmp}/pathprof-test.XXXXXX")
_tap_exit() {
    local rc=$?
    if [ "${PP_KEEP_TMP:-0}" = 1 ]; then echo "# kept $T" >&2; else rm -rf "$T"; fi
    if [ -z "$_tap_done" ] && [ -z "$_tap_planned" ] && [ "$_tap_n" -gt 0 ]; then
        echo "# test script exited (status $rc) before done_testing" >&2
        exit 255
    fi
    if [ -n "$_tap_planned" ] && [ "$_tap_planned" != "$_tap_n" ] && [ -z "$_tap_done" ]; then
        echo "# planned $_tap_planned tests but ran $_tap_n" >&2
        exit 255
    fi
    [ "$_tap_failed" -gt 0 ] && exit $(( _tap_failed > 254 ? 254 : _tap_failed ))
    exit $rc
}
trap _tap_exit EXIT

# plan N | plan skip_all REASON
plan() {
    if [ "$1" = skip_all ]; then
        shift; echo "1..0 # SKIP $*"; _tap_done=1; exit 0
    fi
    _tap_planned=$1; echo "1..$1"
}

diag() { local l; printf '%s\n' "$@" | while IFS= read -r l; do echo "# $l" >&2; done; }
note() { local l; printf '%s\n' "$@" | while IFS= read -r l; do echo "# $l"; done; }

# _tap_result STATUS NAME : STATUS 0 = pass
_tap_result() {
    _tap_n=$((_tap_n + 1))
    local name=${2//#/\\#}
    if [ "$1" = 0 ]; then
        echo "ok $_tap_n - $name"
        return 0
    fi
    _tap_failed=$((_tap_failed + 1))
    echo "not ok $_tap_n - $name"
    local caller_line=${BASH_LINENO[1]:-?} caller_file=${BASH_SOURCE[2]:-$0}
    diag "  Failed test '$2'" "  at $caller_file line $caller_line."
    return 1
}

pass() { _tap_result 0 "$1"; }
fail() { _tap_result 1 "$1"; shift; [ $# -gt 0 ] && diag "$@"; return 1; }

# ok NAME COMMAND [ARGS...]: pass when COMMAND exits 0
ok() {
    local name=$1; shift
    local out rc
    out=$("$@" 2>&1); rc=$?
    _tap_result "$rc" "$name" && return 0
    diag "  command: $*" "  exit status: $rc"
    [ -n "$out" ] && diag "$(printf '%s\n' "$out" | head -n 40)"
    return 1
}

# ok_status STATUS NAME: pass when STATUS (an exit status) is 0
ok_status() { _tap_result "$1" "$2"; }

# is GOT EXPECTED NAME
is() {
    if [ "$1" = "$2" ]; then _tap_result 0 "$3"; return 0; fi
    _tap_result 1 "$3"
    diag "         got: '$1'" "    expected: '$2'"
    return 1
}

# isnt GOT UNEXPECTED NAME
isnt() {
    if [ "$1" != "$2" ]; then _tap_result 0 "$3"; return 0; fi
    _tap_result 1 "$3"; diag "         got: '$1'" "    expected: anything else"; return 1
}

# like GOT EXTENDED-REGEX NAME
like() {
    if printf '%s' "$1" | grep -Eq -- "$2"; then _tap_result 0 "$3"; return 0; fi
    _tap_result 1 "$3"
    diag "                  '$(printf '%s' "$1" | head -c 2000)'" "    doesn't match '$2'"
    return 1
}

# skip REASON [COUNT]
skip() {
    local i n=${2:-1}
    for ((i = 0; i < n; i++)); do _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # skip $1"; done
}

# todo_fail NAME REASON: a known failure, reported as TODO
todo() { _tap_n=$((_tap_n + 1)); echo "not ok $_tap_n - $1 # TODO $2"; }

done_testing() {
    [ -z "$_tap_planned" ] && echo "1..${1:-$_tap_n}"
    _tap_done=1
    [ -n "$_tap_planned" ] && [ "$_tap_planned" != "$_tap_n" ] && {
        diag "planned $_tap_planned tests but ran $_tap_n"; exit 255; }
    [ "$_tap_failed" -gt 0 ] && diag "failed $_tap_failed of $_tap_n tests"
    exit 0   # _tap_exit turns failures into a non-zero status
}

BAIL_OUT() { echo "Bail out! $*"; _tap_done=1; exit 255; }

# ---------------------------------------------------------------- pathprof

# pp_have_build: plugin, runtime and CLI are all built (PP_DECODER=perl: the
# CLI is replaced by tests/oracle/ppdecode.pl, an independent reader)
pp_have_build() {
    [ -f "$PP_PLUGIN" ] && [ -f "$PP_LIBDIR/libpathprof.so" ] && { [ -x "$PP_CLI" ] || [ "${PP_DECODER:-}" = perl ]; }
}

# pp_require_build: skip the whole test unless everything is built
pp_require_build() {
    pp_have_build || plan skip_all "pathprof not built (run make): need $PP_PLUGIN, $PP_LIBDIR/libpathprof.so, $PP_CLI"
}

# pp_not_under_sanitizer SANITIZERS REASON: skip the whole test, saying why,
# in a sanitizer suite whose PP_SANITIZE contains one of SANITIZERS
# (space separated: address, undefined, thread)
pp_not_under_sanitizer() {
    local s
    for s in $1; do
        case ",$PP_SANITIZE," in *",$s,"*)
            plan skip_all "meaningless under SANITIZE=$PP_SANITIZE: $2" ;;
        esac
    done
}

# pp_ulimit_v KB|unlimited: `ulimit -v KB`, the cap on what a damaged file
# can make a reader allocate. ASan and TSan reserve terabytes of address
# space for their shadow memory, so under them no such limit lets a
# program start: the cap becomes one on each allocation instead, which then
# fails (NULL) as it would under the limit.
pp_ulimit_v() {
    case ",$PP_SANITIZE," in
    *,address,* | *,thread,*)
        [ "$1" = unlimited ] && return 0
        local o=allocator_may_return_null=1:max_allocation_size_mb=$(( $1 / 1024 ))
        export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}$o"
        export TSAN_OPTIONS="${TSAN_OPTIONS:-}${TSAN_OPTIONS:+:}$o" ;;
    *) ulimit -v "$1" ;;
    esac
}

# The flags a user adds to gcc: `pathprof config` when it answers, the build tree otherwise.
_pp_flags_cached=
pp_flags() {
    if [ -z "$_pp_flags_cached" ]; then
        local c l
        if c=$("$PP_CLI" config --cflags 2>/dev/null) && l=$("$PP_CLI" config --libs 2>/dev/null) \
            && [ -n "$c" ] && [ -n "$l" ]; then
            _pp_cflags=$c _pp_libs=$l
        else
            _pp_cflags="-fplugin=$PP_PLUGIN"
            _pp_libs="-L$PP_LIBDIR -Wl,-rpath,$PP_LIBDIR -lpathprof"
        fi
        _pp_cflags="$_pp_cflags${PP_SAN_CFLAGS:+ $PP_SAN_CFLAGS}"
        _pp_libs="$_pp_libs${PP_SAN_CFLAGS:+ $PP_SAN_CFLAGS}"
        _pp_flags_cached=1
    fi
}

# pp_cc OUT SRC [GCC FLAGS...]: compile SRC with the plugin and link the runtime.
# Compiler diagnostics go to OUT.log; on failure they are also shown with diag.
pp_cc() {
    local out=$1 src=$2; shift 2
    pp_flags
    # shellcheck disable=SC2086
    if ! "$PP_GCC" $_pp_cflags -g "$@" "$src" -o "$out" $_pp_libs >"$out.log" 2>&1; then
        diag "pp_cc failed: $PP_GCC $_pp_cflags -g $* $src -o $out $_pp_libs" "$(head -n 30 "$out.log")"
        return 1
    fi
}

# pp_cc_plain OUT SRC [GCC FLAGS...]: the same without pathprof (the reference build)
pp_cc_plain() {
    local out=$1 src=$2; shift 2
    if ! "$PP_GCC" -g "$@" "$src" -o "$out" >"$out.log" 2>&1; then
        diag "pp_cc_plain failed: $PP_GCC -g $* $src -o $out" "$(head -n 30 "$out.log")"
        return 1
    fi
}

# pp_run PROFILE BIN [ARGS...]: run BIN writing its profile to PROFILE;
# stdout to PROFILE.stdout, stderr to PROFILE.stderr; returns BIN's status.
pp_run() {
    local prof=$1; shift
    PATHPROF_OUT=$prof "$@" >"$prof.stdout" 2>"$prof.stderr"
}

# pp_json PROFILE [report args]: the JSON report on stdout
pp_json() {
    local p=$1; shift
    if [ "${PP_DECODER:-}" = perl ]; then perl "$TAP_ROOT/tests/oracle/ppdecode.pl" "$p"; return; fi
    "$PP_CLI" report "$p" --json "$@"
}

# pp_fn_flags PROFILE FUNCTION: the function's directory flags, as the JSON
# report names them (the CLI's names: not PP_DECODER's), sorted, comma-separated
pp_fn_flags() {
    "$PP_CLI" report --json "$1" | perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        print join(",", sort map { @{ $_->{flags} } } grep { $_->{name} eq $ARGV[0] } @{ $d->{functions} })' "$2"
}

# pp_path_counts PROFILE: "function path count" lines, sorted: two
# profiles compared path for path with `is`
pp_path_counts() {
    pp_json "$1" | perl -MJSON::PP -e '
        my $d = decode_json(join "", <STDIN>);
        for my $f (@{$d->{functions}}) { print "$f->{name} $_->{id} $_->{count}\n" for @{$f->{paths}} }' | sort
}
