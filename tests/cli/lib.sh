# tests/cli/lib.sh - helpers for the CLI tests (source after lib/tap.sh).
#
# The CLI tests need only build/bin/pathprof: profiles come from
# tests/cli/mkprofile.pl, an independent writer of docs/format.md.

PP_CLI_DIR=$TAP_ROOT/tests/cli
MKPROFILE=$PP_CLI_DIR/mkprofile.pl
PATCH=$PP_CLI_DIR/patch.pl
JSONFLAT=$PP_CLI_DIR/jsonflat.pl

# cli_require: skip the whole test unless the CLI is built
cli_require() {
    [ -x "$PP_CLI" ] || plan skip_all "pathprof CLI not built (run make): need $PP_CLI"
}

# cli_run ARGS...: runs pathprof; sets OUT, ERR (texts) and RC
cli_run() {
    "$PP_CLI" "$@" >"$T/.out" 2>"$T/.err"
    RC=$?
    OUT=$(cat "$T/.out")
    ERR=$(cat "$T/.err")
}

# has TEXT LINE NAME: TEXT contains the exact line LINE
has() {
    if printf '%s\n' "$1" | grep -qxF -- "$2"; then pass "$3"; return 0; fi
    fail "$3" "no line '$2' in:" "$(printf '%s\n' "$1" | head -n 60)"
}

# lacks TEXT LINE-REGEX NAME: no line of TEXT matches
lacks() {
    if ! printf '%s\n' "$1" | grep -qE -- "$2"; then pass "$3"; return 0; fi
    fail "$3" "unexpected line matching '$2':" "$(printf '%s\n' "$1" | grep -E -- "$2" | head -n 5)"
}

# one_error_line FILE REGEX NAME: after cli_run, exit status 2 and exactly
# one stderr line "pathprof: FILE: ..." matching REGEX
one_error_line() {
    local file=$1 re=$2 name=$3 nl
    nl=$(printf '%s' "$ERR" | grep -c '')
    if [ "$RC" = 2 ] && [ "$nl" = 1 ] && [[ $ERR == "pathprof: $file: "* ]] &&
        printf '%s' "$ERR" | grep -qE -- "$re"; then
        pass "$name"
        return 0
    fi
    fail "$name" "exit status $RC (want 2), $nl stderr lines (want 1)," \
        "want 'pathprof: $file: ' and /$re/, got:" "$ERR"
}
