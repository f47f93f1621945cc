#!/usr/bin/env bash
# Stream mode counts a loop whose body is one path at its exits, as
# counting mode does: the exit emits the first iteration's path and one
# RUN marker for the other k - 1 (docs/streaming.md, section 1;
# plugin/loop-counts.h), blpp and ksf take them at once (ksf in closed
# form, its k-SF workers too), and the runtime expands the marker for
# every other analyzer (runtime/run-expand.h). Checked on
# tests/programs/one_path_loops.c and tests/stream/{loop-exits,vec}.c at
# -O0, -O2 and -O3, against the same program with the probes in the loop
# (-fplugin-arg-pathprof-loop-counts=0):
#   - blpp: the same paths and counts; ksf (k = 4, with and without
#     k-SF workers): the same k-iteration paths; ksf-pruned: the same sequences and bounds; trace: the same
#     events (pathprof dump); wpp: the same whole-program path;
#   - the trace of the RUN build against the brute-force k-IPF oracle
#     (tests/ksf/oracle.pl, which reads the binary files itself);
#   - stream blpp against counting mode, path for path (across modes);
#   - chunks of 16 words, so that RUN pairs straddle two chunks;
#   - nothing stored per iteration: -O3 vectorizes as many loops as native.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$T" || exit 1
SAME=$TAP_ROOT/tests/oracle/samepaths.pl
COUNTS=$TAP_ROOT/tests/merge/counts.pl

# pruned_of JSON: the sequences and per-length totals of report --k --pruned --json
pruned_of() {
    perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        print JSON::PP->new->canonical->encode([$d->{kprune}{lengths}, $d->{paths}]), "\n"' <"$1"
}

# profile BIN TAG CHUNK ARGS...: runs BIN twice (blpp,ksf,trace,wpp; then
# ksf-pruned) and writes TAG.bl.json, TAG.k.json, TAG.kp.json, TAG.dump,
# TAG.wpp
profile() {
    local bin=$1 tag=$2 chunk=$3; shift 3
    PATHPROF_CHUNK=$chunk PATHPROF_ANALYZER=blpp,ksf,trace,wpp PATHPROF_K=4 PATHPROF_OUT=$tag.pp \
        PATHPROF_TRACE=$tag.trace "./$bin" "$@" >"$tag.out" 2>"$tag.err" &&
        PATHPROF_CHUNK=$chunk PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=1M \
            PATHPROF_OUT=$tag.kpp "./$bin" "$@" >/dev/null 2>>"$tag.err" &&
        PATHPROF_CHUNK=$chunk PATHPROF_ANALYZER=ksf PATHPROF_K=4 PATHPROF_KSF_WORKERS=2 \
            PATHPROF_OUT=$tag.kwp "./$bin" "$@" >/dev/null 2>>"$tag.err" || return 1
    [ ! -s "$tag.err" ] || return 1
    "$PP_CLI" report --json "$tag.pp" >"$tag.bl.json" &&
        "$PP_CLI" report --k --json --min-length 1 "$tag.pp" >"$tag.k.json" &&
        "$PP_CLI" report --k --json --min-length 1 "$tag.kwp" >"$tag.kw.json" &&
        "$PP_CLI" report --k --pruned --json --min-length 1 "$tag.kpp" >"$tag.kp.json.full" &&
        pruned_of "$tag.kp.json.full" >"$tag.kp.json" &&
        "$PP_CLI" dump "$tag.trace" | tail -n +2 >"$tag.dump" &&
        "$PP_CLI" wpp "$tag.pp" | tail -n +2 >"$tag.wpp"
}

