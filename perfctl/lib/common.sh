# shellcheck shell=bash disable=SC2034 # sets variables for the scripts that source it
# perfctl/lib/common.sh - what perfctl, its program files, bzip2-bench and
# the micro/ scripts share (the builds and their flags, bzip2's build);
# source it from the repo root.

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

# The builds of a program (perfctl/micro/stream.sh, perfctl/micro/ksf.sh, perfctl):
# native; GCC's edge profiler (-fprofile-generate, what PGO runs), with
# GCC's default counter update and with -fprofile-update=atomic; pathprof
# counting mode, with the same two update modes (the plugin follows
# -fprofile-update); pathprof streaming mode (analyzer chosen at run time).
# cflags_of BUILD / libs_of BUILD: its compile and link flags (PP_CFLAGS
# and PP_LIBS from bench_pathprof_flags or perfctl's pp_setup).
# PERFCTL_OPT (default empty) is added last to both, for every build: the
# recipes compile and link with -O2, and "-O3 -flto" there overrides it
# (perfctl/crosscheck builds every program at both levels).
cflags_of() {
    case $1 in
        native) echo "${PERFCTL_OPT:-}" ;;
        fprofile-generate) echo "-fprofile-generate ${PERFCTL_OPT:-}" ;;
        fprofile-generate-atomic) echo "-fprofile-generate -fprofile-update=atomic ${PERFCTL_OPT:-}" ;;
        count) echo "$PP_CFLAGS ${PERFCTL_OPT:-}" ;;
        count-atomic) echo "$PP_CFLAGS -fprofile-update=atomic ${PERFCTL_OPT:-}" ;;
        # counting mode with each one-path loop's probe left in the loop
        # (loop-counts=0: the state before plugin/loop-counts.cc)
        count-inloop) echo "$PP_CFLAGS -fplugin-arg-pathprof-loop-counts=0 ${PERFCTL_OPT:-}" ;;
        # counting mode with the direct edge counters (perfctl/robustness's
        # verify mode: perfctl/lib/edgeflow.pl)
        count-verify) echo "$PP_CFLAGS -fplugin-arg-pathprof-verify ${PERFCTL_OPT:-}" ;;
        stream) echo "$PP_CFLAGS -fplugin-arg-pathprof-mode=stream ${PERFCTL_OPT:-}" ;;
        # stream mode with each one-path loop's event left in the loop
        # (loop-counts=0: no RUN markers, docs/streaming.md)
        stream-inloop) echo "$PP_CFLAGS -fplugin-arg-pathprof-mode=stream -fplugin-arg-pathprof-loop-counts=0 ${PERFCTL_OPT:-}" ;;
        sampled) echo "$PP_CFLAGS -fplugin-arg-pathprof-sampling=yes ${PERFCTL_OPT:-}" ;;
        sampled-stream) echo "$PP_CFLAGS -fplugin-arg-pathprof-mode=stream -fplugin-arg-pathprof-sampling=yes ${PERFCTL_OPT:-}" ;;
        # VPP: sampling with bursts of one path, timed (docs/vpp.md)
        vpp) echo "$PP_CFLAGS -fplugin-arg-pathprof-vpp=yes ${PERFCTL_OPT:-}" ;;
        # PPP: the interesting paths perfctl selected from a count run
        # (perfctl's ppp_train); verbose prints each function's Lambda.
        ppp) echo "$PP_CFLAGS -fplugin-arg-pathprof-ppp=${PERFCTL_PPP_FILE:?} -fplugin-arg-pathprof-verbose ${PERFCTL_OPT:-}" ;;
        # the same, PPP only in functions count would hash (ppp-scope=hash)
        ppp-hash) echo "$PP_CFLAGS -fplugin-arg-pathprof-ppp=${PERFCTL_PPP_FILE:?} -fplugin-arg-pathprof-ppp-scope=hash ${PERFCTL_OPT:-}" ;;
        # the same as ppp, the other paths only as a total (no hash table)
        ppp-total) echo "$PP_CFLAGS -fplugin-arg-pathprof-ppp=${PERFCTL_PPP_FILE:?} -fplugin-arg-pathprof-ppp-uninteresting=total ${PERFCTL_OPT:-}" ;;
        # perfctl/tpp-all: GCC's profile feedback with the profile in
        # PERFCTL_PGO_DIR (by object path), then pathprof on top of it:
        # plain Ball-Larus, or TPP(I, J) (docs/tpp.md); verbose prints the
        # static probes (the TPP paper's Table 4).
        pgo-gen) echo "-fprofile-generate=${PERFCTL_PGO_DIR:?} ${PERFCTL_OPT:-}" ;;
        pgo) echo "-fprofile-use=${PERFCTL_PGO_DIR:?} ${PERFCTL_OPT:-}" ;;
        pgo-count) echo "-fprofile-use=${PERFCTL_PGO_DIR:?} $PP_CFLAGS -fplugin-arg-pathprof-verbose=1 ${PERFCTL_OPT:-}" ;;
        # the reference of TPP's attribution of definite flow: pgo-count
        # without cuts as far as path IDs allow (TPP numbers fewer paths,
        # so it cuts fewer functions, and a cut path matches no TPP path)
        pgo-ref) echo "-fprofile-use=${PERFCTL_PGO_DIR:?} $PP_CFLAGS -fplugin-arg-pathprof-max-paths=2^61 ${PERFCTL_OPT:-}" ;;
        pgo-tpp-*-*) local ij=${1#pgo-tpp-}
            echo "-fprofile-use=${PERFCTL_PGO_DIR:?} $PP_CFLAGS -fplugin-arg-pathprof-verbose=1 -fplugin-arg-pathprof-tpp=${ij/-/,} ${PERFCTL_OPT:-}" ;;
        # TPP's two-stage build (docs/tpp.md): plain Ball-Larus and
        # TPP(PERFCTL_TPP, default 5,5) on the edge counts of a
        # fprofile-generate run whose .gcda files are in the objects'
        # directory (perfctl/robustness builds all three there). Both
        # with max-paths=2^61 (TPP's bound): at the default 2^32 BLPP cut
        # functions TPP numbers whole (sqlite3, lz4 and zstd at -O2), and
        # tests/oracle/tppcheck.pl cannot match a cut path with a TPP one.
        # count-use has verify too: tppcheck takes a derived path's
        # count (its defining edge's) from the direct edge counters, which
        # count the activations a longjmp or exit abandoned after the edge
        # (dash's evaltree); no BLPP path does.
        count-use) echo "$PP_CFLAGS -fprofile-use -fprofile-correction -Wno-missing-profile -fplugin-arg-pathprof-max-paths=2^61 -fplugin-arg-pathprof-verify ${PERFCTL_OPT:-}" ;;
        tpp) echo "$PP_CFLAGS -fprofile-use -fprofile-correction -Wno-missing-profile -fplugin-arg-pathprof-max-paths=2^61 -fplugin-arg-pathprof-tpp=${PERFCTL_TPP:-5,5} ${PERFCTL_OPT:-}" ;;
        *) echo "unknown build '$1'" >&2; return 1 ;;
    esac
}
libs_of() {
    case $1 in
        native) echo "${PERFCTL_OPT:-}" ;;
        fprofile-generate) echo "-fprofile-generate ${PERFCTL_OPT:-}" ;;
        fprofile-generate-atomic) echo "-fprofile-generate -fprofile-update=atomic ${PERFCTL_OPT:-}" ;;
        count|count-atomic|count-inloop|count-verify|stream|stream-inloop|sampled|sampled-stream|vpp|ppp|ppp-hash|ppp-total|pgo-count|pgo-ref|pgo-tpp-*-*|count-use|tpp) echo "$PP_LIBS ${PERFCTL_OPT:-}" ;;
        pgo-gen) echo "-fprofile-generate ${PERFCTL_OPT:-}" ;;
        pgo) echo "${PERFCTL_OPT:-}" ;;
        *) echo "unknown build '$1'" >&2; return 1 ;;
    esac
}

