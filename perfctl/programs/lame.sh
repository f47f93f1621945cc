# shellcheck shell=bash disable=SC2034
# lame 3.100 (Debian source package, Debian's patches): an MP3 encoder,
# loop-heavy C: the polyphase filterbank and MDCT (newmdct.c), the FFT
# and psychoacoustic model (psymodel.c), the quantisation loops (CBR/ABR
# outer_loop and its bit-reservoir in quantize.c, VBR's binary searches
# in vbrquantize.c), Huffman table choice (takehiro.c), the resampler
# (util.c's fill_buffer_resample), the SSE quantisation kernel
# (vector/xmm_quantize_sub.c, -msse as Debian builds it), ID3 tags, and
# mpglib, the decoder (--decode and --mp3input). configure runs once
# (config.h only: static, no GTK, no nasm, lame's own file I/O); every
# file of libmp3lame, libmp3lame/vector, mpglib and the lame frontend
# (frontend/Makefile.am's lame_SOURCES) takes the build's flags.
#
# The workload: perfctl/programs/work.lame (run by the system's sh):
# perfctl/programs/gen-wav.pl's 16-bit stereo 44.1 kHz file (the flac
# recipe's, 60 s at scale 1, at least 4 s) encoded six ways (VBR -V 2,
# the old VBR -V 5 --vbr-old, CBR -b 128 -q 2 with ID3v2 tags, ABR 160
# joint stereo, mono 64 kbit/s resampled to 22.05 kHz, CBR 320 -q 0
# in simple stereo), two of them decoded back to WAV and one
# transcoded from MP3 (--mp3input -b 96); every lame process runs
# --quiet, whose progress report never reads the clock
# (frontend/timestatus.c: encoder_progress returns at once). Standard
# output: each file's cksum. The profile is the sum over the processes
# (PATHPROF_ACCUMULATE=1).
PROG_KIND=loop-heavy
PROG_DESC="sh work.lame: lame VBR, VBR-old, CBR, ABR, resampled mono, CBR 320 -q 0 of gen-wav.pl's 16-bit stereo, --decode and --mp3input (profile summed)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" lame lame.spec)
    PROG_VERSION=$(basename "$SRC")
    LAME_CFG=$PERFCTL_SRC_DIR/lame-configured
    [ -f "$LAME_CFG/done" ] && return 0
    rm -rf "$LAME_CFG"
    mkdir -p "$LAME_CFG"
    if ! (cd "$LAME_CFG" && "$SRC/configure" --quiet CC=gcc CFLAGS="-O2 -w" --disable-shared --enable-static \
        --disable-gtktest --disable-rpath --disable-dependency-tracking --enable-nasm=no --with-fileio=lame \
        --enable-decoder) >"$LAME_CFG/log" 2>&1 || ! [ -f "$LAME_CFG/config.h" ]; then
        echo "perfctl: lame: configuring failed, see $LAME_CFG/log" >&2
        return 1
    fi
    if ! grep -q '^#define HAVE_MPGLIB 1' "$LAME_CFG/config.h"; then
        echo "perfctl: lame: configure left out the decoder (no HAVE_MPGLIB in $LAME_CFG/config.h)" >&2
        return 1
    fi
    touch "$LAME_CFG/done"
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1 f srcs=() inc
    inc="-DHAVE_CONFIG_H -I$LAME_CFG -I$SRC/include -I$SRC/libmp3lame -I$SRC/mpglib -I$SRC/frontend -I$SRC"
    for f in VbrTag bitstream encoder fft gain_analysis id3tag lame newmdct presets psymodel quantize \
        quantize_pvt reservoir set_get tables takehiro util vbrquantize version mpglib_interface; do
        srcs+=("$SRC/libmp3lame/$f.c")
    done
    for f in common dct64_i386 decode_i386 interface layer1 layer2 layer3 tabinit; do
        srcs+=("$SRC/mpglib/$f.c")
    done
    for f in lame_main main brhist console get_audio lametime parse timestatus; do
        srcs+=("$SRC/frontend/$f.c")
    done
    compile_c "$b" "$3" "-O2 -w $inc" "${srcs[@]}" || return 1
    compile_c "$b" "$3" "-O2 -w -msse $inc" "$SRC/libmp3lame/vector/xmm_quantize_sub.c" || return 1
    # the frontend's libraries as configure found them (termcap: -lncurses)
    local libs
    libs=$(sed -n 's/^FRONTEND_LDADD = //p' "$LAME_CFG/frontend/Makefile")
    # shellcheck disable=SC2046,SC2086
    gcc -O2 "$3"/*.o -o "$2/lame" $libs -lm $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local n
    # 60 s of 44.1 kHz stereo at scale 1, at least 4 s
    n=$(size_of "$2" 2646000)
    [ "$n" -ge 176400 ] || n=176400
    mkdir -p "$1/wav.$2"
    if ! [ "$(head -c 64 "$1/wav.$2/n" 2>/dev/null)" = "$n" ] || ! [ -s "$1/wav.$2/music16.wav" ]; then
        perl "$ROOT/perfctl/programs/gen-wav.pl" "$1/wav.$2" "$n" && echo "$n" >"$1/wav.$2/n" || return 1
    fi
    cp "$ROOT/perfctl/programs/work.lame" "$1/work.lame"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=(env LC_ALL=C /bin/sh "$2/work.lame" "$1/lame" "$2/wav.$3/music16.wav")
    CMD_STDIN=/dev/null
}