for prog in programs/one_path_loops:"" stream/loop-exits:200 stream/vec:30; do
    src=$TAP_ROOT/tests/${prog%%:*}.c name=$(basename "${prog%%:*}") arg=${prog#*:}
    for level in O0 O2 O3; do
        t=$name-$level
        pp_cc "$t.run" "$src" -"$level" -fplugin-arg-pathprof-mode=stream &&
            pp_cc "$t.probe" "$src" -"$level" -fplugin-arg-pathprof-mode=stream -fplugin-arg-pathprof-loop-counts=0 &&
            pp_cc "$t.count" "$src" -"$level" || BAIL_OUT "cannot build $src -$level"
        # shellcheck disable=SC2086
        profile "$t.run" "$t.r" 8192 $arg && profile "$t.probe" "$t.p" 8192 $arg &&
            profile "$t.run" "$t.r16" 16 $arg || { fail "$t: runs" "$(cat "$t.r.err" "$t.p.err" "$t.r16.err" 2>/dev/null)"; continue; }
        # shellcheck disable=SC2086
        PATHPROF_OUT=$t.c.pp "./$t.count" $arg >"$t.c.out" && "$PP_CLI" report --json "$t.c.pp" >"$t.c.bl.json" ||
            fail "$t: counting-mode run"
        ok "$t: the same output with RUN markers, probes in the loop and counting mode" \
            sh -c "cmp -s $t.r.out $t.p.out && cmp -s $t.r.out $t.c.out"
        for r in r r16; do
            what="$t${r#r}"
            [ "$r" = r16 ] && what="$t, chunks of 16 words"
            ok "$what: blpp, the same paths and counts as the probes in the loop" perl "$SAME" "$t.$r.bl.json" "$t.p.bl.json"
            is "$(perl "$COUNTS" k "$t.$r.k.json")" "$(perl "$COUNTS" k "$t.p.k.json")" "$what: ksf k=4, the same k-iteration paths"
            is "$(perl "$COUNTS" k "$t.$r.kw.json")" "$(perl "$COUNTS" k "$t.p.k.json")" \
                "$what: ksf k=4 with 2 k-SF workers (PATHPROF_KSF_WORKERS), the same k-iteration paths"
            ok "$what: ksf-pruned, the same sequences and bounds" cmp -s "$t.$r.kp.json" "$t.p.kp.json"
            ok "$what: trace, the same events" cmp -s "$t.$r.dump" "$t.p.dump"
            ok "$what: wpp, the same whole-program path" cmp -s "$t.$r.wpp" "$t.p.wpp"
        done
        like "$(perl "$TAP_ROOT/tests/ksf/oracle.pl" check "$t.r.pp" "$t.r.trace" 2>&1)" "n-grams agree" \
            "$t: the RUN build's k-IPF equals the brute-force count of its trace"
        ok "$t: stream blpp equals counting mode, path for path" perl "$SAME" "$t.r.bl.json" "$t.c.bl.json"
    done
done

# The stream's events count a RUN pair as the events it stands for, with
# the expansion (blpp,ksf,trace,wpp above) and with only blpp, which reads
# runs itself (counted by run-expand.c's pprt_run_count).
field() { perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>); print $ARGV[0] eq "events" ? $d->{stream}{events} : $d->{paths_executed}' "$1" <"$2"; }
is "$(field events vec-O2.r.bl.json)" "$(field paths vec-O2.r.bl.json)" "vec -O2, every analyzer: the stream's events are the paths counted"
PATHPROF_ANALYZER=blpp PATHPROF_OUT=vb.pp ./vec-O2.run 30 >/dev/null && "$PP_CLI" report --json vb.pp >vb.json || fail "vec -O2, blpp alone"
is "$(field events vb.json)" "$(field paths vb.json)" "vec -O2, blpp alone: the stream's events are the paths counted"
PATHPROF_ANALYZER=blpp PATHPROF_CHUNK=16 PATHPROF_OUT=vb16.pp ./loop-exits-O2.run 200 >/dev/null &&
    "$PP_CLI" report --json vb16.pp >vb16.json || fail "loop-exits -O2, blpp alone, chunks of 16"
is "$(field events vb16.json)" "$(field paths vb16.json)" "loop-exits -O2, blpp alone, chunks of 16: the stream's events are the paths counted"
# blpp alone reports each chunk's events itself (analyzer-host.h,
# chunk_events: the runtime then skips its own pass); beside trace the
# runtime counts them while expanding the RUNs: the same STREAM events,
# at every chunk size from 16 words (RUN pairs split between chunks) up.
for prog in one_path_loops-O0: one_path_loops-O2: loop-exits-O0:200 loop-exits-O3:200 vec-O2:30; do
    for chunk in 16 32 1024; do
        # shellcheck disable=SC2086
        PATHPROF_ANALYZER=blpp PATHPROF_CHUNK=$chunk PATHPROF_OUT=ce-b.pp "./${prog%%:*}.run" ${prog#*:} >/dev/null &&
            PATHPROF_ANALYZER=blpp,trace PATHPROF_TRACE=ce.trace PATHPROF_CHUNK=$chunk PATHPROF_OUT=ce-t.pp \
                "./${prog%%:*}.run" ${prog#*:} >/dev/null &&
            "$PP_CLI" report --json ce-b.pp >ce-b.json && "$PP_CLI" report --json ce-t.pp >ce-t.json ||
            fail "${prog%%:*}, chunks of $chunk: blpp, blpp+trace"
        is "$(field events ce-b.json)" "$(field events ce-t.json)" \
            "${prog%%:*}, chunks of $chunk: the STREAM events blpp counts = those the runtime counts expanding RUNs"
    done
done

# The KIPF section's statistics (events, k-SF nodes, Fig. 9's hash
# operations) are those of the probes in the loop, at k = 1 (one root
# lookup for a whole RUN, counted as one per path) and k = 4 (ksf_run's
# closed form, counted as the walk would).
kstats() { perl -MJSON::PP -e 'local $/; my $k = decode_json(<STDIN>)->{kipf};
    print join(" ", map { "$_=$k->{$_}" } qw(events ksf_nodes kipf_nodes hash_ops))' <"$1"; }
for k in 1 4; do
    for b in run probe; do
        PATHPROF_ANALYZER=ksf PATHPROF_K=$k PATHPROF_OUT=ks-$k-$b.pp ./loop-exits-O2.$b 200 >/dev/null &&
            "$PP_CLI" report --k --json ks-$k-$b.pp >ks-$k-$b.json || fail "loop-exits -O2, ksf k=$k, $b build"
    done
    is "$(kstats ks-$k-run.json)" "$(kstats ks-$k-probe.json)" \
        "loop-exits -O2, ksf k=$k: the KIPF statistics of the probes in the loop"
done

# Vectorization: the stream build vectorizes as many loops as native.
vec_count() { grep -c "optimized: loop vectorized" "$1" || true; }
# shellcheck disable=SC2086
"$PP_GCC" $PP_SAN_CFLAGS -O3 -fopt-info-vec-optimized -c "$TAP_ROOT/tests/stream/vec.c" -o vec-native.o 2>vec-native.log
pp_flags
# shellcheck disable=SC2086
"$PP_GCC" $_pp_cflags -O3 -fplugin-arg-pathprof-mode=stream -fopt-info-vec-optimized -c "$TAP_ROOT/tests/stream/vec.c" \
    -o vec-pp.o 2>vec-pp.log
native=$(vec_count vec-native.log) pp=$(vec_count vec-pp.log)
if [ -z "$PP_SANITIZE" ]; then
    ok "-O3: native vectorizes vec.c's three loops ($native loops)" test "$native" -ge 3
fi
is "$pp" "$native" "-O3: stream mode vectorizes as many loops as native"
done_testing
