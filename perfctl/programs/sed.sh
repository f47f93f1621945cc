# shellcheck shell=bash disable=SC2034
# GNU sed 4.9 (Debian source package): a regular-expression engine at work
# on every line. configure runs with --with-included-regex, so gnulib's
# regex (regcomp.c, regexec.c, regex_internal.c: one TU, lib/regex.c) is
# compiled in, with the build's flags, instead of glibc's: its backtracking
# matcher for back-references (sift_states_backward, check_arrival,
# get_subexp), its state sets and its DFA construction. gnulib's dfa.c (the
# DFA sed tries first; back-references make it answer "maybe" and hand the
# line to regex) and localeinfo.c take the build's flags too, with sed's own
# 7 files; the rest of lib/ (libsed.a) and version.o are built once,
# natively. The workload: perfctl/programs/work.sed (-E: intervals,
# classes, alternations, back-references, s///g with & and \N, y///, the
# hold space, N/P/D, a t loop) over a perfctl/lib/gen-input.c file, in the
# C locale; its standard output is checked. No ACL, SELinux or NLS.
PROG_KIND=regex
PROG_DESC="LC_ALL=C sed -E -f work.sed over a perfctl/lib/gen-input.c file (gnulib regex + dfa)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" sed basicdefs.h)
    PROG_VERSION=$(basename "$SRC")
    SED_CFG=$PERFCTL_SRC_DIR/sed-configured
    [ -f "$SED_CFG/done" ] && return 0
    rm -rf "$SED_CFG"
    mkdir -p "$SED_CFG"
    # The autotools, makeinfo and help2man are made no-ops (Debian's
    # patches may leave their inputs newer than their outputs; the man page
    # is not wanted). make's status is not checked: the man page fails
    # without help2man; the objects needed are checked instead.
    (cd "$SED_CFG" && "$SRC/configure" --quiet CC=gcc --disable-nls --without-selinux --disable-acl \
            --with-included-regex &&
        { make -s -j2 ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true HELP2MAN=true \
            CFLAGS="-O2 -w" || true; }) >"$SED_CFG/log" 2>&1
    if ! [ -f "$SED_CFG/lib/libsed.a" ] || ! [ -f "$SED_CFG/sed/version.o" ] || ! [ -x "$SED_CFG/sed/sed" ]; then
        echo "perfctl: sed: configuring failed, see $SED_CFG/log" >&2
        return 1
    fi
    touch "$SED_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    for f in compile debug execute mbcs regexp sed utils; do srcs+=("$SRC/sed/$f.c"); done
    for f in regex dfa localeinfo; do srcs+=("$SRC/lib/$f.c"); done
    compile_c "$b" "$3" "-O2 -w -DHAVE_CONFIG_H -DLOCALEDIR=\"/usr/share/locale\" -I$SED_CFG -I$SED_CFG/lib -I$SED_CFG/sed -I$SRC -I$SRC/lib -I$SRC/sed" \
        "${srcs[@]}" || return 1
    # Our regex.o, dfa.o and localeinfo.o come first: the linker takes
    # libsed.a's members only for what is still undefined.
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o "$SED_CFG/sed/version.o" "$SED_CFG/lib/libsed.a" -o "$2/sed" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 5000000)"
    cp "$ROOT/perfctl/programs/work.sed" "$1/work.sed"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(env LC_ALL=C "$1/sed" -E -f "$2/work.sed" "$2/input.$3")
    CMD_STDIN=/dev/null
}