# bzip2's eight files and the flags every configuration compiles them with.
BZIP2_FILES="blocksort huffman crctable randtable compress decompress bzlib bzip2"
BZIP2_FLAGS="-O2 -D_FILE_OFFSET_BITS=64 -w"

# build_bzip2 SRC DIR CONFIG: DIR/bzip2 from SRC, compiled with
# `cflags_of CONFIG` and linked with `libs_of CONFIG` (perfctl/bzip2-bench
# defines its own pair for its other configurations); DIR starts empty,
# except that a build reading a profile (-fprofile-use: robustness's
# count-use and tpp) keeps the .gcda files a -fprofile-generate build's
# run left there: they are its input (emptying DIR made robustness's TPP
# build on bzip2 a TPP without an edge profile, which tppcheck refused).
build_bzip2() {
    local src=$1 d=$2 c=$3 objs='' f
    if [[ " $(cflags_of "$c") " == *" -fprofile-use "* ]] && [ -d "$d" ]; then
        find "$d" -mindepth 1 ! -name '*.gcda' -delete
    else
        rm -rf "$d"
    fi
    mkdir -p "$d"
    for f in $BZIP2_FILES; do
        # shellcheck disable=SC2046,SC2086
        gcc $BZIP2_FLAGS $(cflags_of $c) -c "$src/$f.c" -o "$d/$f.o"
        objs="$objs $d/$f.o"
    done
    # shellcheck disable=SC2046,SC2086
    gcc -O2 $objs -o "$d/bzip2" $(libs_of $c)
}
