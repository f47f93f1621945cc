#!/usr/bin/env bash
# stream-exec.t - issue 3: exec in stream mode (tests/stream/exec_prog.c).
#
# docs/streaming.md section 5: the runtime wraps execve and friends to
# write the profile before the image is replaced (runtime/exec-wrap.c:
# counting mode too).  exec_prog calls before_exec() N times while a
# second thread, blocked, still has events in its partly filled chunk,
# then execs itself as a second stage that calls after_exec() 2N times and
# writes its own profile (PATHPROF_OUT changed in the new environment).
# For each exec function (execve, execv, execvp, execvpe, execl, execlp,
# execle, fexecve), checked:
#   - same exit status, stdout and stderr as the plain build;
#   - the first image's profile holds exactly before_exec N and the
#     thread's tw W, nothing of the second stage; the second image's
#     holds exactly after_exec 2N and nothing of the first; both exact
#     STREAM sections with events = path counts;
#   - both equal the count-mode build's profiles of the same run.
# Also: exec of another instrumented program (its profile = its
# count-mode profile when run alone); an exec that fails because the file
# does not exist (no early write: the profile, written at exit, has the
# calls after the failure too); an exec the kernel refuses after the
# profile was written (ENOEXEC: exec-wrap.c says the rest of the run is
# not profiled, with a warning).  And programs started without replacing
# the caller (vfork + execve, posix_spawn, system; tests/stream/
# spawn_prog.c): the caller's profile is complete and the child's its own.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
FT=$STREAM_DIR/ftotals.pl
SRC=$STREAM_DIR/exec_prog.c
N=20000 W=10000
FUNCS=(before_exec tw after_exec after_fail)

pp_cc_plain "$T/bin-plain" "$SRC" -O2 -pthread &&
    pp_cc "$T/bin-count" "$SRC" -O2 -pthread -fprofile-update=atomic &&
    pp_cc "$T/bin-stream" "$SRC" -O2 -pthread $STREAM &&
    pp_cc "$T/lb-stream" "$PP_PROGRAMS/loop_branch.c" -O2 $STREAM &&
    pp_cc "$T/lb-count" "$PP_PROGRAMS/loop_branch.c" -O2 ||
    BAIL_OUT "exec_prog or loop_branch does not build"

# xrun DIR NAME BIN HOW [TARGET]: first image's profile NAME.pre, second NAME.post
xrun() {
    local d=$1 name=$2 bin=$3 how=$4 target=${5:-}
    mkdir -p "$d"
    (cd "$d" && exec env PATHPROF_OUT="$d/$name.pre" PATHPROF_QUIET=1 "$bin" "$how" $N $W "$d/$name.post" \
        ${target:+"$target"} >"$d/$name.out" 2>"$d/$name.err" </dev/null)
    echo $? >"$d/$name.st"
    local p
    for p in pre post; do
        if [ -e "$d/$name.$p" ]; then
            "$PP_CLI" report --json "$d/$name.$p" >"$d/$name.$p.json" 2>&1 &&
                perl "$NORM" "$d/$name.$p.json" >"$d/$name.$p.norm"
        fi
    done
}

# profile_is D NAME.pre|post TOTALS TAG [COUNT-NORM]: totals of FUNCS,
# exact STREAM, and equal to COUNT-NORM when given
profile_is() {
    local d=$1 p=$2 want=$3 tag=$4 cnorm=${5:-}
    if [ ! -s "$d/$p.json" ]; then
        fail "$tag: profile written" "$(ls "$d")" "$(head -n 5 "$d/${p%.*}.err")"
        return 1
    fi
    is "$(perl "$FT" "$d/$p.json" "${FUNCS[@]}")" "$want" "$tag: totals of ${FUNCS[*]} by construction"
    is "$(sfacts "$d/$p.json" mode exact dropped late resync unknown) $(markers_ok "$d/$p.json")" \
        "stream true 0 0 0 0 ok" "$tag: STREAM exact, events = path counts (+ markers)"
    [ -n "$cnorm" ] && ok "$tag: = the count-mode profile" diff "$cnorm" "$d/$p.norm"
}

