# shellcheck shell=bash disable=SC2034
# lua5.4 5.4.4 (Debian source package): call-heavy, a bytecode interpreter
# running perfctl/programs/work.lua (records built and parsed with string
# functions, tables, closures, recursion, sorting with a Lua comparator).
PROG_KIND=call-heavy
PROG_DESC="lua5.4 running perfctl/programs/work.lua"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" lua5.4 lua.c)
    PROG_VERSION=$(basename "$(dirname "$SRC")")
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=()
    # debian/rules writes this header; the build does the same in its own directory.
    mkdir -p "$3/inc"
    printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
        "$(gcc -print-multiarch)" >"$3/inc/lua5.4-deb-multiarch.h"
    for f in "$SRC"/*.c; do [ "${f##*/}" = luac.c ] || srcs+=("$f"); done
    # PERFCTL_DETERMINISTIC=1 (perfctl/crosscheck): the string-hash seed
    # mixes time and the addresses of a heap object, a local and a function
    # (different in every build, so ASLR off is not enough), table.sort
    # picks pivots from clock() and time(), and luaS_new's cache of C
    # strings picks its set from the string's address; the seed and pivot
    # become constants and the cache one set of one entry (still compared
    # by content), so every run of every build takes the same paths.
    # lstate.c, ltablib.c and llimits.h keep their own definitions unless
    # these macros exist.
    local det=
    [ "${PERFCTL_DETERMINISTIC:-0}" = 1 ] &&
        det="-Dluai_makeseed(L)=0x2545f491u -Dl_randomizePivot()=0u -DSTRCACHE_N=1 -DSTRCACHE_M=1"
    compile_c "$b" "$3" "-O2 -w -DLUA_COMPAT_5_3 -DLUA_USE_LINUX $det -I$3/inc" "${srcs[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o -o "$2/lua" $(libs_of "$b") -lm -ldl -Wl,-E
}
prog_input() {  # WORKDIR SIZE
    cp "$PERFCTL_DIR/programs/work.lua" "$1/work.lua"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/lua" "$2/work.lua" "$(size_of "$3" 120000)")
    CMD_STDIN=/dev/null
}
