#!/usr/bin/env bash
# `pathprof dump` on a synthetic trace written by tests/trace/mktrace.pl, an
# independent writer of docs/format.md section 4: the exact output (depths
# from the activation library, functions, paths, lines, markers, errors),
# the options, and damaged traces: one field at a time, then every
# truncation and every byte flipped (with and without a re-sealed
# checksum), each ending in exit 2 and one line "pathprof: FILE: ...", or
# a clean read, never a crash; also with the CLI built with ASan and UBSan.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require
MKTRACE=$TAP_ROOT/tests/trace/mktrace.pl

perl "$MKTRACE" --map "$T/t.map" "$T/t.trace" || BAIL_OUT "mktrace.pl failed"

cli_run dump "$T/t.trace"
is "$RC" 0 "dump reads the trace"
is "$ERR" "" "nothing on stderr"
is "$OUT" "# trace $T/t.trace: pid 4242, started 2023-11-14 22:13:20 UTC, 2 TUs, 4 functions, 3 threads, 17 events
# thread 1: 11 events, stream ended
1 0 1 loop path 1 START t.c:2-4 t.c:7-8
1 1 2 helper path 0 START+RET t.c:21-22
1 2 1 loop path 3 - t.c:3-5 t.c:8
1 3 1 loop path 5 RET t.c:3 t.c:10
1 4 1 catcher ENTER 0x7ffd1000
1 6 1 catcher path 0 - c.cc:5-6
1 7 2 pick path 1 START p.c:31 p.c:34
1 8 1 catcher RESUME 0x7ffd1000 unwound 1
1 10 1 catcher path 1 RET c.cc:9
# thread 1: ends at depth 0; errors: none
# thread 2: 6 events, stream ended
2 0 1 pick path 0 START+RET p.c:31-32
2 1 1 pick path 1 START+RET p.c:31 p.c:34
2 2 1 catcher RESUME 0x99 !resync
2 4 1 ? index 50 - !unknown
2 5 1 catcher path 1 RET c.cc:9
# thread 2: ends at depth 0; errors: 1 resync 1 unknown
# thread 3: 0 events, stream cut short (the thread still ran)
# thread 3: ends at depth 0; errors: none" "the whole dump, as constructed (a marker split across records included)"

cli_run dump --raw "$T/t.trace" --thread=2
is "$(printf '%s\n' "$OUT" | tail -n +2)" "# thread 2: 6 events, stream ended
2 0 0x6000000000000008
2 1 0x6000000000000009
2 2 0x820000000000000a
2 3 0x0000000000000099
2 4 0x0000000000000032
2 5 0x4000000000000065" "--raw --thread=2: the words of thread 2 in hex"
cli_run dump "$T/t.trace" --thread 1
is "$(printf '%s\n' "$OUT" | grep -vc '^#')" 9 "--thread 1: its 9 lines (two markers of two words)"
cli_run dump "$T/t.trace" --thread 9
is "$RC" 1 "--thread of a thread that is not there: exit 1"
is "$ERR" "pathprof: $T/t.trace: no thread 9 (3 threads: 1-3)" "... saying which threads there are"
cli_run dump "$T/t.trace" --thread 0
is "$RC" 2 "--thread 0: usage error"
cli_run dump
like "$ERR" "which trace\\?" "no file: usage error"
cli_run dump --help
like "$OUT" "^Usage: pathprof dump TRACE" "dump --help"
cli_run dump "$T/missing.trace"
one_error_line "$T/missing.trace" "No such file or directory$" "a missing file: one line"
perl "$MKPROFILE" --scenario small "$T/p.pp"
cli_run dump "$T/p.pp"
one_error_line "$T/p.pp" 'not a pathprof trace \(it does not start with "PPTRACE"\)$' "a profile is not a trace"

# damage NAME REGEX EDIT...: the damaged trace gives exit 2 and one line
damage() {
    local name=$1 re=$2 f=$T/d.trace
    shift 2
    if ! perl "$PATCH" "$T/t.trace" "$f" --map "$T/t.map" "$@" 2>"$T/patch.err"; then
        fail "$name: patch" "$(cat "$T/patch.err")"
        return
    fi
    cli_run dump "$f"
    one_error_line "$f" "$re" "$name"
}
size=$(stat -c %s "$T/t.trace")
at() { awk -v n="$1" '$1 == n { print $2 }' "$T/t.map"; }

damage "wrong magic" 'not a pathprof trace' field:header.magic=0x5858585858585858
damage "wrong version" 'trace format version 3, this pathprof reads versions 1 to 2$' field:header.version=3
damage "wrong header size" 'header size 128, expected 64$' --reseal field:header.header_size=128
damage "shorter than the header" 'truncated: 40 bytes, shorter than the 64-byte header$' cut:40
damage "cut in the records" 'checksum mismatch \(stored [0-9a-f]{16}, computed [0-9a-f]{16}\): the file is damaged or truncated$' cut:300
damage "a byte changed" 'checksum mismatch' xor:100:0x01
damage "record length beyond the file" 'record at byte 64 \(EVENTS\): length 18446744073709551615 exceeds the [0-9]+ bytes left$' \
    --reseal field:rec0.length=0xffffffffffffffff
damage "record length not a multiple of 8" 'record 1 \(EVENTS, at byte 64\): length 20 is not a multiple of 8$' \
    --reseal field:rec0.length=20
