# shellcheck shell=bash disable=SC2034
# tests/perfctl/programs/tiny.sh - the perfctl program file of
# tests/perfctl.t: tests/perfctl/tiny.c, a fraction of a second natively.
PROG_KIND=loop-heavy
PROG_DESC="tests/perfctl/tiny.c (sieve and a random-walk histogram)"

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
    CMD=("$1/tiny" "$(size_of "$3" 1000000)")
    CMD_STDIN=/dev/null
}
