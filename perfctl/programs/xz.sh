# shellcheck shell=bash disable=SC2034
# xz-utils 5.4.1 (Debian source package, liblzma + the xz command):
# multithreaded. `xz -T2 -3 -c` of a perfctl/lib/gen-input.c file: the
# main thread reads and writes while two worker threads (liblzma's
# stream_encoder_mt.c, pthreads, condition variables) compress blocks; the
# coders are chained through function pointers (lzma_next_coder's code,
# end, update). The output (blocks of a fixed size) does not depend on
# scheduling, so it is compared byte for byte (and docs/perfctl.md's
# robustness runs decompress it with the native xz). configure runs once, natively; every liblzma
# and xz file takes the build's flags.
PROG_KIND=multithreaded
PROG_DESC="xz -T2 -3 -c of a perfctl/lib/gen-input.c file (2 worker threads)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" xz-utils PACKAGERS)
    PROG_VERSION=$(basename "$SRC")
    XZ_CFG=$PERFCTL_SRC_DIR/xz-configured
    [ -f "$XZ_CFG/done" ] && return 0
    rm -rf "$XZ_CFG"
    mkdir -p "$XZ_CFG"
    # liblzma's file list is what its Makefile would compile on this
    # machine (make -n), so the configured features decide it.
    (cd "$XZ_CFG" && "$SRC/configure" --quiet CC=gcc --disable-shared --disable-nls --disable-doc \
            --disable-scripts --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-lzma-links &&
        make -n -C src/liblzma liblzma.la ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true |
            grep -o "\`[A-Za-z0-9_./]*\.c" | tr -d '`' | sort -u >liblzma-files) >"$XZ_CFG/log" 2>&1 ||
        { echo "perfctl: xz: configuring failed, see $XZ_CFG/log" >&2; return 1; }
    [ -s "$XZ_CFG/liblzma-files" ] || { echo "perfctl: xz: no liblzma file list in $XZ_CFG" >&2; return 1; }
    touch "$XZ_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f d=$SRC/src/liblzma lib=() xz=() inc
    while read -r f; do lib+=("$d/$f"); done <"$XZ_CFG/liblzma-files"
    for f in args coder file_io hardware list main message mytime options signals suffix util; do xz+=("$SRC/src/xz/$f.c"); done
    for f in open_stdxxx progname exit mbstr_width mbstr_fw; do xz+=("$SRC/src/common/tuklib_$f.c"); done
    inc="-I$d/api -I$d/common -I$d/check -I$d/lz -I$d/rangecoder -I$d/lzma -I$d/delta -I$d/simple -I$SRC/src/common"
    compile_c "$b" "$3/liblzma" "-O2 -w -pthread -DHAVE_CONFIG_H -I$XZ_CFG $inc -DTUKLIB_SYMBOL_PREFIX=lzma_" "${lib[@]}" || return 1
    compile_c "$b" "$3/xz" "-O2 -w -pthread -DHAVE_CONFIG_H -DLOCALEDIR=\"/usr/share/locale\" -I$XZ_CFG -I$SRC/src/common -I$d/api" "${xz[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 -pthread "$3"/xz/*.o "$3"/liblzma/*.o -o "$2/xz" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 12000000)"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    # The block size is fixed (it would follow the thread count otherwise),
    # so the output is the same with -T1 and -T2. PERFCTL_DETERMINISTIC=1
    # (perfctl/crosscheck): -T1, one thread; the workers' waits on their
    # condition variables run as often as the scheduling makes them.
    local t=2
    [ "${PERFCTL_DETERMINISTIC:-0}" = 1 ] && t=1
    CMD=("$1/xz" -q "-T$t" --block-size=1MiB -3 -c)
    CMD_STDIN=$2/input.$3
}
