# shellcheck shell=bash disable=SC2034
# lz4 1.9.4 (Debian source package, library + programs/): loop-heavy.
# `lz4 -9 -c` (the HC compressor) of a perfctl/lib/gen-input.c file.
PROG_KIND=loop-heavy
PROG_DESC="lz4 -9 -c (HC) of a perfctl/lib/gen-input.c file"
# perfctl/crosscheck: the CLI times the compression; these branch on the clock.
# UTIL_getSpanTime (util.h: end.tv_nsec < begin.tv_nsec) is inlined into the
# other two at -O2 but a function of its own at -O0, where its one call
# took either path from run to run (robustness, lz4 O0 stream).
PROG_CLOCK_FUNCS=UTIL_clockSpanNano,UTIL_clockSpanMicro,UTIL_getSpanTime

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" lz4 lz4hc.c)
    PROG_VERSION=$(basename "$(dirname "$SRC")")
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    compile_c "$b" "$3" "-O2 -w -I$SRC -DXXH_NAMESPACE=LZ4_" \
        "$SRC"/lz4.c "$SRC"/lz4hc.c "$SRC"/lz4frame.c "$SRC"/xxhash.c "$SRC"/../programs/*.c || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o -o "$2/lz4" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 40000000)"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/lz4" -9 -c)
    CMD_STDIN=$2/input.$3
}
