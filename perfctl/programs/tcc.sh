# shellcheck shell=bash disable=SC2034
# tcc 0.9.27+git20200814 (Debian source package): the Tiny C Compiler, a
# one-pass compiler with a hand-written tokenizer and preprocessor (tccpp.c:
# next_nomacro1's switch on every character class, macro_subst, #if
# expressions), a recursive-descent parser and code generator (tccgen.c:
# unary's switch on every token, decl, block, the initializers), an x86-64
# back end, an inline assembler (tccasm.c, i386-asm.c) and an ELF writer;
# errors longjmp from wherever they are found back to tcc_compile's setjmp.
# configure runs once (--cpu=x86_64: config.h); the compiler proper is
# tcc.c with ONE_SOURCE=1 (libtcc.c and every file it includes: one TU)
# with the build's flags, its heap perfctl/programs/tcc-alloc.c (natively;
# why: there). The workload is one tcc process, `tcc -Wall -c`
# of many files, each compiled by its own TCCState (main's "goto redo"):
# tcc's own sources (tcc.c as ONE_SOURCE), tests/tcctest.c and the other
# tests, tests/asmtest.S and lib/*.S (the assembler), lib/*.c,
# tests/tests2/*.c, the C files of perfctl/programs/gen-c.pl, and last
# perfctl/programs/tcc-error.c: two warnings, then a syntax error deep in
# an expression, where tcc stops with exit status 1. The small workload is
# a few of those files, a smaller generated file and the error file. What
# is checked (standard output, from tcc-run.sh): tcc's messages (its
# warnings and the error, pathprof's own lines sent on to stderr), its
# exit status and the md5sum of every object file it wrote. tcc writes no
# time, address or random name into an object (two native runs give the
# same bytes), and the file names in it are relative (STT_FILE symbols,
# __FILE__), the same in every build's run. The command is the shell
# running tcc-run.sh (tcc's exit status 1 is part of the output, not the
# run's): perf counters follow it into tcc, valgrind does not, so under
# `perfctl run` use --cachegrind no (it would measure the shell).
PROG_KIND=compiler
PROG_DESC="tcc -Wall -c of tcc's own sources, tests, lib/*.S and generated C, then a syntax error (one process)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" tcc tccgen.c)
    PROG_VERSION=$(basename "$SRC")
    TCC_CFG=$PERFCTL_SRC_DIR/tcc-configured
    [ -f "$TCC_CFG/done" ] && return 0
    rm -rf "$TCC_CFG"
    mkdir -p "$TCC_CFG"
    # Debian's rules configure with --cpu and --triplet; only config.h and
    # config.mak are wanted (the workload compiles, it never links, so
    # neither libtcc1.a nor an installed tcc is needed).
    if ! (cd "$TCC_CFG" && "$SRC/configure" --cpu=x86_64 --triplet=x86_64-linux-gnu --prefix=/usr) \
        >"$TCC_CFG/log" 2>&1 || ! [ -f "$TCC_CFG/config.h" ]; then
        echo "perfctl: tcc: configuring failed, see $TCC_CFG/log" >&2
        return 1
    fi
    touch "$TCC_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    # the flags of tcc's Makefile (-fno-strict-aliasing: tcc needs it)
    compile_c "$b" "$3" "-O2 -w -fno-strict-aliasing -DCONFIG_TRIPLET=\"x86_64-linux-gnu\" -DTCC_TARGET_X86_64 -DONE_SOURCE=1 -I$TCC_CFG" \
        "$SRC/tcc.c" || return 1
    # tcc's heap: perfctl/programs/tcc-alloc.c (why: there), built
    # natively, takes tcc's own malloc, free, realloc and calloc calls
    gcc -O2 -std=c11 -Wall -Wextra -Werror -c "$ROOT/perfctl/programs/tcc-alloc.c" -o "$3/tcc-alloc.o" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$3/tcc.o" "$3/tcc-alloc.o" -Wl,--wrap=malloc,--wrap=free,--wrap=realloc,--wrap=calloc \
        -o "$2/tcc" -lm -ldl -lpthread $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local w=$1 s=$2 f n i bytes list=()
    # tcc's source tree (stab.def and the headers tcc.c includes, include/
    # for -B: tcc's own stddef.h, stdarg.h...) and config.h, copied once,
    # read by every size
    if [ ! -f "$w/tcc-src/done" ]; then
        rm -rf "$w/tcc-src"
        mkdir -p "$w/tcc-src"
        cp -r "$SRC/." "$w/tcc-src/"
        cp "$TCC_CFG/config.h" "$w/tcc-src/"
        touch "$w/tcc-src/done"
    fi
    cp "$ROOT/perfctl/programs/tcc-error.c" "$w/tcc-error.c"
    # generated C: 16 MB at scale 1 (about 2 s of native tcc) in 4 files,
    # the small workload's 1/40 of it in one
    bytes=$(size_of "$s" 16000000)
    if [ "$s" = full ]; then n=4; else n=1; fi
    rm -f "$w/gen-$s"-*.c
    for i in $(seq 1 $n); do
        perl "$ROOT/perfctl/programs/gen-c.pl" $((bytes / n)) "$i" >"$w/gen-$s-$i.c"
        list+=("../gen-$s-$i.c")
    done
    # the files, relative to the directory tcc runs in (out.SIZE); tcc
    # stops at the first error, so tcc-error.c comes last. tests2's
    # 34_array_assignment.c and 99_fastcall.c are error tests (an lvalue
    # expected; i386 assembly), left out.
    if [ "$s" = full ]; then
        list=(../tcc-src/tcc.c ../tcc-src/tests/tcctest.c ../tcc-src/tests/abitest.c ../tcc-src/tests/vla_test.c
            ../tcc-src/tests/testfp.c ../tcc-src/tests/boundtest.c ../tcc-src/tests/asmtest.S
            ../tcc-src/lib/{libtcc1,va_list,dsohandle,bcheck,bt-exe,bt-log}.c ../tcc-src/lib/alloca86_64{,-bt}.S
            "${list[@]}")
        for f in "$w"/tcc-src/tests/tests2/*.c; do
            case ${f##*/} in 34_array_assignment.c|99_fastcall.c) continue ;; esac
            list+=("../tcc-src/tests/tests2/${f##*/}")
        done
    else
        list=(../tcc-src/lib/libtcc1.c ../tcc-src/lib/alloca86_64.S
            ../tcc-src/tests/tests2/{03_struct,06_case,12_hashdefine,46_grep,64_macro_nesting,90_struct-init,94_generic}.c
            "${list[@]}")
    fi
    printf '%s\n' "${list[@]}" ../tcc-error.c >"$w/files.$s"
    cat >"$w/tcc-run.sh" <<'EOF'
# tcc-run.sh TCC SIZE (perfctl/programs/tcc.sh): one tcc process compiles
# every file of files.SIZE in out.SIZE; prints tcc's messages, its exit
# status and the objects' checksums
tcc=$1 size=$2
LC_ALL=C; export LC_ALL
rm -rf "out.$size" && mkdir "out.$size" && cd "out.$size" || exit 2
# shellcheck disable=SC2046
"$tcc" -B../tcc-src -I../tcc-src -Wall -fdollars-in-identifiers -DTCC_TARGET_X86_64 -DONE_SOURCE=1 \
    '-DCONFIG_TRIPLET="x86_64-linux-gnu"' -c $(cat "../files.$size") 2>tcc.err
st=$?
grep -v '^pathprof: ' tcc.err
grep '^pathprof: ' tcc.err >&2
echo "tcc: exit status $st"
for f in *.o; do [ -f "$f" ] && md5sum -- "$f"; done
exit 0
EOF
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(sh "$2/tcc-run.sh" "$1/tcc" "$3")
    CMD_STDIN=/dev/null
}
