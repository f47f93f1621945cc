# shellcheck shell=bash disable=SC2034
# gzip 1.12 (Debian source package): loop-heavy, several translation units
# calling across files through functions gzip.h declares const or pure
# (bi_reverse with _GL_ATTRIBUTE_CONST, getcrc with _GL_ATTRIBUTE_PURE):
# the shape of issue 11's fault 0. `gzip -9 -c` of a perfctl/lib/gen-input.c file.
# Only gzip's own files take the build's flags; gnulib's library is
# configured and built once, natively, and linked into every build.
PROG_KIND=loop-heavy
PROG_DESC="gzip -9 -c of a perfctl/lib/gen-input.c file (const/pure callees in other files)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" gzip trees.c)
    PROG_VERSION=$(basename "$SRC")
    GZ_CFG=$PERFCTL_SRC_DIR/gzip-configured
    [ -f "$GZ_CFG/done" ] && return 0
    rm -rf "$GZ_CFG"
    mkdir -p "$GZ_CFG"
    # Debian's patches leave configure.ac newer than configure: the
    # autotools variables are made no-ops so make does not regenerate them.
    (cd "$GZ_CFG" && "$SRC/configure" --quiet CC=gcc &&
        make -s -C lib ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true CFLAGS="-O2 -w" &&
        make -s version.c version.h ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true MAKEINFO=true) >"$GZ_CFG/log" 2>&1 ||
        { echo "perfctl: gzip: configuring failed, see $GZ_CFG/log" >&2; return 1; }
    touch "$GZ_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    for f in bits deflate gzip inflate trees unlzh unlzw unpack unzip util zip; do srcs+=("$SRC/$f.c"); done
    compile_c "$b" "$3" "-O2 -w -DHAVE_CONFIG_H -I$GZ_CFG -I$GZ_CFG/lib -I$SRC -I$SRC/lib" \
        "${srcs[@]}" "$GZ_CFG/version.c" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o "$GZ_CFG/lib/libgzip.a" -o "$2/gzip" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 40000000)"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/gzip" -9 -c)
    CMD_STDIN=$2/input.$3
}