for how in execve execv execvp execvpe execl execlp execle fexecve; do
    d=$T/$how
    xrun "$d" plain "$T/bin-plain" "$how"
    xrun "$d" count "$T/bin-count" "$how"
    xrun "$d" stream "$T/bin-stream" "$how"
    is "$(cat "$d/plain.st") $(cat "$d/plain.out")" "0 stage2" "$how: the plain build execs its second stage"
    same_behaviour "$d" stream plain "$how: stream"
    profile_is "$d" stream.pre "$N $W 0 0" "$how: first image" "$d/count.pre.norm"
    profile_is "$d" stream.post "0 0 $((2 * N)) 0" "$how: second image" "$d/count.post.norm"
done

# another instrumented program
d=$T/other
xrun "$d" plain "$T/bin-plain" execv "$T/lb-stream"
xrun "$d" stream "$T/bin-stream" execv "$T/lb-stream"
srun "$d" alone -- "$T/lb-count"
same_behaviour "$d" stream plain "exec of another program"
profile_is "$d" stream.pre "$N $W 0 0" "exec of another program: first image"
if [ -s "$d/stream.post.norm" ] && [ -s "$d/alone.norm" ]; then
    ok "exec of another program: its profile = its count-mode profile run alone" diff "$d/alone.norm" "$d/stream.post.norm"
    is "$(sfacts "$d/stream.post.json" mode exact)" "stream true" "exec of another program: its STREAM exact"
else
    fail "exec of another program: its profile written" "$(ls "$d")"
fi

# the file does not exist: nothing written early, the run goes on
d=$T/missing
xrun "$d" plain "$T/bin-plain" missing
xrun "$d" count "$T/bin-count" missing
xrun "$d" stream "$T/bin-stream" missing
is "$(cat "$d/plain.st")" 3 "missing file: the plain build goes on after the failed exec (status 3)"
same_behaviour "$d" stream plain "missing file: stream"
profile_is "$d" stream.pre "$N $W 0 $N" "missing file: the profile at exit" "$d/count.pre.norm"
ok "missing file: no second profile" test ! -e "$d/stream.post"

# the kernel refuses an executable file (ENOEXEC): written before the exec
d=$T/noexec
mkdir -p "$d"
printf 'not a program\n' >"$d/garbage"
chmod +x "$d/garbage"
xrun "$d" plain "$T/bin-plain" execv "$d/garbage"
xrun "$d" stream "$T/bin-stream" execv "$d/garbage"
is "$(cat "$d/stream.st") $(cat "$d/stream.out")" "$(cat "$d/plain.st") $(cat "$d/plain.out")" \
    "refused exec: same status and stdout as the plain build"
is "$(grep -v '^pathprof: ' "$d/stream.err")" "$(cat "$d/plain.err")" "refused exec: the program's own stderr unchanged"
like "$(grep '^pathprof: ' "$d/stream.err")" "^pathprof: warning: exec of $d/garbage failed .*not profiled" \
    "refused exec: a warning says the rest of the run is not profiled"
profile_is "$d" stream.pre "$N $W 0 0" "refused exec: the profile written before the exec"

# vfork, posix_spawn, system: the caller goes on profiling
if pp_cc_plain "$T/sp-plain" "$STREAM_DIR/spawn_prog.c" -O2 && pp_cc "$T/sp-stream" "$STREAM_DIR/spawn_prog.c" -O2 $STREAM; then
    for how in vfork spawn system; do
        if [ "$how" = vfork ] && [ "${PP_SANITIZE:-}" = thread ]; then
            # TSan's vfork is a fork, and a multithreaded fork's child
            # cannot start threads under TSan (docs/install.md).
            skip "vfork under TSan: TSan forks, and no threads start in the child" 5
            continue
        fi
        d=$T/sp-$how
        mkdir -p "$d"
        srun "$d" plain -- "$T/sp-plain" $how "$d/child.prof"
        srun "$d" stream -- "$T/sp-stream" $how "$d/child.prof"
        same_behaviour "$d" stream plain "$how"
        FUNCS=(before after)
        profile_is "$d" stream "20000 20000" "$how: the caller's profile is complete"
        "$PP_CLI" report --json "$d/child.prof" >"$d/child.json" 2>/dev/null
        profile_is "$d" child "0 500" "$how: the child's profile is its own"
    done
else
    fail "spawn_prog builds"
fi
done_testing
