# shellcheck shell=bash disable=SC2034
# libjpeg-turbo 2.1.5 (Debian source package, with Debian's patches): the
# JPEG library (libjpeg's API: forward and inverse DCTs in integer, fast
# integer and float versions, Huffman and arithmetic entropy coders,
# progressive scans, chroma subsampling and upsampling, colour conversion,
# one- and two-pass colour quantisation) and its cjpeg, djpeg and jpegtran.
# Without SIMD (-DWITH_SIMD=0: jsimd_none.c, every kernel the C version;
# the SIMD ones are assembly, which the plugin does not instrument), the
# library and the three programs in C, every file with the build's flags.
#
# cmake configures once (prog_prepare: jconfig.h, jconfigint.h and
# jversion.h only; static, no TurboJPEG API, no Java). jconfigint.h's
# BUILD is the configure date; the programs print it with -version only.
#
# The workload: perfctl/programs/work.jpeg (run by the system's sh)
# encodes perfctl/programs/gen-ppm.pl's image (2048 x 1536 at scale 1, the
# side scaled by the square root of the scale) with cjpeg five ways
# (baseline 4:2:0, progressive 4:4:4 with optimised tables, arithmetic
# coding with the float DCT, greyscale with the fast DCT, restart markers
# and smoothing, 4:2:2 at quality 100), decodes them with djpeg (PPM, PGM,
# BMP, Targa, 1/2 and 3/8 scaling, one- and two-pass quantisation with
# GIF output, the fast and float IDCTs, block smoothing) and transforms
# with jpegtran (rotation, transposition, progressive, crop, lossless
# arithmetic recoding, then decoded). It prints every output's cksum and
# each full-size decode's PSNR against the original (psnr.c: a lossy
# round trip, but above the quality's floor); native's are the reference.
#
# Many processes (21): PATHPROF_ACCUMULATE=1 sums the profile over them,
# except for the analyzers that keep one process's (trace, ksf-pruned;
# ksf with PATHPROF_KSF_WORKERS): then the profile is the progressive
# encode's (cjpeg -progressive -optimize: colour conversion, the forward
# DCT, the statistics pass, the progressive scans), the other processes
# writing to /dev/null (work.jpeg's header).
PROG_KIND=loop-heavy
PROG_DESC="sh work.jpeg: cjpeg (5 ways), djpeg (11 runs) and jpegtran (5 ways) on gen-ppm.pl's image, round trips checked by PSNR (profile summed over every process)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" libjpeg-turbo jcapimin.c)
    PROG_VERSION=$(basename "$SRC")
    JPEG_CFG=$PERFCTL_SRC_DIR/libjpeg-turbo-configured
    [ -f "$JPEG_CFG/done" ] && return 0
    rm -rf "$JPEG_CFG"
    mkdir -p "$JPEG_CFG"
    if ! cmake -S "$SRC" -B "$JPEG_CFG" -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release -DWITH_SIMD=0 \
        -DENABLE_SHARED=0 -DWITH_TURBOJPEG=0 -DWITH_JAVA=0 >"$JPEG_CFG/log" 2>&1; then
        echo "perfctl: libjpeg-turbo: cmake failed, see $JPEG_CFG/log" >&2
        return 1
    fi
    local f
    for f in jconfig.h jconfigint.h jversion.h; do
        [ -f "$JPEG_CFG/$f" ] || { echo "perfctl: libjpeg-turbo: cmake wrote no $f (see $JPEG_CFG/log)" >&2; return 1; }
    done
    for f in C D; do
        grep -q "^#define ${f}_ARITH_CODING_SUPPORTED 1" "$JPEG_CFG/jconfig.h" ||
            { echo "perfctl: libjpeg-turbo: cmake left arithmetic coding out (see $JPEG_CFG/jconfig.h)" >&2; return 1; }
    done
    touch "$JPEG_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 o=$3 f lib=() p
    local flags="-O2 -w -DNDEBUG -DBMP_SUPPORTED -DGIF_SUPPORTED -DPPM_SUPPORTED -DTARGA_SUPPORTED -I$JPEG_CFG -I$SRC"
    # JPEG_SOURCES of CMakeLists.txt, arithmetic coding, no SIMD
    for f in jcapimin jcapistd jccoefct jccolor jcdctmgr jchuff jcicc jcinit jcmainct jcmarker jcmaster \
        jcomapi jcparam jcphuff jcprepct jcsample jctrans jdapimin jdapistd jdatadst jdatasrc jdcoefct \
        jdcolor jddctmgr jdhuff jdicc jdinput jdmainct jdmarker jdmaster jdmerge jdphuff jdpostct jdsample \
        jdtrans jerror jfdctflt jfdctfst jfdctint jidctflt jidctfst jidctint jidctred jquant1 jquant2 \
        jutils jmemmgr jmemnobs jaricom jcarith jdarith jsimd_none; do
        lib+=("$SRC/$f.c")
    done
    # the objects only: a build reading a profile (robustness's count-use
    # and tpp) takes the .gcda files a -fprofile-generate run left here
    rm -f "$o"/*/*.o
    compile_c "$b" "$o/lib" "$flags" "${lib[@]}" || return 1
    # the programs' sources (cjpeg-static, djpeg-static, jpegtran-static
    # of CMakeLists.txt). cdjpeg.c and rdswitch.c, which all three link,
    # are compiled once, into common/, as a Makefile would: CMake
    # compiles them once per program, and then each copy's -fprofile-
    # generate run leaves a .gcda of its own, so the TPP builds of one
    # function differ between the programs (their cold edges, and so
    # their numbering) and the runtime refuses to add the second
    # program's profile to the first's (robustness's first tpp run:
    # "function keymatch (cdjpeg.c) differs between the accumulated
    # profile and this run"; docs/perfctl.md, "libjpeg-turbo").
    compile_c "$b" "$o/common" "$flags" "$SRC/cdjpeg.c" "$SRC/rdswitch.c" || return 1
    local -A progs=(
        [cjpeg]="cjpeg rdgif rdppm rdbmp rdtarga"
        [djpeg]="djpeg rdcolmap wrgif wrppm wrbmp wrtarga"
        [jpegtran]="jpegtran transupp")
    local srcs
    for p in cjpeg djpeg jpegtran; do
        srcs=()
        for f in ${progs[$p]}; do srcs+=("$SRC/$f.c"); done
        compile_c "$b" "$o/$p" "$flags" "${srcs[@]}" || return 1
        # shellcheck disable=SC2046
        gcc -O2 "$o/$p"/*.o "$o"/common/*.o "$o"/lib/*.o -o "$2/$p" $(libs_of "$b") || return 1
    done
}
prog_input() {  # WORKDIR SIZE
    local w h
    # 2048 x 1536 at scale 1 (3.1 M pixels), the pixel count following the
    # scale; at least 64 x 48
    w=$(awk -v n="$(size_of "$2" 3145728)" 'BEGIN { w = int(sqrt(n * 4 / 3) / 16) * 16; printf "%d", (w < 64 ? 64 : w) }')
    h=$((w * 3 / 4))
    if ! [ "$(cat "$1/img.$2.n" 2>/dev/null)" = "$w $h" ]; then
        perl "$ROOT/perfctl/programs/gen-ppm.pl" "$1/img.$2.ppm" "$w" "$h" && echo "$w $h" >"$1/img.$2.n" || return 1
    fi
    cp "$ROOT/perfctl/programs/work.jpeg" "$1/work.jpeg"
    # the check's helper, uninstrumented (not one of the builds)
    [ "$1/psnr" -nt "$ROOT/perfctl/programs/psnr.c" ] ||
        gcc -std=c11 -O2 -Wall -Wextra -Werror "$ROOT/perfctl/programs/psnr.c" -o "$1/psnr" -lm
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(env LC_ALL=C /bin/sh "$2/work.jpeg" "$1" "$2/img.$3.ppm" "$2/psnr")
    CMD_STDIN=/dev/null
}
