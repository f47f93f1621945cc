# shellcheck shell=bash disable=SC2034
# bc 1.07.1 (Debian source package, GNU bc): a yacc parser and a bytecode
# interpreter over arbitrary-precision numbers. What it stresses: deep
# recursion (bc functions calling themselves; the interpreter's own
# recursion in the parser's actions and bc_out_num's output through a
# function pointer), signal(2) called on every function call and return
# (execute.c re-arms SIGINT), the math library (-l) compiled at start-up
# from libmath.h. The workload: perfctl/programs/work.bc (recursive
# Fibonacci and factorial, a series, sqrt, the -l functions at high scale,
# base conversions, arrays); its standard output is checked.
# configure and libmath.h (made by a native fbc) run once, natively; every
# bc file and lib/number.c take the build's flags.
PROG_KIND=recursive
PROG_DESC="bc -l work.bc (recursion, signal(2) per call, arbitrary precision)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" bc bc.y)
    SRC=$(dirname "$SRC")
    PROG_VERSION=$(basename "$SRC")
    BC_CFG=$PERFCTL_SRC_DIR/bc-configured
    [ -f "$BC_CFG/done" ] && return 0
    rm -rf "$BC_CFG"
    mkdir -p "$BC_CFG"
    # The generated parser and scanner ship with the sources: yacc, lex and
    # the autotools are made no-ops so make never regenerates them.
    local noop="ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true YACC=true LEX=true"
    # shellcheck disable=SC2086
    (cd "$BC_CFG" && "$SRC/configure" --quiet CC=gcc &&
        make -s -C lib $noop CFLAGS="-O2 -w" && make -s -C bc libmath.h $noop CFLAGS="-O2 -w") \
        >"$BC_CFG/log" 2>&1 ||
        { echo "perfctl: bc: configuring failed, see $BC_CFG/log" >&2; return 1; }
    touch "$BC_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    for f in main bc scan execute load storage util global warranty; do srcs+=("$SRC/bc/$f.c"); done
    compile_c "$b" "$3" "-O2 -w -DHAVE_CONFIG_H -I$BC_CFG -I$BC_CFG/bc -I$SRC/h -I$SRC/bc" \
        "${srcs[@]}" "$SRC/lib/number.c" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o -o "$2/bc" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    # SIZE and --scale set the work: the script reads its size from its
    # first line.
    local n
    n=$(size_of "$2" 2400)
    { echo "n = $n"; cat "$ROOT/perfctl/programs/work.bc"; } >"$1/work.$2.bc"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/bc" -q -l "$2/work.$3.bc")
    CMD_STDIN=/dev/null
}
