#!/usr/bin/env bash
# stream-sanitizers.t - issue 3: stream-mode programs under
# ThreadSanitizer and under AddressSanitizer + UBSan.
#
# Two ways to link each sanitized, instrumented program (-O1):
#   usual:    with build/lib/libpathprof.so, as a user would (the runtime
#             itself is not sanitized);
#   built-in: with the runtime, buffers and analyzers compiled into the
#             program under the same sanitizer (their accesses and their
#             happens-before annotations, ringbuf/hb-annotate.h, visible).
# Programs (tests/stream/): mt_loops (threads in loops; also 2 analyzers
# and 16-event chunks), many_threads (600 threads), exec_prog (execv with a
# thread holding a partial chunk), drop_prog (drop policy, slow analyzer,
# setjmp markers), exit_thread (exit() from a thread while others emit),
# fork_prog (ASan only: TSan cannot start threads in the child of a
# multithreaded fork, and the runtime restarts its analyzers there).
# Checked for each run: no sanitizer report; exit status and stdout as the
# sanitized plain build; and the profile still right: = the sanitized
# count-mode profile (mt_loops, many_threads), totals by construction
# (exec, fork, exit), dropped + consumed = emitted (drop).
#
# TSan with the usual link reports false races (below, TSAN_USUAL): they
# are TODO.  Each such report costs
# TSan much time per chunk word, so those runs use 16-event chunks (with
# the default 8192, mt_loops alone takes ~20 s).  TSan's exit status on a
# report is 0 here (exitcode=0): the reports are checked on stderr.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
FT=$STREAM_DIR/ftotals.pl
pp_flags

declare -A SAN=(
    [tsan]="-fsanitize=thread"
    [asan]="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
)
# what a sanitizer report looks like on stderr
REPORT='WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|ThreadSanitizer: reported|SUMMARY: [A-Za-z]*Sanitizer'
# LSan at exit of a forked child lists the parent's threads (also without pathprof)
FORK_NOISE='^==[0-9]+==Running thread [0-9]+ was not suspended\. False leaks are possible\.$'

echo 'int main(void){return 0;}' >"$T/probe.c"
# usable FLAVOUR: the compiler and the machine can build and run it
usable() {
    # shellcheck disable=SC2086
    "$PP_GCC" ${SAN[$1]} "$T/probe.c" -o "$T/probe-$1" >/dev/null 2>&1 && "$T/probe-$1" >/dev/null 2>&1
}

# runtime objects FLAVOUR: $T/rt-FLAVOUR/*.o
rt_objects() {
    local fl=$1 o=$T/rt-$1 f
    mkdir -p "$o"
    for f in "$TAP_ROOT"/runtime/*.c "$TAP_ROOT"/ringbuf/*.c "$TAP_ROOT"/analyzers/*.c "$TAP_ROOT"/analyzers/*/*.c; do
        printf '%s\n' "$f"
    done | xargs -P2 -I{} sh -c 'd=$(dirname "${1#"$4"/}" | tr / -); exec "$2" -std=c11 -D_GNU_SOURCE -g -O1 -pthread $3 \
        -I"$4/runtime" -I"$4/ringbuf" -I"$4/analyzers" -c "$1" -o "$5/$d-$(basename "$1" .c).o"' \
        sh {} "$PP_GCC" "${SAN[$fl]}" "$TAP_ROOT" "$o" >"$o.log" 2>&1
}

