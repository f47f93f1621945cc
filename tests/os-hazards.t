#!/usr/bin/env bash
# os-hazards.t - pathprof on code near the operating system, which the
# other tests do not reach (tests/os-hazards/*.c).  Each program is built
# plain, in counting mode, in stream mode and with sampling=yes, and run
# with blpp, with ksf (k = 4, against tests/ksf/oracle.pl where the stream
# is one the oracle's rules describe) and at PATHPROF_SAMPLE=1/1, each under
# a timeout.  Every run behaves as the plain build; stream profiles equal
# counting mode's path for path, or say they are not exact with a warning;
# counts are the ones the program's construction implies.
#
#   - coro: ucontext coroutines (makecontext/swapcontext), whose
#     activations are suspended under each other's on one thread.  Path
#     counts (counting mode, blpp, sampling) are exact; ksf and ksf-pruned
#     rebuild one call stack per thread and cannot be: before the fix they
#     said "exact" and wrote a KIPF section that readers rejected as
#     damaged (paths of one function under another's node).  Now the
#     runtime counts the switches (runtime/context-wrap.c) and says the
#     profile is not exact, and a crossing forest is left out.
#   - altstack: SIGSEGV handlers on a sigaltstack that siglongjmp back,
#     from a deliberate stack overflow in a thread and from a null store.
#   - misc (tests/os-hazards/misc.c): pthread_cancel mid-loop,
#     pthread_exit from 3 calls deep (and from main), quick_exit (no
#     profile, documented), exit() from an asynchronous SIGALRM handler
#     (before the fix: a hang in stream mode, when the signal came while
#     the thread consumed its own chunks under the stream mutex; and a
#     chunk lost while the profile said exact when it came in the chunk
#     swap), chdir and
#     closing fds 0-2 before exit (a relative PATHPROF_OUT is resolved at
#     start-up), every signal blocked before the first thread, and a raw
#     clone(CLONE_VM) child running instrumented code (before the fix:
#     the parent's own events were lost after the child attached, and
#     the profile said exact).
#   - builds: -specs (the one flag README names) linked libc before
#     libpathprof, so the exec wrappers were never called and the
#     profile was lost at every exec; -static failed to link through
#     -specs (liburcu and libck missing), and linked by hand every exec
#     failed with ENOSYS (no dlsym(RTLD_NEXT) in a static program).  Then
#     -fno-pie -no-pie, -fstack-protector-all, -D_FORTIFY_SOURCE=3,
#     -fcf-protection=full and -fno-omit-frame-pointer on misc.c's pexit
#     and on coro.c.
#   - alloc: the program defines malloc/free/calloc/realloc, instrumented:
#     glibc, pthread_create and the runtime itself (set-up, analyzer
#     threads, the profile's writing) call them.  Before the fix the
#     runtime's set-up, whose configuration strings are malloc'd, came
#     back into itself from the allocator's probes and waited for its own
#     pthread_once forever (stream mode and sampling=yes).  Linked in, and
#     as an instrumented LD_PRELOAD library under a plain and an
#     instrumented program.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
. "$(dirname "$0")/os-hazards/lib.sh"
pp_require_build
pp_not_under_sanitizer "address thread" "the programs replace malloc or switch stacks under the sanitizers' feet"

# ---- ucontext coroutines
N=1000
hz_build coro "$HZ_DIR/coro.c" -O2 || BAIL_OUT "coro does not build"
hz_run coro -- $N
d=$T/coro
for r in count blpp ksf samp; do
    hz_same_run "$d" $r "coro, $r"
    is "$(hz_total "$d/$r.json" leaf) $(hz_total "$d/$r.json" yield)" "$((18 * N)) $((6 * N))" \
        "coro, $r: leaf ran 18 N times, yield 6 N times"
done
for r in count blpp samp; do hz_no_warning "$d" $r "coro, $r"; done
same_profile "$d" blpp count "coro, blpp"
is "$(sfacts "$d/blpp.json" exact)" true "coro, blpp: says exact"
is "$(hz_fn "$d/samp.json" main co_body step leaf yield)" "$(hz_fn "$d/count.json" main co_body step leaf yield)" \
    "coro: sampled at 1/1 = counting mode"
