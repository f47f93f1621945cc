# shellcheck shell=bash disable=SC2034
# brotli 1.0.9 (Debian source package: the library's encoder, decoder and
# common code, and c/tools/brotli.c): a compressor whose hot function is
# one a path profiler counts in a hash table. `brotli -c -q 9` of a
# perfctl/lib/gen-input.c file spends most of its time in
# CreateBackwardReferencesNH6 (backward_references_inc.h, instantiated for
# the H6 hasher): 391 M Ball-Larus paths, beyond hash-threshold (2^18), of
# which a run takes a few hundred, so every path end of its match-finding
# loop is a hash-table update (docs/runtime.md, "Hash-mode counts").
PROG_KIND=loop-heavy
PROG_DESC="brotli -c -q 9 of a perfctl/lib/gen-input.c file (the hot function counts in a hash table)"

prog_prepare() {
    # fetch-src.sh looks 3 levels deep for its marker: the top directory's.
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" brotli CMakeLists.txt)
    PROG_VERSION=$(basename "$SRC")
    SRC=$SRC/c
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    compile_c "$b" "$3" "-O2 -w -I$SRC/include" \
        "$SRC"/common/*.c "$SRC"/dec/*.c "$SRC"/enc/*.c "$SRC"/tools/brotli.c || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o -o "$2/brotli" -lm $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    gen_input "$1/input.$2" "$(size_of "$2" 16000000)"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/brotli" -c -q 9)
    CMD_STDIN=$2/input.$3
}