# build FLAVOUR NAME SRC [FLAGS]: $T/FLAVOUR/NAME-{plain,count,usual,builtin}
build() {
    local fl=$1 name=$2 src=$3; shift 3
    local b=$T/$fl/$name san
    mkdir -p "$T/$fl"
    read -ra san <<<"${SAN[$fl]}"
    pp_cc_plain "$b-plain" "$src" -O1 -pthread "${san[@]}" "$@" &&
        pp_cc "$b-count" "$src" -O1 -pthread -fprofile-update=atomic "${san[@]}" "$@" &&
        pp_cc "$b-usual" "$src" -O1 -pthread $STREAM "${san[@]}" "$@" &&
        "$PP_GCC" $_pp_cflags $STREAM -g -O1 -pthread "${san[@]}" "$@" -c "$src" -o "$b.o" >"$b.o.log" 2>&1 &&
        "$PP_GCC" -g -O1 -pthread "${san[@]}" -rdynamic "$b.o" "$T/rt-$fl"/*.o -o "$b-builtin" \
            -ldl -lurcu-memb -lck >"$b-builtin.log" 2>&1
}

# clean_err FILE: stderr without the runtime's lines and the fork noise
clean_err() { grep -Ev "^pathprof: |$FORK_NOISE" "$1"; }

# no_report TAG ERRFILE [KNOWN-SUMMARY-REGEX TODO-REASON]: no sanitizer
# report; when every report's SUMMARY matches KNOWN, a TODO with REASON
no_report() {
    local tag=$1 err=$2 known=${3:-} reason=${4:-}
    if ! grep -Eq "$REPORT" "$err"; then
        pass "$tag: no sanitizer report"
        return 0
    fi
    local sums
    sums=$(grep '^SUMMARY: ' "$err" | sort -u)
    if [ -n "$known" ] && [ -n "$sums" ] && ! printf '%s\n' "$sums" | grep -Evq "$known"; then
        todo "$tag: no sanitizer report" "$reason"
        note "$(printf "%s\n" "$sums" | sort -u)"
        return 0
    fi
    fail "$tag: no sanitizer report" "$(grep -E -A14 'WARNING:|ERROR:|runtime error' "$err" | head -n 40)"
}

# run_pair FLAVOUR NAME LINK STATUS [ENV...] -- ARGS: run LINK (usual,
# builtin) and the plain build; same status (STATUS) and stdout
run_pair() {
    local fl=$1 name=$2 link=$3 st=$4; shift 4
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    local d=$T/$fl/run-$name-$link b=$T/$fl/${name%%_*}
    mkdir -p "$d"
    srun "$d" plain -- "$b-plain" "$@"
    srun "$d" stream "${envs[@]}" -- "$b-$link" "$@"
    RUN=$d
    is "$(cat "$d/stream.st") $(cat "$d/plain.st")" "$st $st" "$fl $link $name ${envs[*]}: exit status $st, as the plain build"
    ok "$fl $link $name ${envs[*]}: same stdout as the plain build" cmp "$d/plain.out" "$d/stream.out"
}

# With the usual link, libpathprof.so's synchronisation is invisible to
# TSan while the probe's stores into the chunks are instrumented: chunks
# handed back (memset in pp_channel_give_back) and channels recycled from
# a finished thread to a new one (probe store against probe store) are
# reported.  The built-in link is the real race check; here any report is
# TODO (shown as diagnostics).
TSAN_USUAL='^SUMMARY: ThreadSanitizer: '
TSAN_USUAL_WHY='libpathprof.so is not built with TSan: its chunk hand-overs are invisible to TSan, the probe stores into chunks are not (false races)'
TSAN_EXIT='SUMMARY: ThreadSanitizer: data race .*ringbuf/channel\.c:[0-9]+ in pp_chunk_scan$'
TSAN_EXIT_WHY='exit flush: pp_chunk_scan reads a still-running producer'"'"'s chunk while its probe writes it (unannotated race)'

# In a sanitizer suite (mk/sanitize.mk) the other flavour cannot load its
# libpathprof.so (ASan and TSan exclude each other).
case ",$PP_SANITIZE," in
    *,address,*) other=tsan ;;
    *,thread,*) other=asan ;;
    *) other= ;;
esac
for fl in tsan asan; do
    if [ "$fl" = "$other" ]; then
        skip "$fl: this SANITIZE=$PP_SANITIZE suite's libpathprof.so cannot be linked into a $fl program" 1
        continue
    fi
    if ! usable $fl; then
        skip "$fl: the compiler or the machine cannot build and run it" 1
        continue
    fi
    if ! rt_objects $fl; then
        fail "$fl: the runtime builds under the sanitizer" "$(head -n 20 "$T/rt-$fl.log")"
        continue
    fi
    S=$STREAM_DIR
    [ $fl = tsan ] && export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}exitcode=0"
    build $fl mt "$S/mt_loops.c" && build $fl many "$S/many_threads.c" && build $fl exec "$S/exec_prog.c" &&
        build $fl drop "$S/drop_prog.c" && build $fl exit "$S/exit_thread.c" -Wno-prio-ctor-dtor &&
        { [ $fl = tsan ] || build $fl fork "$S/fork_prog.c"; } ||
        { fail "$fl: the test programs build" "$(cat "$T/$fl"/*.log | head -n 20)"; continue; }
    pass "$fl: the runtime and the test programs build"
    mkdir -p "$T/$fl/ref"
    srun "$T/$fl/ref" mt -- "$T/$fl/mt-count"
    srun "$T/$fl/ref" many -- "$T/$fl/many-count" 30
    srun "$T/$fl/ref" drop -- "$T/$fl/drop-count" 3 30000

    for link in usual builtin; do
        known= why= cfgs=("" "PATHPROF_ANALYZERS=2 PATHPROF_CHUNK=16 PATHPROF_CHUNKS=2")
        unset PATHPROF_CHUNK
        if [ $fl/$link = tsan/usual ]; then
            known=$TSAN_USUAL why=$TSAN_USUAL_WHY cfgs=("PATHPROF_ANALYZERS=2 PATHPROF_CHUNK=16 PATHPROF_CHUNKS=2")
            export PATHPROF_CHUNK=16
        fi

        for cfg in "${cfgs[@]}"; do
            # shellcheck disable=SC2086
            run_pair $fl mt_loops $link 0 $cfg --
            no_report "$fl $link mt_loops $cfg" "$RUN/stream.err" "$known" "$why"
            same_profile "$RUN" stream ../ref/mt "$fl $link mt_loops $cfg" &&
                is "$(sfacts "$RUN/stream.json" exact)" true "$fl $link mt_loops $cfg: STREAM exact"
        done

        run_pair $fl many_threads $link 0 PATHPROF_ANALYZERS=2 -- 30
        no_report "$fl $link many_threads" "$RUN/stream.err" "$known" "$why"
        same_profile "$RUN" stream ../ref/many "$fl $link many_threads" &&
            is "$(sfacts "$RUN/stream.json" exact producers)" "true 601" "$fl $link many_threads: STREAM exact, 601 producers"

        d=$T/$fl/run-exec-$link
        mkdir -p "$d"
        (cd "$d" && PATHPROF_OUT=$d/pre PATHPROF_QUIET=1 exec "$T/$fl/exec-$link" execv 20000 10000 "$d/post" \
            >"$d/out" 2>"$d/err" </dev/null)
        is "$? $(cat "$d/out")" "0 stage2" "$fl $link exec_prog execv: runs its second stage"
        no_report "$fl $link exec_prog execv" "$d/err" "$known" "$why"
        if [ -s "$d/pre" ] && [ -s "$d/post" ]; then
            "$PP_CLI" report --json "$d/pre" >"$d/pre.json"
            "$PP_CLI" report --json "$d/post" >"$d/post.json"
            is "$(perl "$FT" "$d/pre.json" before_exec tw after_exec) / $(perl "$FT" "$d/post.json" before_exec tw after_exec)" \
                "20000 10000 0 / 0 0 40000" "$fl $link exec_prog execv: both images' totals by construction"
        else
            fail "$fl $link exec_prog execv: both images write a profile" "$(ls "$d")"
        fi

        run_pair $fl drop_prog $link 0 PATHPROF_POLICY=drop PATHPROF_TEST_ANALYZER_DELAY_NS=100000 PATHPROF_CHUNK=64 \
            PATHPROF_CHUNKS=2 -- 3 30000
        no_report "$fl $link drop_prog (drop)" "$RUN/stream.err" "$known" "$why"
        if [ -s "$RUN/stream.json" ]; then
            read -r ev dr ex <<<"$(sfacts "$RUN/stream.json" events dropped exact)"
            is "$((ev + dr)) $ex" "$(sfacts "$T/$fl/ref/drop.json" paths_executed) false" \
                "$fl $link drop_prog (drop): consumed + dropped = emitted, not exact"
        else
            fail "$fl $link drop_prog (drop): profile written"
        fi

        kexit=$known wexit=$why
        [ $fl/$link = tsan/builtin ] && kexit=$TSAN_EXIT wexit=$TSAN_EXIT_WHY
        d=$T/$fl/run-exit-$link
        mkdir -p "$d"
        srun "$d" stream -- "$T/$fl/exit-$link" 1000 2 5000
        is "$(cat "$d/stream.st")" 5 "$fl $link exit_thread: exit status 5 from the exiting thread"
        no_report "$fl $link exit_thread" "$d/stream.err" "$kexit" "$wexit"
        if [ -s "$d/stream.json" ]; then
            is "$(perl "$FT" "$d/stream.json" pre ex)" "1000 5000" "$fl $link exit_thread: work done before exit exact"
        else
            fail "$fl $link exit_thread: profile written"
        fi

        if [ $fl = asan ]; then
            d=$T/$fl/run-fork-$link
            mkdir -p "$d"
            (cd "$d" && PATHPROF_OUT=$d/p.%p PATHPROF_QUIET=1 exec "$T/$fl/fork-$link" 1000 2000 3000 3 100 10 x \
                >"$d/out" 2>"$d/err" </dev/null)
            is "$? $(sed 's/ [0-9]*\( _exit\)*$/\1/' "$d/out" | tr '\n' ';')" "0 child 0;child 1;child 2 _exit;parent;" \
                "$fl $link fork_prog: runs as designed"
            no_report "$fl $link fork_prog" "$d/err"
            is "$(clean_err "$d/err")" "" "$fl $link fork_prog: nothing else on stderr"
            parent=$(sed -n 's/^parent //p' "$d/out") c1=$(sed -n 's/^child 1 //p' "$d/out")
            if [ -s "$d/p.$parent" ] && [ -s "$d/p.$c1" ]; then
                "$PP_CLI" report --json "$d/p.$parent" >"$d/parent.json"
                "$PP_CLI" report --json "$d/p.$c1" >"$d/c1.json"
                is "$(perl "$FT" "$d/parent.json" pre tw in_child in_parent) / $(perl "$FT" "$d/c1.json" pre tw in_child in_parent)" \
                    "1000 5000 0 30 / 1000 2000 101 10" "$fl $link fork_prog: parent's and child 1's totals by construction"
            else
                fail "$fl $link fork_prog: the parent and child 1 write profiles" "$(ls "$d")"
            fi
        fi
    done
    unset PATHPROF_CHUNK
done
done_testing
