# shellcheck shell=bash disable=SC2034 # sets variables for the scripts that source it
# bench/common.sh - what the bench scripts share; source it from the repo root.

# The plugin, runtime and CLI must be built; sets cli, PP_CFLAGS, PP_LIBS.
bench_pathprof_flags() {
    cli=$PWD/build/bin/pathprof
    local f
    for f in build/lib/pathprof.so build/lib/libpathprof.so "$cli"; do
        [ -e "$f" ] || { echo "bench: $f is missing: run make first (make bench does)" >&2; exit 1; }
    done
    PP_CFLAGS=$("$cli" config --cflags)
    PP_LIBS=$("$cli" config --libs)
}

# bzip2's eight files and the flags every configuration compiles them with.
BZIP2_FILES="blocksort huffman crctable randtable compress decompress bzlib bzip2"
BZIP2_FLAGS="-O2 -D_FILE_OFFSET_BITS=64 -w"

# build_bzip2 SRC DIR CONFIG: DIR/bzip2 from SRC, compiled with the caller's
# `cflags_of CONFIG` and linked with its `libs_of CONFIG`; DIR starts empty.
build_bzip2() {
    local src=$1 d=$2 c=$3 objs='' f
    rm -rf "$d"; mkdir -p "$d"
    for f in $BZIP2_FILES; do
        # shellcheck disable=SC2046,SC2086
        gcc $BZIP2_FLAGS $(cflags_of $c) -c "$src/$f.c" -o "$d/$f.o"
        objs="$objs $d/$f.o"
    done
    # shellcheck disable=SC2046,SC2086
    gcc -O2 $objs -o "$d/bzip2" $(libs_of $c)
}
