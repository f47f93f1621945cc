#!/usr/bin/env bash
# PATHPROF_ACCUMULATE=1 and fork (docs/runtime.md, "fork"): a forked
# child's counts start from 0, as gcov's do, so the parent's profile and
# its children's, added, count every path as often as it ran: a program
# that forks children which walk stretches of step() accumulates exactly
# the counts of the same walks run in one process without forking (array
# and hash counters, PPP's, and a sampled build's totals; in stream mode
# the blpp and ksf analyzers' counts). Without PATHPROF_ACCUMULATE a child
# still inherits the parent's counts.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/merge/counts.pl
SRC=$TAP_ROOT/tests/merge/forks.c
cd "$T" || exit 1
pp_cc "$T/array" "$SRC" -O2 && pp_cc "$T/hash" "$SRC" -O2 -fplugin-arg-pathprof-hash-threshold=1 &&
    pp_cc "$T/sampled" "$SRC" -O2 -fplugin-arg-pathprof-sampling=yes || BAIL_OUT "cannot build forks.c"

# The counts of step() only (main's paths differ: one forks).
steps() { "$PP_CLI" report --json "$1" >"$1.json" && perl "$ORACLE" bl "$1.json" | grep '^step '; }

# PPP: the interesting paths count in an array, the others in a hash table.
PATHPROF_OUT=$T/train.pp "$T/array" 300 0 seq >/dev/null && "$PP_CLI" select train.pp --cover 0.5 >sel.txt &&
    pp_cc "$T/ppp" "$SRC" -O2 -fplugin-arg-pathprof-ppp="$T/sel.txt" || BAIL_OUT "cannot build forks.c with ppp"

for b in array hash ppp; do
    PATHPROF_OUT=$T/$b.seq "$T/$b" 3000 3 seq >/dev/null
    rm -f "$b.acc"
    PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/$b.acc "$T/$b" 3000 3 >"$b.out" 2>"$b.err"
    rc=$?
    # Under TSan every fork child has TSan's own thread: the runtime's
    # warning about plain counters in a multithreaded program is TSan's.
    [ "${PP_SANITIZE:-}" = thread ] && sed -i '/the program ran more than one thread/d' "$b.err"
    is "$rc:$(cat "$b.err")" "0:" "$b: the forking run (3 children) exits 0, silent"
    is "$(grep -c '^child' "$b.out")" 3 "$b: the three children ran"
    seq=$(steps "$b.seq")
    like "$seq" "^step 0x[0-9a-f]+ 0 [1-9]" "$b: the sequential run counted step()"
    is "$(steps "$b.acc")" "$seq" "$b: accumulated with its children, step()'s counts are the sequential run's"
done

