#!/usr/bin/env bash
# wpp end to end (issue 16): real programs built in stream mode, run once
# with PATHPROF_ANALYZER=blpp,trace,wpp.  The oracle is the trace analyzer's
# raw stream of the same run:
#   - `pathprof wpp --expand` equals `pathprof dump` of the trace, byte for
#     byte (all lines but the first, which names the file): recursion and
#     longjmp, 21 threads on two analyzer threads, a signal handler, C++
#     exceptions, fork, and a run cut into epochs by a small PATHPROF_WPP_MAX;
#   - `--hot --all` (every subpath of 1..4 symbols counted on the grammar)
#     equals brute-force counting of the raw trace, and each of Fig. 7's
#     hot subpaths has its brute-force count and is within the bounds;
#   - a grammar damaged inside a sound envelope is refused, naming it.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
P=$TAP_ROOT/tests/trace/programs
W=$TAP_ROOT/tests/wpp
STREAM=-fplugin-arg-pathprof-mode=stream

# run NAME BIN ARGS...: one run with blpp, trace and wpp; $R the prefix
run() {
    local name=$1; shift
    R=$T/$name
    PATHPROF_ANALYZER=blpp,trace,wpp PATHPROF_OUT=$R.out PATHPROF_TRACE=$R.trace \
        PATHPROF_QUIET=1 "$@" >"$R.stdout" 2>"$R.stderr"
    [ -s "$R.out" ] && [ -s "$R.trace" ] || { diag "$(head -n 5 "$R.stderr")"; return 1; }
}

# same NAME: --expand = dump
same() {
    "$PP_CLI" dump "$R.trace" | sed 1d >"$R.dump" 2>"$R.dump.err"
    "$PP_CLI" wpp --expand "$R.out" | sed 1d >"$R.expand" 2>"$R.expand.err"
    if [ -s "$R.dump" ] && cmp -s "$R.dump" "$R.expand"; then
        pass "$1: wpp --expand = dump of the trace ($(wc -l <"$R.dump") lines)"
    else
        fail "$1: wpp --expand = dump of the trace" "$(cmp "$R.dump" "$R.expand" 2>&1)" \
            "$(cat "$R.expand.err")"
    fi
}

for O in -O0 -O2; do
    if pp_cc "$T/rl$O" "$P/recurse_longjmp.c" $STREAM "$O" && run "rl$O" "$T/rl$O" 60; then
        same "recurse_longjmp$O"
    else
        skip "recurse_longjmp$O did not build or run" 1
    fi
done
if pp_cc "$T/tl" "$P/threads_loop.c" $STREAM -O2 -pthread &&
    PATHPROF_ANALYZERS=2 run threads "$T/tl" 5; then
    same "threads_loop (21 threads, 2 analyzer threads)"
    is "$(grep -c '^# thread [0-9]*: [0-9]* events, stream ended$' "$R.expand")" 21 \
        "threads_loop: 21 threads in the expansion, every stream ended"
else
    skip "threads_loop did not build or run" 2
fi
if pp_cc "$T/sig" "$TAP_ROOT/tests/stream/signal_prog.c" $STREAM -O2 && run sig "$T/sig" 20000 sync; then
    same "signal_prog (a handler raised at a call)"
else
    skip "signal_prog did not build or run" 1
fi
if command -v g++ >/dev/null && PP_GCC=g++ pp_cc "$T/thr" "$P/throw_recursive.cc" $STREAM -O2 && run throw "$T/thr" 40; then
    same "throw_recursive (C++ exceptions)"
else
    skip "throw_recursive did not build or run" 1
fi
if [ -x "$T/sig" ] && PATHPROF_WPP_MAX=64K run epochs "$T/sig" 300000 sync; then
    same "signal_prog 300000 with PATHPROF_WPP_MAX=64K"
    n=$("$PP_CLI" wpp --json --no-xz "$R.out" | perl -MJSON::PP -0e 'print decode_json(<>)->{grammars}')
    if [ "${n:-0}" -gt 1 ]; then
        pass "PATHPROF_WPP_MAX=64K: the stream is cut into epochs ($n grammars)"
    else
        fail "PATHPROF_WPP_MAX=64K: the stream is cut into epochs ($n grammars)"
    fi
