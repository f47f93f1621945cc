# shellcheck shell=bash disable=SC2034
# gawk 5.2.1 (Debian source package): a big switch-based bytecode
# interpreter (r_interpret in interpret.h, one switch with 114 opcode cases),
# 24 translation units, user-defined awk functions called recursively,
# regular expressions (gnulib's dfa and regex, built natively), associative
# arrays with four array implementations called through a table of function
# pointers (array_funcs). The workload: perfctl/programs/work.awk over a
# perfctl/lib/gen-input.c file (word counts, a recursive function, sprintf,
# split, gsub, sorted traversal), whose standard output is checked.
# Only gawk's own files take the build's flags; configure and support/
# (libsupport.a) run once, natively. No MPFR, readline or sigsegv: the
# plain interpreter.
PROG_KIND=interpreter
PROG_DESC="gawk -f work.awk over a perfctl/lib/gen-input.c file (switch interpreter, 24 TUs)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" gawk interpret.h)
    PROG_VERSION=$(basename "$SRC")
    GAWK_CFG=$PERFCTL_SRC_DIR/gawk-configured
    [ -f "$GAWK_CFG/done" ] && return 0
    rm -rf "$GAWK_CFG"
    mkdir -p "$GAWK_CFG"
    # The autotools are made no-ops: Debian's patches may leave their
    # inputs newer than their outputs.
    (cd "$GAWK_CFG" && "$SRC/configure" --quiet CC=gcc --without-mpfr --without-readline \
            --without-libsigsegv-prefix --disable-nls --disable-extensions --disable-pma &&
        make -s -C support ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true CFLAGS="-O2 -w") \
        >"$GAWK_CFG/log" 2>&1 ||
        { echo "perfctl: gawk: configuring failed, see $GAWK_CFG/log" >&2; return 1; }
    touch "$GAWK_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    for f in array awkgram builtin cint_array command debug eval ext field floatcomp gawkapi \
        gawkmisc int_array io main mpfr msg node profile re replace str_array symbol version; do
        srcs+=("$SRC/$f.c")
    done
    compile_c "$b" "$3" "-O2 -w -DHAVE_CONFIG_H -DGAWK -DNDEBUG -DDEFPATH=\".\" -DDEFLIBPATH=\".\" -DSHLIBEXT=\"so\" -I$GAWK_CFG -I$SRC -I$SRC/support" \
        "${srcs[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o "$GAWK_CFG/support/libsupport.a" -o "$2/gawk" -lm -ldl $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 20000000)"
    cp "$ROOT/perfctl/programs/work.awk" "$1/work.awk"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    # LC_ALL=C: the same bytes-as-characters rules and sort order everywhere.
    CMD=(env LC_ALL=C "$1/gawk" -f "$2/work.awk" "$2/input.$3")
    CMD_STDIN=/dev/null
}