# Sampled at 1/1 (every path counted): the totals restart in the child too,
# so the accumulated checks are the sequential run's.
checks() { "$PP_CLI" report --json "$1" | perl -MJSON::PP -e '
    my $s = decode_json(join "", <STDIN>)->{sampling}; print $s->{gap_checks} + $s->{burst_checks}'; }
PATHPROF_SAMPLE=1/1 PATHPROF_OUT=$T/s.seq "$T/sampled" 3000 3 seq >/dev/null
rm -f s.acc
PATHPROF_SAMPLE=1/1 PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/s.acc "$T/sampled" 3000 3 >/dev/null
is "$(steps s.acc)" "$(steps s.seq)" "sampled at 1/1: step()'s counts are the sequential run's"
is "$(checks s.acc)" "$(checks s.seq)" "sampled at 1/1: so are the checks"

# Stream mode (blpp and ksf, k = 4): the child's analyzers drain every
# event from before the fork, then start from 0 (docs/runtime.md, "fork").
# BL paths: step()'s and walk()'s counts are the sequential run's (main's
# differ: the path through fork() ends in both processes, as in counting
# mode). k-iteration paths: a sequence is counted in the process where its
# first BL path runs, so those of activations begun after the fork (each
# child's walk() and step() calls) are counted exactly once: walk()'s and
# step()'s sequences and counts are the sequential run's, sequence for
# sequence (main's activation spans the forks: not compared). Once with
# slow analyzers and small chunks, so that the fork finds many events not
# yet consumed.
if [ "${PP_SANITIZE:-}" = thread ]; then
    # TSan cannot start threads in a multithreaded fork's child, which the
    # stream runtime does there (mk/sanitize.mk).
    skip "TSan: stream-mode fork children cannot restart their analyzers" 15
else
    pp_cc "$T/stream" "$SRC" -O2 -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build forks.c in stream mode"
    kseqs() { "$PP_CLI" report --k --json --min-length 1 "$1" >"$1.k.json" &&
        perl "$ORACLE" k "$1.k.json" | grep -E '^(step|walk) '; }
    blseqs() { perl "$ORACLE" bl "$1.json" | grep -E '^(step|walk) '; }
    events_paths() { perl -MJSON::PP -0ne 'my $j = decode_json($_);
        print $j->{stream}{events} == $j->{paths_executed} ? "events = paths" : "events $j->{stream}{events}, paths $j->{paths_executed}"' "$1"; }
    STREAM=(PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=4)
    env "${STREAM[@]}" PATHPROF_OUT=$T/st.seq "$T/stream" 3000 3 seq >/dev/null
    "$PP_CLI" report --json st.seq >st.seq.json
    like "$(blseqs st.seq)" "^step 0x[0-9a-f]+ 0 [1-9]" "stream: the sequential run counted step()"
    like "$(kseqs st.seq)" "walk [0-9,]+ [1-9]" "stream: the sequential run has walk()'s k-iteration paths"
    is "$(events_paths st.seq.json)" "events = paths" "stream: the sequential run's STREAM events are its paths (no marker)"
    for slow in no yes; do
        extra=()
        [ $slow = yes ] && extra=(PATHPROF_TEST_ANALYZER_DELAY_NS=200000 PATHPROF_CHUNK=64 PATHPROF_CHUNKS=8)
        rm -f "st-$slow.acc"
        env "${STREAM[@]}" "${extra[@]}" PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/st-$slow.acc \
            "$T/stream" 3000 3 >"st-$slow.out" 2>"st-$slow.err"
        is "$?:$(cat "st-$slow.err")" "0:" "stream (slow analyzers: $slow): the forking run exits 0, silent"
        is "$(grep -c '^child' "st-$slow.out")" 3 "stream (slow analyzers: $slow): the three children ran"
        "$PP_CLI" report --json "st-$slow.acc" >"st-$slow.acc.json"
        is "$(blseqs "st-$slow.acc")" "$(blseqs st.seq)" \
            "stream (slow analyzers: $slow): step()'s and walk()'s BL path counts are the sequential run's"
        is "$(kseqs "st-$slow.acc")" "$(kseqs st.seq)" \
            "stream (slow analyzers: $slow): so are their k-iteration paths, sequence for sequence"
        # The STREAM section's figures start over in the child too: forks.c
        # emits no marker, so the events consumed are the paths counted (they
        # were the parent's pre-fork events once more per child).
        is "$(events_paths "st-$slow.acc.json")" "events = paths" \
            "stream (slow analyzers: $slow): the accumulated STREAM events are the paths counted"
    done

    # An analyzer that cannot start from 0 says so in the child, by name:
    # ksf with worker threads (their k-SFs may still be in queued jobs).
    rm -f st-w.acc
    env "${STREAM[@]}" PATHPROF_KSF_WORKERS=2 PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/st-w.acc \
        "$T/stream" 3000 1 >/dev/null 2>st-w.err
    like "$(cat st-w.err)" 'PATHPROF_ACCUMULATE=1: the ksf analyzer cannot start from 0 in the forked child [0-9]+' \
        "stream, ksf with workers: the child warns that ksf cannot start from 0"
    is "$(grep -c '' st-w.err)" 1 "stream, ksf with workers: one warning, from the one child"
fi

# Not accumulating: each process's profile holds what its address space
# counted, the parent's counts up to the fork included (docs/runtime.md).
mkdir sep
PATHPROF_OUT=$T/sep/p.%p "$T/array" 3000 1 >/dev/null
n=0
for f in sep/p.*; do
    t=$("$PP_CLI" report --json "$f" | perl -MJSON::PP -e '
        my ($f) = grep { $_->{name} eq "step" } @{ decode_json(join "", <STDIN>)->{functions} }; print $f->{total}')
    [ "$t" -ge 3000 ] && n=$((n + 1))
done
is "$n" 2 "without PATHPROF_ACCUMULATE, the child's profile still holds the parent's 3000 steps before the fork"
done_testing
