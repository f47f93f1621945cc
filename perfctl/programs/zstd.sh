# shellcheck shell=bash disable=SC2034
# zstd 1.5.4 (Debian source package, library + programs/): multithreaded.
# `zstd -T2 -9 -c` of a perfctl/lib/gen-input.c file: two compression worker
# threads (pthreads, the library's ZSTDMT) plus the I/O thread. The output
# of multithreaded zstd does not depend on scheduling, so it is compared
# byte for byte like the others.
PROG_KIND=multithreaded
PROG_DESC="zstd -T2 -9 -c of a perfctl/lib/gen-input.c file (2 worker threads)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" zstd zstd.h)
    PROG_VERSION=$(basename "$(dirname "$SRC")")
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 p=$SRC/../programs
    # The library's x86-64 Huffman decoder in assembly is left out
    # (ZSTD_DISABLE_ASM): the plugin instruments C. No legacy formats,
    # no zlib/lzma/lz4 back ends: plain zstd.
    compile_c "$b" "$3" "-O2 -w -pthread -DZSTD_MULTITHREAD -DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 -DZSTD_NOBENCH -DZSTD_NODICT -DZSTD_NOTRACE -I$SRC -I$SRC/common" \
        "$SRC"/common/*.c "$SRC"/compress/*.c "$SRC"/decompress/*.c \
        "$p"/zstdcli.c "$p"/util.c "$p"/timefn.c "$p"/fileio.c "$p"/fileio_asyncio.c "$p"/zstdcli_trace.c || return 1
    # shellcheck disable=SC2046
    gcc -O2 -pthread "$3"/*.o -o "$2/zstd" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 60000000)"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    # PERFCTL_DETERMINISTIC=1 (perfctl/crosscheck): one thread for I/O and
    # compression; the workers' and the I/O pool's wait loops run as often
    # as the scheduling makes them, so -T2's path counts vary run to run.
    if [ "${PERFCTL_DETERMINISTIC:-0}" = 1 ]; then
        CMD=("$1/zstd" -q --single-thread --no-asyncio -9 -c)
    else
        CMD=("$1/zstd" -q -T2 -9 -c)
    fi
    CMD_STDIN=$2/input.$3
}
