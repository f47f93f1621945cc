# shellcheck shell=bash disable=SC2034
# libxml2 2.9.14 (Debian source package, with Debian's patches) with its
# xmllint, and libxml2 built as what it is everywhere: a SHARED library,
# compiled and linked by libtool (-fPIC objects in .libs/, libxml2.so.2
# with its version script), that the instrumented xmllint loads at start-
# up. Both take the build's flags: every file of the library and
# xmllint.c. The other recipes link their programs statically from
# objects; this one checks what users' autotools projects do (the plugin
# in PIC code, the runtime's registration from a shared library's
# constructors, two instrumented modules in one process; docs/runtime.md,
# "dlopen and dlclose").
#
# configure runs once (--disable-static: libtool then compiles each file
# once, PIC), without the modules the workload does not use and those
# that read the machine's state: no catalogs (/etc/xml/catalog), no
# HTTP/FTP, no zlib/lzma, no ICU, no schemas, no Python, no loadable
# modules, no readline. Each build copies the configured tree into its
# object directory and runs `make libxml2.la` there with CFLAGS and LIBS
# of the build (libtool passes -fprofile-*, -flto and -O* to its link);
# objects, .lo, .la and .so files are removed first, .gcda files kept (the
# TPP builds read the fprofile-generate run's). xmllint.c is compiled with
# compile_c and linked against that libxml2.so; the library is copied
# next to xmllint as libxml2.so.2 and found through RUNPATH $ORIGIN (the
# build checks with ldd that xmllint loads that copy, not the system's).
#
# One change, in every build alike (native included): dict.c seeds its
# hash randomisation (DICT_RANDOMIZATION, which hash.c's tables take
# their seeds from too) with time(NULL); a copy of dict.c in the
# configured tree (make's VPATH takes it before the source's) seeds it
# with 0. Hash values, and so bucket chains, dictionary growth and hash
# table walks, would otherwise follow the second the run started in.
#
# The workload: perfctl/programs/work.xmllint, a script of the system's
# (uninstrumented) sh that runs the instrumented xmllint 75 times over
# perfctl/programs/gen-xml.pl's documents (2 MB at scale 1; see
# work.xmllint for what each group exercises): parse and save, push,
# memory, SAX and SAX1, the reader (--stream, --walker, --pattern), XPath,
# DTD validation, C14N, ISO-8859-1 and UTF-16 input, the HTML parser, a
# malformed document. Its standard output (exit statuses, cksums of each
# run's output, xmllint's messages) is checked.
#
# Many processes: as grep's recipe, PATHPROF_ACCUMULATE=1 sums the
# profile over the runs, except for the analyzers that keep one process's
# (trace, ksf-pruned); work.xmllint's last run is a broad one for them.
# xmlDictOwns (dict.c) asks whether a string lies in one of the
# dictionary's pools by comparing its address with each pool's bounds
# (str >= &pool->array[0] && str <= pool->free): for a string that was
# malloc'd, which comparison fails first follows the heap's layout, which
# the stream runtime's own allocations change. The answer, and the total,
# are the same (630,391 calls at scale 0.1; docs/perfctl.md, libxml2's
# finding 2): compared by total (pathcmp.pl's --totals-only).
PROG_CLOCK_FUNCS=xmlDictOwns,xmlDictOwns__internal_alias
PROG_KIND=shared-lib
PROG_DESC="sh work.xmllint: 75 xmllint runs over gen-xml.pl documents (libxml2.so instrumented, loaded by xmllint; profile summed over them)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" libxml2 xmllint.c)
    PROG_VERSION=$(basename "$SRC")
    XML_CFG=$PERFCTL_SRC_DIR/libxml2-configured
    [ -f "$XML_CFG/done" ] && return 0
    rm -rf "$XML_CFG"
    mkdir -p "$XML_CFG"
    (cd "$XML_CFG" && "$SRC/configure" --quiet CC=gcc CFLAGS="-O2 -w" --disable-static \
        --without-python --without-lzma --without-zlib --without-icu --without-http --without-ftp \
        --without-modules --without-legacy --without-catalog --without-schemas --without-schematron \
        --without-readline --without-history --without-debug) >"$XML_CFG/log" 2>&1
    if ! [ -f "$XML_CFG/Makefile" ] || ! [ -x "$XML_CFG/libtool" ] || ! [ -f "$XML_CFG/include/libxml/xmlversion.h" ]; then
        echo "perfctl: libxml2: configuring failed, see $XML_CFG/log" >&2
        return 1
    fi
    # dict.c's seed (see the header): its one time(NULL)
    sed 's/^    rand_seed = time(NULL);$/    rand_seed = 0;/' "$SRC/dict.c" >"$XML_CFG/dict.c"
    if [ "$(grep -c '^    rand_seed = 0;$' "$XML_CFG/dict.c")" != 1 ] || grep -q 'rand_seed = time' "$XML_CFG/dict.c" ||
        ! grep -q '^#define HAVE_RAND_R 1' "$XML_CFG/config.h"; then
        echo "perfctl: libxml2: dict.c's seed is not as expected (one 'rand_seed = time(NULL);' under HAVE_RAND_R)" >&2
        return 1
    fi
    touch "$XML_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 bin=$2 o=$3
    [ -f "$o/Makefile" ] || cp -a "$XML_CFG/." "$o/" || return 1
    find "$o" \( -name '*.o' -o -name '*.lo' -o -name '*.la' -o -name '*.so*' \) -delete
    # the autotools are no-ops (Debian's patches may leave their inputs
    # newer than their outputs)
    make -C "$o" -j2 ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true \
        CFLAGS="-O2 -w $(cflags_of "$b")" LIBS="$(libs_of "$b")" libxml2.la || return 1
    local so
    so=$(find "$o/.libs" -maxdepth 1 -type f -name 'libxml2.so.2.*' | head -n 1)
    [ -n "$so" ] || { echo "perfctl: libxml2: no .libs/libxml2.so.2.* in $o" >&2; return 1; }
    compile_c "$b" "$o/drv" "-O2 -w -DHAVE_CONFIG_H -I$o -I$o/include -I$SRC/include -I$SRC" "$SRC/xmllint.c" || return 1
    rm -f "$bin/libxml2.so.2"
    cp "$so" "$bin/libxml2.so.2" || return 1
    # shellcheck disable=SC2016,SC2046 # $ORIGIN is the dynamic linker's
    gcc -O2 "$o/drv/xmllint.o" -o "$bin/xmllint" "$bin/libxml2.so.2" -Wl,-rpath,'$ORIGIN' $(libs_of "$b") || return 1
    # a here-string: with pipefail (crosscheck), grep -q's early exit
    # killed ldd with SIGPIPE and failed a good build
    local deps
    deps=$(ldd "$bin/xmllint")
    if ! grep -qF "libxml2.so.2 => $bin/libxml2.so.2 " <<<"$deps"; then
        echo "perfctl: libxml2: $bin/xmllint does not load $bin/libxml2.so.2: $(grep libxml2 <<<"$deps")" >&2
        return 1
    fi
}
prog_input() {  # WORKDIR SIZE
    local n
    n=$(size_of "$2" 2000000)
    mkdir -p "$1/xml.$2"
    # made once per size (.n records the size asked)
    if ! [ "$(head -c 64 "$1/xml.$2/.n" 2>/dev/null)" = "$n" ]; then
        perl "$ROOT/perfctl/programs/gen-xml.pl" "$1/xml.$2" "$n" && echo "$n" >"$1/xml.$2/.n" || return 1
    fi
    cp "$ROOT/perfctl/programs/work.xmllint" "$1/work.xmllint"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    # shellcheck disable=SC2016 # the wrapper's own expansions
    CMD=(/bin/sh -c 'case ",${PATHPROF_ANALYZER-}," in
            *,trace,*|*,ksf-pruned,*) ;;
            *) PATHPROF_ACCUMULATE=1; export PATHPROF_ACCUMULATE ;;
        esac
        exec "$@"' xmllint-wrapper
        env LC_ALL=C /bin/sh "$2/work.xmllint" "$1/xmllint" "$2/xml.$3")
    CMD_STDIN=/dev/null
}