srun "$d" kp PATHPROF_ANALYZER=ksf-pruned,blpp PATHPROF_K=4 -- "$T/coro-stream" $N
for r in ksf kp; do
    hz_same_run "$d" $r "coro, $r"
    is "$(sfacts "$d/$r.json" exact)" false "coro, $r: says not exact"
    like "$(cat "$d/$r.err")" "^pathprof: warning: the program switched stacks $((12 * N + 3)) times \(swapcontext" \
        "coro, $r: the warning counts the switches and names swapcontext"
    unlike "$(cat "$d/$r.json.err")" . "coro, $r: the profile reads without a damaged section"
done

# ---- SIGSEGV on a sigaltstack, recovered with siglongjmp
N=4
hz_build alt "$HZ_DIR/altstack.c" -O2 -pthread || BAIL_OUT "altstack does not build"
d=$T/alt
mkdir -p "$d"
to="timeout -s KILL $HZ_TIMEOUT"
srun "$d" plain -- $to "$T/alt-plain" $N "$d/plain.deep"
srun "$d" count -- $to "$T/alt-count" $N "$d/count.deep"
srun "$d" blpp -- $to "$T/alt-stream" $N "$d/blpp.deep"
srun "$d" ksf PATHPROF_ANALYZER=ksf,blpp,trace PATHPROF_K=4 "PATHPROF_TRACE=$d/ksf.trace" -- \
    $to "$T/alt-stream" $N "$d/ksf.deep"
srun "$d" samp PATHPROF_SAMPLE=1/1 -- $to "$T/alt-samp" $N "$d/samp.deep"
like "$(cat "$d/plain.out")" "^recovered $((2 * N)) of $((2 * N)), same depth every round: yes" "altstack, plain: every fault recovered"
for r in count blpp ksf samp; do
    hz_same_run "$d" $r "altstack, $r"
    hz_no_warning "$d" $r "altstack, $r"
    # One path from the entry to the back edge and one around it, per activation.
    a=$((N * ($(cat "$d/$r.deep" 2>/dev/null || echo -1) + 1)))
    is "$(hz_fn "$d/$r.json" depth | cut -d' ' -f3 | tr '\n' ' ')" "$a $a " \
        "altstack, $r: depth's two paths ran N * (deepest + 1) times each"
    # Its two sigsetjmp calls are cut points: 5 paths per round, each run
    # once (pathprof report --function round_thread lists them).
    is "$(hz_total "$d/$r.json" round_thread)" $((5 * N)) "altstack, $r: round_thread runs 5 paths per round"
done
is "$(sfacts "$d/blpp.json" exact) $(sfacts "$d/ksf.json" exact)" "true true" "altstack: stream profiles say exact"
ok "altstack, ksf: KIPF = brute force over the trace" perl "$HZ_ORACLE" check "$d/ksf.prof" "$d/ksf.trace"

# ---- ends of threads and processes (misc.c)
N=20000
hz_build misc "$HZ_DIR/misc.c" -O2 -pthread || BAIL_OUT "misc does not build"
S="blpp ksf"           # the stream runs
A="count blpp ksf samp" # all instrumented runs

hz_run cancel:misc -- cancel $N
d=$T/cancel
for r in $A; do
    c=$(sed -n 's/^cancelled: yes, calls \([0-9]*\)$/\1/p' "$d/$r.out")
    if [ -n "$c" ] && [ "$c" -ge $N ]; then pass "cancel, $r: cancelled after $N calls or more"
    else fail "cancel, $r: cancelled after $N calls or more" "$(cat "$d/$r.out" "$d/$r.err")"; fi
    is "$(hz_total "$d/$r.json" work)" "$c" "cancel, $r: work counted as often as it ran"
    hz_no_warning "$d" $r "cancel, $r"
done
for r in $S; do is "$(sfacts "$d/$r.json" exact)" true "cancel, $r: says exact"; done