damage "empty EVENTS record" 'record 1 \(EVENTS, at byte 64\): no events$' --reseal field:rec0.length=0 \
    cut:$(at rec0.ev0) append:$(perl -e 'print unpack("H*", substr(do { local $/; open my $f, "<:raw", $ARGV[0]; <$f> }, $ARGV[1]))' "$T/t.trace" "$(at rec1.type)")
damage "unknown record type" 'record 2 \(at byte [0-9]+\): unknown type 9$' --reseal field:rec1.type=9
damage "EVENTS of tid 0" 'record 1 \(EVENTS, at byte 64\): tid 0$' --reseal field:rec0.tid=0
damage "events of a thread END does not list" 'thread 7 has events \(at byte [0-9]+\) but is not in the END record$' \
    --reseal field:rec1.tid=7
damage "END count differs" 'thread 1: the END record counts 12 events, its records hold 11$' \
    --reseal field:end.t0.nevents=12
damage "END threads out of order" 'threads not in ascending tid order at 1$' --reseal field:end.t1.tid=1
damage "END thread count" 'record [0-9]+ \(END, at byte [0-9]+\): 1000 threads do not match its 56 bytes$' \
    --reseal field:end.nthreads=1000
damage "no END record" 'no END record: the trace was not completed$' --reseal \
    cut:$(at end.type) append:0000000000000000
damage "a record after END" 'record [0-9]+ \(EVENTS, at byte [0-9]+\) after the END record$' --reseal \
    cut:$((size - 8)) append:0100000001000000080000000000000005000000000000200000000000000000
damage "tu_base 0" 'record [0-9]+ \(TU, at byte [0-9]+\): tu_base 0' --reseal field:tu0.tu_base=0
damage "TU path ranges overlap" 'path indices of loop \(TU 0\) and catcher \(TU 1\) overlap at 5$' \
    --reseal field:tu1.tu_base=5
damage "TU function ranges overlap" 'function indices of TU 0 and TU 1 overlap at 2$' --reseal field:tu1.fn_base=2
damage "metadata length beyond the record" 'metadata length 18446744073709551615 exceeds' \
    --reseal field:tu0.meta_len=0xffffffffffffffff
damage "damaged metadata" 'TU, at byte [0-9]+\): metadata blob does not start with "PPTM"$' \
    --reseal field:tu0.meta.magic=0x58585858
damage "non-zero padding" 'non-zero padding after the metadata$' --reseal field:tu0.pad=1
damage "path indices beyond 2^61" 'function 0 \(loop\): its path indices go beyond 2\^61$' \
    --reseal field:tu0.tu_base=0x1ffffffffffffffe
damage "values that do not decode" 'function loop: path 1 cannot be decoded' --reseal field:tu0.f0.edge2.val=9

# Every truncation and every byte, as tests/cli-sweep.t does for profiles.
mkdir "$T/sweep"
perl "$PATCH" --sweep "$T/t.trace" "$T/sweep" || BAIL_OUT "patch.pl --sweep failed"
# sweep BIN STRIDE KINDS: prints one line per broken promise
sweep() {
    local bin=$1 stride=$2 kinds=$3 kind f n rc nl
    for kind in $kinds; do
        for f in "$T/sweep/$kind"-*; do
            n=${f##*-}
            [ $((n % stride)) = 0 ] || continue
            "$bin" dump "$f" >/dev/null 2>"$T/sweep.err"
            rc=$?
            nl=$(grep -c '' "$T/sweep.err")
            case $kind:$rc:$nl in
            trunc:2:1 | flip:2:1 | r*:2:1 | r*:0:0) ;;
            *) echo "$f: exit $rc, $nl stderr lines: $(head -c 200 "$T/sweep.err" | tr '\n' '|')"; continue ;;
            esac
            if [ "$rc" = 2 ] && ! grep -q "^pathprof: $f: " "$T/sweep.err"; then
                echo "$f: the line does not name the file: $(head -c 200 "$T/sweep.err")"
            fi
        done
    done
}
# PP_CLI_SWEEP_STRIDE=1 runs every offset (minutes); by default a sample.
stride=${PP_CLI_SWEEP_STRIDE:-3}
out=$( (pp_ulimit_v 262144; sweep "$PP_CLI" "$stride" "trunc flip rflip rflip1 rtrunc") )
is "$out" "" "$size-byte trace: every ${stride}th truncation and byte flip (raw and re-sealed): exit 0 or 2, one line"

ASAN=$T/asan-pathprof
if gcc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all -I"$TAP_ROOT/runtime" \
    -I"$TAP_ROOT/analyzers" -I"$TAP_ROOT/cli" "$TAP_ROOT"/cli/*.c "$TAP_ROOT"/cli/*/*.c \
    "$TAP_ROOT/analyzers/common/activations.c" "$TAP_ROOT"/runtime/profile-merge*.c \
    "$TAP_ROOT/runtime/bytebuf.c" \
    -o "$ASAN" -lm >"$T/asan.log" 2>&1 && "$ASAN" --version >/dev/null 2>&1; then
    export ASAN_OPTIONS=exitcode=86:abort_on_error=0:detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:exitcode=86
    "$ASAN" dump "$T/t.trace" >"$T/asan.out" 2>&1
    ok_status $? "sanitized: dump" || diag "$(head -n 20 "$T/asan.out")"
    out=$(sweep "$ASAN" $((stride * 5 - 2)) "trunc rflip rtrunc")
    is "$out" "" "sanitized: every $((stride * 5 - 2))th truncation and re-sealed flip"
else
    skip "gcc cannot build or run -fsanitize=address,undefined here: $(tail -n 1 "$T/asan.log")" 2
fi
done_testing
