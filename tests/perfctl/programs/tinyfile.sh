# shellcheck shell=bash disable=SC2034
# tests/perfctl/programs/tinyfile.sh - a recipe of the kind a user writes
# for a program of their own (docs/perfctl.md, "Your own program"): the
# sources in a directory of theirs, a workload that writes its result to a
# file rather than stdout, and prog_output, which prints what perfctl must
# compare with the native run's. tests/perfctl.t runs it.
PROG_KIND=loop-heavy
PROG_DESC="tests/perfctl/tiny.c, its result written to a file"

prog_prepare() {
    SRC=$ROOT/tests/perfctl
    PROG_VERSION=tiny.c
}
prog_build() {  # BUILD BINDIR OBJDIR
    compile_c "$1" "$3" "-O2 -std=c11" "$SRC/tiny.c" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3/tiny.o" -o "$2/tiny" $(libs_of "$1")
}
prog_input() {  # WORKDIR SIZE
    :
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(sh -c 'exec "$1" "$2" >"$3"' tinyfile "$1/tiny" "$(size_of "$3" 1000000)" "$2/result.$3")
    CMD_STDIN=/dev/null
}
prog_output() { # WORKDIR SIZE: the result file, then it is gone
    cat "$1/result.$2" && rm -f "$1/result.$2"
}
