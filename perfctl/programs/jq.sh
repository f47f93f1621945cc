# shellcheck shell=bash disable=SC2034
# jq 1.6 (Debian source package, with Debian's patches): a JSON processor
# whose core is a bytecode interpreter with backtracking (execute.c's
# jq_next: fork points, a stack of saved frames, `empty` and errors
# unwinding to the last fork), reference-counted values (jv.c), a bison
# parser and a flex lexer (parser.c, lexer.c as shipped), and calls from
# uninstrumented libraries back into instrumented code: the C library's
# qsort calls jq's comparator for sort/group_by/unique_by (jv_aux.c), and
# oniguruma (Debian's libonig, not built here) calls f_match_name_iter for
# every named group. jq's own 18 files take the build's flags (the
# oniguruma bundled in modules/ is not used: Debian's patch 0008 drops
# it). configure runs once (autoreconf first: the source package has no
# configure script) and gives the -D flags (as a gcc response file),
# src/builtin.inc and src/version.h.
#
# Oniguruma: libonig-dev is installed if missing (scripts/install-deps.sh,
# apt); if that is impossible jq is configured --without-oniguruma and
# work.jq's regex wrappers answer constants (--argjson onig false). The
# workload: perfctl/programs/work.jq over perfctl/programs/gen-json.pl's
# records (`jq -n -c -S -f work.jq --argjson onig B input.json`), its
# standard output checked.
PROG_KIND=interpreter
PROG_DESC="jq -n -c -S -f work.jq over gen-json.pl records (backtracking bytecode interpreter, libonig, qsort callbacks)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" jq jq.1.prebuilt)
    PROG_VERSION=$(basename "$SRC")
    JQ_CFG=$PERFCTL_SRC_DIR/jq-configured
    if [ -f "$JQ_CFG/done" ]; then JQ_ONIG=$(cat "$JQ_CFG/onig"); return 0; fi
    rm -rf "$JQ_CFG"
    mkdir -p "$JQ_CFG"
    local with=--with-oniguruma=yes
    JQ_ONIG=true
    if ! "$ROOT/scripts/install-deps.sh" libonig-dev >"$JQ_CFG/deps.log" 2>&1 || ! [ -f /usr/include/oniguruma.h ]; then
        echo "perfctl: jq: libonig-dev could not be installed (see $JQ_CFG/deps.log): building jq --without-oniguruma, work.jq's regexes off" >&2
        with=--without-oniguruma JQ_ONIG=false
    fi
    # --disable-maintainer-mode: parser.c and lexer.c as shipped (no bison
    # or flex needed); the docs, valgrind and the shared library are off.
    # The -D flags go to every compile as a response file (their quotes
    # and backslashes as configure wrote them).
    if ! { { [ -x "$SRC/configure" ] || (cd "$SRC" && autoreconf -fi); } >"$JQ_CFG/log" 2>&1 &&
        (cd "$JQ_CFG" && "$SRC/configure" --quiet CC=gcc --disable-maintainer-mode --disable-docs \
            --disable-valgrind --disable-shared "$with" &&
            make -s src/builtin.inc src/version.h) >>"$JQ_CFG/log" 2>&1 &&
        sed -n 's/^DEFS = //p' "$JQ_CFG/Makefile" >"$JQ_CFG/defs.rsp" && [ -s "$JQ_CFG/defs.rsp" ]; }; then
        echo "perfctl: jq: configuring failed, see $JQ_CFG/log" >&2
        return 1
    fi
    if [ $JQ_ONIG = true ] && ! grep -q HAVE_LIBONIG "$JQ_CFG/defs.rsp"; then
        echo "perfctl: jq: configure did not find oniguruma, see $JQ_CFG/log" >&2
        return 1
    fi
    # PERFCTL_DETERMINISTIC=1: jv.c seeds its string hash (Debian's patch
    # for hash flooding) from arc4random(), so which keys of an object
    # collide, and jvp_object_find's paths, change from run to run (the
    # output does not: objects keep their insertion order). The seed is
    # made a constant: arc4random becomes this header's function in jv.c.
    printf '%s\n' "/* perfctl/programs/jq.sh: a constant hash seed for jv.c */" \
        "static unsigned int perfctl_jq_seed(void) { return 0x2545f491u; }" >"$JQ_CFG/seed.h"
    echo $JQ_ONIG >"$JQ_CFG/onig"
    touch "$JQ_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=() det='' onig=''
    # libjq's sources as Makefile.am lists them (parser.c and lexer.c from
    # parser.y and lexer.l), and main.c
    for f in builtin bytecode compile execute jq_test jv jv_alloc jv_aux jv_dtoa jv_file jv_parse \
        jv_print jv_unicode linker locfile util lexer parser main; do
        srcs+=("$SRC/src/$f.c")
    done
    [ "${PERFCTL_DETERMINISTIC:-0}" = 1 ] && det="-Darc4random=perfctl_jq_seed -include $JQ_CFG/seed.h"
    compile_c "$b" "$3" "-O2 -w @$JQ_CFG/defs.rsp $det -I$JQ_CFG -I$SRC -I$SRC/src" "${srcs[@]}" || return 1
    [ "$JQ_ONIG" = true ] && onig=-lonig
    # shellcheck disable=SC2046
    gcc -O2 "$3"/*.o -o "$2/jq" $onig -lm $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local f=$1/input.$2.json n
    n=$(size_of "$2" 3000)
    # made once per size (FILE.n records N)
    if ! [ "$(head -c 64 "$f.n" 2>/dev/null)" = "$n" ] || ! [ -s "$f" ]; then
        perl "$ROOT/perfctl/programs/gen-json.pl" "$n" >"$f" && echo "$n" >"$f.n" || return 1
    fi
    cp "$ROOT/perfctl/programs/work.jq" "$1/work.jq"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/jq" -n -c -S -f "$2/work.jq" --argjson onig "$JQ_ONIG" "$2/input.$3.json")
    CMD_STDIN=/dev/null
}
