#!/usr/bin/env bash
# stream-equal.t - issue 3: for the same program and input, stream mode
# with the blpp analyzer reports exactly what counting mode reports.
#
# Every program of tests/programs/*.c and the generated big-switch and
# big-paths programs, at -O0 and -O2, is built three times (plain, count
# mode, stream mode) and run on the same input.  Checked:
#   - the stream build (and the count build) behave like the plain build:
#     same exit status, stdout and stderr (PATHPROF_QUIET=1);
#   - both modes write a profile, or neither does (`//! profile none`);
#   - the normalized `pathprof report --json` (tests/stream/normjson.pl:
#     functions with name, file, line, checksum, npaths, flags, totals,
#     block lines; every path's ID, count, blocks, edges, start and end) is
#     identical: same DAG, same path IDs, same counts;
#   - the stream profile says mode "stream", every function has the
#     "stream" flag, and its STREAM section says exact, with no event lost
#     and as many events as path counts (plus the two-word ENTER/RESUME
#     markers when a function has resume points);
#   - the same stream binary with tiny chunks (PATHPROF_CHUNK=16,
#     PATHPROF_CHUNKS=2: the slow path on every 16th event) gives the same
#     profile again.
# Builds and runs go two at a time in the background; the checks follow.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build
NORM=$TAP_ROOT/tests/stream/normjson.pl
STREAM=-fplugin-arg-pathprof-mode=stream