else
    skip "the epoch run did not build or run" 2
fi

# fork: the child's profile and trace hold the parent's stream up to the
# fork, then its own; each process's expansion = its trace.
if [ "${PP_SANITIZE:-}" = thread ]; then
    # TSan cannot start threads in a multithreaded fork's child (mk/sanitize.mk)
    skip "TSan: the stream runtime's fork child cannot restart its analyzers" 1
elif pp_cc "$T/fk" "$P/fork_child.c" $STREAM -O2; then
    (cd "$T" && PATHPROF_ANALYZER=trace,wpp PATHPROF_OUT=$T/fk.%p.out PATHPROF_TRACE=$T/fk.%p.trace \
        PATHPROF_QUIET=1 "$T/fk" >/dev/null 2>&1)
    n=0 bad=
    for o in "$T"/fk.*.out; do
        t=${o%.out}.trace
        [ -s "$t" ] || continue
        n=$((n + 1))
        cmp -s <("$PP_CLI" dump "$t" | sed 1d) <("$PP_CLI" wpp --expand "$o" | sed 1d) || bad="$bad $o"
    done
    if [ "$n" = 2 ] && [ -z "$bad" ]; then
        pass "fork_child: parent's and child's wpp --expand = their traces"
    else
        fail "fork_child: parent's and child's wpp --expand = their traces" "$n processes, differ:$bad"
    fi
else
    skip "fork_child did not build" 1
fi

# fig7 NAME R: Fig. 7's hot subpaths of R's one grammar, each with its
# brute-force count in R's trace
fig7() {
    local name=$1 R=$2 bad
    [ -s "$R.raw" ] || "$PP_CLI" dump --raw "$R.trace" >"$R.raw"
    "$PP_CLI" wpp --hot --min-length 2 --max-length 6 --min-cost 40 --cost paths --top 0 \
        --json "$R.out" >"$R.fig7.json"
    perl "$W/subpaths.pl" "$R.fig7.json" >"$R.fig7"
    perl "$W/brute.pl" "$R.raw" 2 6 >"$R.brute6"
    bad=$(grep '^bad' "$R.fig7"; grep -v '^bad' "$R.fig7" | grep -vxFf "$R.brute6")
    if [ -s "$R.fig7" ] && [ -z "$bad" ]; then
        pass "$name: Fig. 7: $(wc -l <"$R.fig7") hot subpaths, each with its brute-force count, cost x count >= 40, 2..6 paths"
    else
        fail "$name: Fig. 7: hot subpaths with their brute-force counts, within the bounds" "$bad"
    fi
}

# Also at -O0 and on signal_prog, whose grammars have rules wider than
# their prefixes inside other rules (before the fix in cli/query/wpp_hot.c
# their hot subpaths were strings the trace does not hold).
for n in rl-O0:recurse_longjmp-O0 sig:signal_prog; do
    if [ -s "$T/${n%%:*}.out" ]; then fig7 "${n#*:}" "$T/${n%%:*}"; else skip "no ${n#*:} profile" 1; fi
done