for m in pexit sigmask; do
    hz_run $m:misc -- $m $N
    d=$T/$m
    for r in $A; do
        hz_same_run "$d" $r "$m, $r"
        hz_no_warning "$d" $r "$m, $r"
        is "$(hz_total "$d/$r.json" work)" $((5 * N)) "$m, $r: work ran 5 N times"
    done
    for r in $S; do same_profile "$d" $r count "$m, $r"; done
    F="main work chain1 chain2 chain3 pexit_thread pexit_mode"
    is "$(hz_fn "$d/samp.json" $F)" "$(hz_fn "$d/count.json" $F)" "$m: sampled at 1/1 = counting mode"
    ok "$m, ksf: KIPF = brute force over the trace" perl "$HZ_ORACLE" check "$d/ksf.prof" "$d/ksf.trace"
done

hz_run qexit:misc -- qexit 2000
d=$T/qexit
like "$(cat "$d/plain.out")" '^at_quick_exit ran, calls 2000$' "qexit, plain: the handler ran"
for r in $A; do
    hz_same_run "$d" $r "qexit, $r"
    ok "qexit, $r: no profile (docs/runtime.md, \"What is not counted\")" test ! -e "$d/$r.prof"
done

hz_run sigexit:misc -- sigexit $N
d=$T/sigexit
for r in $A; do
    is "$(cat "$d/$r.st")" 7 "sigexit, $r: exit(7) from the handler"
    # the call the signal interrupted ran its increment, not yet its path
    c=$(sed -n 's/^exit from the handler, calls \([0-9]*\)$/\1/p' "$d/$r.err")
    w=$(hz_total "$d/$r.json" work)
    if grep -q '^pathprof: error: producer thread 1 kept its event buffer locked at exit' "$d/$r.err"; then
        # The signal came inside the chunk swap: that chunk is lost, and said.
        is "$(sfacts "$d/$r.json" exact)" false "sigexit, $r: the handler interrupted the chunk swap, and the profile says not exact"
        continue
    fi
    hz_no_warning "$d" $r "sigexit, $r"
    if [ -n "$c" ] && { [ "$w" = "$c" ] || [ "$w" = $((c - 1)) ]; }; then
        pass "sigexit, $r: work counted as often as it ran ($w, $c calls begun)"
    else fail "sigexit, $r: work counted as often as it ran" "work $w, calls ${c:-?}"; fi
    case " $S " in *" $r "*) is "$(sfacts "$d/$r.json" exact)" true "sigexit, $r: says exact" ;; esac
done

d=$T/chdir
mkdir -p "$d/sub"
for r in count stream samp; do
    srun "$d" "cd-$r" "PATHPROF_OUT=rel-$r.prof" PATHPROF_SAMPLE=1/1 -- timeout -s KILL "$HZ_TIMEOUT" "$T/misc-$r" chdir $N
    is "$(cat "$d/cd-$r.st") $(cat "$d/cd-$r.out")" "0 calls $N" "chdir, $r: ran"
    "$PP_CLI" report --json "$d/rel-$r.prof" >"$d/cd-$r.json" 2>"$d/cd-$r.json.err"
    is "$(hz_total "$d/cd-$r.json" work)" $N "chdir, $r: a relative PATHPROF_OUT is where the program started, work ran N times"
done
is "$(ls "$d/sub")" "" "chdir: nothing written where the program went"

hz_run clone:misc -- clone $N
d=$T/clone
for r in $A; do
    hz_same_run "$d" $r "clone, $r"
    is "$(hz_fn "$d/$r.json" main)" "$(hz_fn "$d/count.json" main)" "clone, $r: the parent's own paths = counting mode's"
done
for r in count samp; do
    hz_no_warning "$d" $r "clone, $r"
    is "$(hz_total "$d/$r.json" work)" $((2 * N)) "clone, $r: work ran 2 N times, the child's counted in the shared counters"
done
for r in $S; do
    hz_exact_or_says "$d" $r count "clone, $r"
    like "$(cat "$d/$r.err")" '^pathprof: warning: [0-9]+ events came from a child process that shares this one.s memory' \
        "clone, $r: the warning says why"
done