mkdir -p "$T/gen"
perl "$TAP_ROOT/tests/lib/gen-switch.pl" 400 >"$T/gen/bigswitch.c" || BAIL_OUT "gen-switch.pl failed"
perl "$TAP_ROOT/tests/lib/gen-bigpaths.pl" 40 "$T/gen/big40.json" >"$T/gen/bigpaths40.c" || BAIL_OUT "gen-bigpaths.pl failed"
perl "$TAP_ROOT/tests/lib/gen-bigpaths.pl" 80 "$T/gen/big80.json" >"$T/gen/bigpaths80.c" || BAIL_OUT "gen-bigpaths.pl failed"
SRCS=("$PP_PROGRAMS"/*.c "$T/gen/bigswitch.c" "$T/gen/bigpaths40.c" "$T/gen/bigpaths80.c")

# runone DIR NAME BIN ARGS: runs BIN in DIR with stdin /dev/null;
# NAME.out, NAME.err, NAME.st (exit status); the profile is DIR/NAME.prof
runone() {
    local d=$1 name=$2 bin=$3; shift 3
    # shellcheck disable=SC2086
    { (cd "$d" && PATHPROF_OUT=$d/$name.prof PATHPROF_QUIET=1 exec "$bin" $ARGS \
        >"$d/$name.out" 2>"$d/$name.err" </dev/null); } 2>/dev/null
    echo $? >"$d/$name.st"
    if [ -e "$d/$name.prof" ]; then
        "$PP_CLI" report --json "$d/$name.prof" >"$d/$name.json" 2>"$d/$name.json.err" &&
            perl "$NORM" "$d/$name.json" >"$d/$name.norm" 2>"$d/$name.norm.err"
    fi
}

# job SRC LEVEL: builds and runs one case into $T/BASE-LEVEL
job() {
    local src=$1 level=$2 base d cflags
    base=$(basename "$src" .c)
    d=$T/$base-$level
    mkdir -p "$d"
    ARGS=$(pp_spec "$src" run) || ARGS=
    cflags=$(pp_spec "$src" cflags) || cflags=
    # shellcheck disable=SC2086
    pp_cc_plain "$d/plain" "$src" -"$level" $cflags 2>"$d/build.err" &&
        pp_cc "$d/count" "$src" -"$level" $cflags 2>>"$d/build.err" &&
        pp_cc "$d/stream" "$src" -"$level" $cflags $STREAM 2>>"$d/build.err" ||
        { echo fail >"$d/build.st"; return; }
    echo ok >"$d/build.st"
    runone "$d" plain "$d/plain"
    runone "$d" count "$d/count"
    runone "$d" stream "$d/stream"
    PATHPROF_CHUNK=16 PATHPROF_CHUNKS=2 runone "$d" tiny "$d/stream"
}

for src in "${SRCS[@]}"; do
    for level in O0 O2; do
        while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
        job "$src" "$level" &
    done
done
wait

# stream_facts JSON: "mode=... allstream=0|1 resume=0|1 exact=... lost=... events-paths=N"
stream_facts() {
    perl -MJSON::PP -e '
        local $/; my $p = JSON::PP->new->allow_bignum->decode(<STDIN>);
        my $s = $p->{stream} // {};
        my $all = 1; my $resume = 0;
        for my $f (@{ $p->{functions} }) {
            my %fl = map { $_ => 1 } @{ $f->{flags} };
            $all = 0 unless $fl{stream};
            $resume = 1 if $fl{resume};
        }
        my $lost = join ",", map { "$_=" . ($s->{$_} // "?") } qw(dropped late resync unknown);
        my $extra = ($s->{events} // 0) - $p->{paths_executed};
        # markers are two words each: with resume points, an even surplus
        my $ev = $resume ? ($extra >= 0 && $extra % 2 == 0 ? "even" : "bad($extra)") : $extra;
        printf "mode=%s allstream=%d exact=%s policy=%s %s events-paths=%s\n",
            $p->{mode}, $all, ($s->{exact} ? "true" : "false"), $s->{policy} // "?", $lost, $ev;
        ' <"$1"
}

for src in "${SRCS[@]}"; do
    for level in O0 O2; do
        base=$(basename "$src" .c) d=$T/$(basename "$src" .c)-$level tag="$(basename "$src" .c) -$level"
        if [ "$(cat "$d/build.st" 2>/dev/null)" != ok ]; then
            fail "$tag: builds plain, in count mode and in stream mode" "$(cat "$d"/*.log 2>/dev/null | head -n 20)"
            continue
        fi
        pass "$tag: builds plain, in count mode and in stream mode"
        for m in count stream; do
            if [ "$(cat "$d/$m.st")" = "$(cat "$d/plain.st")" ] && cmp -s "$d/$m.out" "$d/plain.out" &&
                cmp -s "$d/$m.err" "$d/plain.err"; then
                pass "$tag: $m mode: same exit status, stdout and stderr as the plain build"
            else
                fail "$tag: $m mode: same exit status, stdout and stderr as the plain build" \
                    "status $(cat "$d/$m.st") vs $(cat "$d/plain.st")" \
                    "$(diff "$d/plain.out" "$d/$m.out" | head -n 5)" "$(diff "$d/plain.err" "$d/$m.err" | head -n 5)"
            fi
        done
        profile_opt=$(pp_spec "$src" profile) || profile_opt=
        if [ "$profile_opt" = none ]; then
            ok "$tag: neither mode writes a profile (the process dies without exit handlers)" \
                test ! -e "$d/count.prof" -a ! -e "$d/stream.prof"
            continue
        fi
        if [ ! -s "$d/count.norm" ] || [ ! -s "$d/stream.norm" ] || [ ! -s "$d/tiny.norm" ]; then
            fail "$tag: both modes write a profile that report --json reads" \
                "$(cat "$d"/*.json.err "$d"/*.norm.err 2>/dev/null | head -n 10)" "$(ls "$d")"
            continue
        fi
        pass "$tag: both modes write a profile that report --json reads"
        ok "$tag: stream profile = count profile (functions, checksums, npaths, path IDs, counts)" \
            diff "$d/count.norm" "$d/stream.norm"
        ok "$tag: the same with 16-event chunks" diff "$d/count.norm" "$d/tiny.norm"
        like "$(head -n 1 "$d/count.norm")" '^paths_executed [1-9]' "$tag: the program executed paths"
        like "$(stream_facts "$d/count.json")" '^mode=count allstream=0 ' "$tag: count profile: mode count, no stream flag"
        facts=$(stream_facts "$d/stream.json")
        like "$facts" '^mode=stream allstream=1 exact=true policy=block dropped=0,late=0,resync=0,unknown=0 events-paths=(0|even)$' \
            "$tag: stream profile: mode stream, stream flags, exact, events = path counts (+ markers)"
        like "$(stream_facts "$d/tiny.json")" '^mode=stream allstream=1 exact=true policy=block dropped=0,late=0,resync=0,unknown=0 events-paths=(0|even)$' \
            "$tag: tiny chunks: exact, events = path counts (+ markers)"
    done
done
done_testing