# Hot subpaths against brute force, on the first run.
R=$T/rl-O2
if [ -s "$R.out" ]; then
    "$PP_CLI" dump --raw "$R.trace" >"$R.raw"
    perl "$W/brute.pl" "$R.raw" 1 4 >"$R.brute"
    "$PP_CLI" wpp --hot --all --min-length 1 --max-length 4 --min-cost 0 --cost paths --top 0 \
        --json "$R.out" >"$R.all.json"
    perl "$W/subpaths.pl" "$R.all.json" >"$R.all"
    if [ -s "$R.brute" ] && cmp -s "$R.brute" "$R.all"; then
        pass "--all: every subpath of 1..4 symbols with its count = brute force ($(wc -l <"$R.brute") subpaths)"
    else
        fail "--all: every subpath of 1..4 symbols with its count = brute force" "$(diff "$R.brute" "$R.all" | head -n 5)"
    fi
    fig7 recurse_longjmp-O2 "$R"
    # Joined over the 21 threads' grammars.
    R2=$T/threads
    if [ -s "$R2.out" ]; then
        "$PP_CLI" dump --raw "$R2.trace" >"$R2.raw"
        perl "$W/brute.pl" "$R2.raw" 1 3 >"$R2.brute"
        "$PP_CLI" wpp --all --min-length 1 --max-length 3 --min-cost 0 --cost paths --top 0 \
            --json "$R2.out" >"$R2.all.json"
        perl "$W/subpaths.pl" "$R2.all.json" >"$R2.all"
        if [ -s "$R2.brute" ] && cmp -s "$R2.brute" "$R2.all"; then
            pass "--all over 21 threads' grammars = brute force summed over threads ($(wc -l <"$R2.brute") subpaths)"
        else
            fail "--all over 21 threads' grammars = brute force" "$(diff "$R2.brute" "$R2.all" | head -n 5)"
        fi
    else
        skip "no threads_loop profile" 1
    fi
    # The summary against the trace: words, distinct paths.
    "$PP_CLI" wpp --json --no-xz "$R.out" >"$R.sum.json"
    got=$(perl -MJSON::PP -0e '$j = decode_json(<>); print "$j->{words} $j->{distinct_paths} $j->{threads}"' "$R.sum.json")
    want=$(perl -ne 'next if /^#/; my (undef, undef, $w) = split; my $v = hex(substr($w, 2, 4)) >> 13 & 7;
        if ($half) { $half = 0 } elsif ($v >= 4) { $half = 1 } else { my $g = hex(substr($w, 2)) % 2**61; $p{$g} = 1 }
        $n++; END { printf "%d %d 1", $n, scalar keys %p }' "$R.raw")
    is "$got" "$want" "summary: words, distinct paths and threads = the trace's"
    # A truncated grammar inside a sound envelope: the last grammar's
    # body_len says 9 bytes more than there are.
    cp "$R.out" "$R.trunc"
    perl -I"$TAP_ROOT/tests/cli" -MPPWrite=reseal -e 'open my $f, "+<", $ARGV[0] or die; binmode $f; local $/; my $d = <$f>;
        my ($p, $sec, $end) = (64, 0, 0);
        while ($p < length($d) - 8) { my ($tag, $r, $len) = unpack "L<L<Q<", substr($d, $p, 16);
            ($sec, $end) = ($p + 16, $p + 16 + $len) if $tag == 7; $p += 16 + $len; }
        my ($ntus) = unpack "Q<", substr($d, $sec + 16, 8); my $g = $sec + 24 + 24 * $ntus + 8; my $last;
        while ($g < $end) { $last = $g; my ($bl) = unpack "Q<", substr($d, $g + 56, 8); $g += 64 + $bl + 8; }
        my ($bl) = unpack "Q<", substr($d, $last + 56, 8); substr($d, $last + 56, 8) = pack "Q<", $bl + 9;
        $d = reseal($d); seek $f, 0, 0; print $f $d;' "$R.trunc"
    "$PP_CLI" wpp "$R.trunc" >/dev/null 2>"$R.trunc.err"
    st=$?
    like "$st $(cat "$R.trunc.err")" '^2 pathprof: .*: WPP section: .*thread 1 epoch 0: truncated' \
        "a truncated grammar is refused with exit 2, naming the thread and epoch"
    # Damage inside a sound envelope: flip a byte of the last grammar's
    # rules, then mend the file's own checksum.
    perl -I"$TAP_ROOT/tests/cli" -MPPWrite=reseal -e 'open my $f, "+<", $ARGV[0] or die; binmode $f; local $/; my $d = <$f>;
        my ($p, $at) = (64, 0);
        while ($p < length($d) - 8) { my ($tag, $r, $len) = unpack "L<L<Q<", substr($d, $p, 16);
            $at = $p + 16 + $len - 8 - 2 if $tag == 7; $p += 16 + $len; }
        die "no WPP section" unless $at; substr($d, $at, 1) = chr(ord(substr($d, $at, 1)) ^ 0x40);
        $d = reseal($d); seek $f, 0, 0; print $f $d;' "$R.out"
    "$PP_CLI" wpp --expand "$R.out" >/dev/null 2>"$R.damage"
    st=$?
    like "$st $(cat "$R.damage")" '^2 pathprof: .*: WPP section: .*checksum mismatch' \
        "a damaged grammar is refused with exit 2, naming the WPP section and the grammar"
else
    skip "no profile for the hot subpath tests" 6
fi
done_testing