# ---- build variants
SPECS=$("$PP_CLI" config --specs)
d=$T/builds
mkdir -p "$d"
pp_cc_plain "$d/ex-plain" "$HZ_DIR/exec_static.c" -O2 || BAIL_OUT "exec_static does not build"
for v in dyn static; do
    for m in count stream; do
        x=; [ $m = stream ] && x=$STREAM
        st=; [ $v = static ] && st=-static
        lab=${st:-dynamic}
        b=$d/ex-$v-$m
        # shellcheck disable=SC2086
        if ! "$PP_GCC" -specs="$SPECS" -O2 $st $x $PP_SAN_CFLAGS "$HZ_DIR/exec_static.c" -o "$b" >"$b.log" 2>&1; then
            fail "-specs $lab, $m: builds" "$(grep -v 'statically linked' "$b.log" | head -n 5)"
            continue
        fi
        for a in none path search; do
            arg=$a; [ $a = none ] && arg=
            srun "$d" "$v-$m-$a" -- timeout -s KILL "$HZ_TIMEOUT" "$b" $arg
            [ -e "$d/plain-$a.st" ] || srun "$d" "plain-$a" -- "$d/ex-plain" $arg
            same_but_warnings "$d" "$v-$m-$a" "plain-$a" "-specs $lab, $m, exec $a"
            hz_no_warning "$d" "$v-$m-$a" "-specs $lab, $m, exec $a"
            is "$(hz_total "$d/$v-$m-$a.json" step)" 111 "-specs $lab, $m, exec $a: the profile, written before the exec, holds step's 111 calls"
        done
    done
done

for v in "-fno-pie -no-pie" -fstack-protector-all "-D_FORTIFY_SOURCE=3" -fcf-protection=full -fno-omit-frame-pointer; do
    tag=${v%% *}
    # shellcheck disable=SC2086
    hz_build "v$tag" "$HZ_DIR/misc.c" -O2 -pthread $v || { fail "$v: misc builds"; continue; }
    hz_run "v$tag" -- pexit 5000
    dv=$T/v$tag
    for r in blpp ksf; do same_profile "$dv" $r count "$v, misc pexit, $r"; done
    is "$(hz_fn "$dv/samp.json" work main chain1)" "$(hz_fn "$dv/count.json" work main chain1)" "$v, misc pexit: sampled at 1/1 = counting mode"
    # shellcheck disable=SC2086
    hz_build "c$tag" "$HZ_DIR/coro.c" -O2 $v || { fail "$v: coro builds"; continue; }
    hz_run "c$tag" -- 300
    same_profile "$T/c$tag" blpp count "$v, coro, blpp"
done

# ---- an instrumented allocator in the executable
N=3000
hz_build alloc "$HZ_DIR/alloc_main.c" "$HZ_DIR/alloc.c" -O2 -pthread || BAIL_OUT "alloc does not build"
hz_run alloc -- $N
d=$T/alloc
for r in count blpp ksf samp; do
    hz_same_run "$d" $r "alloc, $r"
    is "$(hz_total "$d/$r.json" work)" $((10 * N)) "alloc, $r: work ran 10 N times"
done
for r in count samp; do hz_no_warning "$d" $r "alloc, $r"; done
is "$(hz_fn "$d/samp.json" work thread main)" "$(hz_fn "$d/count.json" work thread main)" \
    "alloc: sampled at 1/1 = counting mode, the program's own functions"
for r in blpp ksf; do
    is "$(hz_fn "$d/$r.json" work thread main)" "$(hz_fn "$d/count.json" work thread main)" \
        "alloc, $r: stream = counting mode, the program's own functions"
    # The allocator's calls made by the runtime itself are late.
    hz_exact_or_says "$d" $r count "alloc, $r"
done

# The analyzers allocate with glibc's own allocator (runtime/own-alloc.h):
# a producer that waits for its analyzer while it holds the allocator's
# lock (its probe inside the allocator) no longer waits for an analyzer
# spinning on that lock in its own calloc. Small chunks make the producers
# wait often; vpp=yes allocates a histogram group per new path and hung in
# 11 runs of 15 at 1/1 (and at exit, where the analyzers' close freed).
pp_cc "$T/alloc-vpp" "$HZ_DIR/alloc_main.c" -O2 -pthread -fplugin-arg-pathprof-vpp=yes "$HZ_DIR/alloc.c" ||
    BAIL_OUT "alloc does not build with vpp=yes"
