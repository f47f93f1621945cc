# shellcheck shell=bash disable=SC2034
# flac 1.4.2 (Debian source package, with Debian's patches): libFLAC's
# encoder and decoder and the flac command-line program, an audio codec
# whose encoder is a search (flac -8: LPC orders 1 to 12 under several
# apodization windows, each order's quantised coefficients, the Rice
# partition orders; FIXED, CONSTANT and VERBATIM subframes tried against
# them; stereo decorrelation: left/side, right/side, mid/side) and whose
# decoder is a bit reader. Every file of src/libFLAC (the SSE2, SSSE3,
# SSE4.1, AVX2 and FMA versions too: they are compiled with target
# attributes, and cpu.c picks them at run time from cpuid, the same in
# every run on one machine), of src/share (getopt, grabbag, utf8,
# replaygain) and of src/flac takes the build's flags; no Ogg, no C++.
#
# configure runs once (prog_prepare: config.h only, static, no Ogg), as
# for make and grep.
#
# One change, in every build alike (native included): flac's progress
# report. encode.c's progress callback and decode.c's write callback call
# print_stats when clock() has advanced by a quarter of a second since
# the last call (which prints nothing under -s, but runs), so how often
# those paths run followed the machine's speed and the instrumentation's
# cost. Both files have upstream's alternative under
# "#if 0 /* in case time.h with clock() isn't available ... */": every
# 256 frames (encoder, 32 and 64 with the exhaustive searches) or 512
# frames (decoder). Copies of encode.c and decode.c take it (#if 1).
#
# The workload: perfctl/programs/work.flac (run by the system's sh) encodes
# perfctl/programs/gen-wav.pl's two files (a 16-bit stereo 44.1 kHz one in
# eight segments that each favour a kind of subframe, a 24-bit mono 96 kHz
# one with a WAVE_FORMAT_EXTENSIBLE header; 120 s and 30 s at scale 1) in
# one process, `flac -8 -V --keep-foreign-metadata` (-V: libFLAC decodes
# every frame it writes, in-process, and compares), decodes both back in a
# second process (`flac -d --keep-foreign-metadata`, which writes the
# original RIFF headers back) and compares the decoded files with the
# originals byte for byte. It prints the .flac files' cksums and the
# comparisons; native's are the reference.
#
# Two processes: PATHPROF_ACCUMULATE=1 sums the profile over both, except
# for the analyzers that keep one process's (trace, ksf-pruned; ksf with
# PATHPROF_KSF_WORKERS): then the profile is the encoder's, which runs
# the decoder too (-V), and the decoding process writes to /dev/null.
PROG_KIND=loop-heavy
PROG_DESC="sh work.flac: flac -8 -V of gen-wav.pl's 16-bit stereo and 24-bit mono WAVs, flac -d back, round trip compared (profile summed over both)"