for i in 1 2 3 4 5 6; do
    srun "$d" blpp64-$i PATHPROF_CHUNK=64 -- timeout -s KILL "$HZ_TIMEOUT" "$T/alloc-stream" $N
    srun "$d" vpp-$i PATHPROF_ANALYZER=vpp PATHPROF_SAMPLE=1/$(( i % 2 ? 1 : 100 )) -- \
        timeout -s KILL "$HZ_TIMEOUT" "$T/alloc-vpp" $N
done
hangs=0 vpp_ok=0
for i in 1 2 3 4 5 6; do
    [ "$(cat "$d/blpp64-$i.st")" = 0 ] && cmp -s "$d/blpp64-$i.out" "$d/plain.out" || hangs=$((hangs + 1))
    [ "$(cat "$d/vpp-$i.st")" = 0 ] && cmp -s "$d/vpp-$i.out" "$d/plain.out" &&
        "$PP_CLI" vpp "$d/vpp-$i.prof" >/dev/null 2>&1 && vpp_ok=$((vpp_ok + 1))
done
is "$hangs" 0 "alloc, blpp with 64-event chunks: 6 runs end, with the plain build's output"
is "$vpp_ok" 6 "alloc, vpp=yes at 1/1 and 1/100: 6 runs end, with the plain build's output and a profile pathprof vpp reads"

# ---- the same allocator preloaded, instrumented, under a plain and an instrumented program
pp_cc_plain "$T/main-plain" "$HZ_DIR/alloc_main.c" -O2 -pthread || BAIL_OUT "alloc_main does not build"
for m in count stream samp; do
    case $m in count) x= ;; stream) x=$STREAM ;; samp) x=$HZ_SAMPLING ;; esac
    # shellcheck disable=SC2086
    pp_cc "$T/liballoc-$m.so" "$HZ_DIR/alloc.c" -O2 -pthread -fPIC -shared $x &&
        pp_cc "$T/main-$m" "$HZ_DIR/alloc_main.c" -O2 -pthread $x || BAIL_OUT "the preloaded allocator does not build"
done
d=$T/pre
mkdir -p "$d"
srun "$d" plain -- "$T/main-plain" $N
for m in count stream samp; do
    for prog in plain $m; do
        # timeout, then env: the library is preloaded into the program only
        srun "$d" "$m-$prog" PATHPROF_SAMPLE=1/1 -- timeout -s KILL "$HZ_TIMEOUT" \
            env LD_PRELOAD="$T/liballoc-$m.so" "$T/main-$prog" $N
        hz_same_run "$d" "$m-$prog" "preloaded $m allocator, $prog program"
        like "$(hz_total "$d/$m-$prog.json" bump)" '^[1-9]' "preloaded $m allocator, $prog program: the allocator is profiled"
        [ $m = stream ] || hz_no_warning "$d" "$m-$prog" "preloaded $m allocator, $prog program"
    done
    is "$(hz_total "$d/$m-$m.json" work)" $((10 * N)) "preloaded $m allocator, $m program: work ran 10 N times"
done
is "$(hz_fn "$d/samp-samp.json" work thread main)" "$(hz_fn "$d/count-count.json" work thread main)" \
    "preloaded allocator: sampled at 1/1 = counting mode, the program's own functions"
is "$(hz_fn "$d/stream-stream.json" work thread main)" "$(hz_fn "$d/count-count.json" work thread main)" \
    "preloaded allocator: stream = counting mode, the program's own functions"
for prog in plain stream; do
    ex=$(sfacts "$d/stream-$prog.json" exact)
    if [ "$ex" = true ]; then hz_no_warning "$d" "stream-$prog" "preloaded stream allocator, $prog program, exact"
    else like "$(cat "$d/stream-$prog.err")" '^pathprof: warning: the profile is not exact' \
        "preloaded stream allocator, $prog program: says it is not exact"; fi
done
done_testing