prog_prepare() {
    # (fetch-src.sh looks 3 levels deep for its marker: the top directory's)
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" flac configure.ac)
    PROG_VERSION=$(basename "$SRC")
    FLAC_CFG=$PERFCTL_SRC_DIR/flac-configured
    [ -f "$FLAC_CFG/done" ] && return 0
    rm -rf "$FLAC_CFG"
    mkdir -p "$FLAC_CFG/patched"
    if ! (cd "$FLAC_CFG" && "$SRC/configure" --quiet CC=gcc CFLAGS="-O2 -w" --disable-ogg --disable-cpplibs \
        --disable-doxygen-docs --disable-examples --disable-version-from-git --disable-shared --enable-static) \
        >"$FLAC_CFG/log" 2>&1 || ! [ -f "$FLAC_CFG/config.h" ]; then
        echo "perfctl: flac: configuring failed, see $FLAC_CFG/log" >&2
        return 1
    fi
    if grep -q '^#define FLAC__HAS_OGG 1' "$FLAC_CFG/config.h"; then
        echo "perfctl: flac: configure enabled Ogg (see $FLAC_CFG/config.h)" >&2
        return 1
    fi
    # the progress report by frames, not by clock() (see the header)
    local f want
    for f in encode:4 decode:1; do
        want=${f#*:} f=${f%:*}
        sed 's|^#if 0 /\* in case time.h with clock() isn.t available for some reason \*/$|#if 1 /* perfctl: by frames, not clock() */|' \
            "$SRC/src/flac/$f.c" >"$FLAC_CFG/patched/$f.c"
        if [ "$(grep -c '^#if 1 /\* perfctl: by frames' "$FLAC_CFG/patched/$f.c")" != "$want" ] ||
            grep -q 'in case time.h with clock' "$FLAC_CFG/patched/$f.c"; then
            echo "perfctl: flac: src/flac/$f.c's progress report is not as expected ($want '#if 0 /* in case time.h with clock() ...' blocks)" >&2
            return 1
        fi
    done
    touch "$FLAC_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 o=$3 f lib=() share=() prog=()
    local flags="-O2 -w -DHAVE_CONFIG_H -DFLAC__NO_DLL -I$FLAC_CFG -I$SRC/include -I$SRC/src/libFLAC/include -I$SRC/src/flac -I$SRC/src/share/replaygain_synthesis/include"
    # libFLAC_sources of src/libFLAC/Makefile.am without Ogg (the VSX and
    # NEON files compile to nothing on x86-64)
    for f in bitmath bitreader bitwriter cpu crc fixed fixed_intrin_sse2 fixed_intrin_ssse3 float format lpc \
        lpc_intrin_sse2 lpc_intrin_sse41 lpc_intrin_avx2 lpc_intrin_fma md5 memory metadata_iterators \
        metadata_object stream_decoder stream_encoder stream_encoder_intrin_sse2 stream_encoder_intrin_ssse3 \
        stream_encoder_intrin_avx2 stream_encoder_framing window; do
        lib+=("$SRC/src/libFLAC/$f.c")
    done
    # src/share's libraries flac links (src/share/Makefile.am)
    for f in getopt/getopt getopt/getopt1 grabbag/alloc grabbag/cuesheet grabbag/file grabbag/picture \
        grabbag/replaygain grabbag/seektable grabbag/snprintf utf8/charset utf8/iconvert utf8/utf8 \
        replaygain_analysis/replaygain_analysis replaygain_synthesis/replaygain_synthesis; do
        share+=("$SRC/src/share/$f.c")
    done
    # flac_SOURCES (src/flac/Makefile.am), encode.c and decode.c patched
    for f in analyze foreign_metadata main local_string_utils utils vorbiscomment; do
        prog+=("$SRC/src/flac/$f.c")
    done
    prog+=("$FLAC_CFG/patched/encode.c" "$FLAC_CFG/patched/decode.c")
    # the objects only: a build reading a profile (robustness's count-use
    # and tpp) takes the .gcda files a -fprofile-generate run left here
    rm -f "$o"/lib/*.o "$o"/share/*.o "$o"/flac/*.o
    compile_c "$b" "$o/lib" "$flags" "${lib[@]}" || return 1
    compile_c "$b" "$o/share" "$flags" "${share[@]}" || return 1
    compile_c "$b" "$o/flac" "$flags" "${prog[@]}" || return 1
    # shellcheck disable=SC2046
    gcc -O2 "$o"/flac/*.o "$o"/share/*.o "$o"/lib/*.o -o "$2/flac" -lm $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local n
    # 120 s of 44.1 kHz stereo at scale 1; at least 8 blocks of 4096
    # frames (flac -8's block size) per segment of music16.wav
    n=$(size_of "$2" 5292000)
    [ "$n" -ge 32768 ] || n=32768
    mkdir -p "$1/wav.$2"
    if ! [ "$(cat "$1/wav.$2/n" 2>/dev/null)" = "$n" ]; then
        perl "$ROOT/perfctl/programs/gen-wav.pl" "$1/wav.$2" "$n" && echo "$n" >"$1/wav.$2/n" || return 1
    fi
    cp "$ROOT/perfctl/programs/work.flac" "$1/work.flac"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(env LC_ALL=C /bin/sh "$2/work.flac" "$1/flac" "$2/wav.$3")
    CMD_STDIN=/dev/null
}
