#!/usr/bin/env bash
# stream-fork.t - issue 3: fork in stream mode (tests/stream/fork_prog.c).
#
# docs/streaming.md section 5 and docs/runtime.md ("fork"): the child keeps
# profiling into its own %p profile and starts with the parent's counts
# at fork.  fork_prog forks 3 children one after the other while a second
# thread of the parent is blocked with events in its partly filled chunk;
# the last child leaves with _exit (documented loss: no profile).  Checked,
# with the default configuration and with 16-event chunks and 2 analyzer
# threads:
#   - same behaviour as the plain build (pids aside);
#   - one profile per process that exited: the parent's and 2 children's,
#     none for the _exit child;
#   - each profile's per-function totals are the ones fork_prog's
#     arguments give by construction (child k: the parent's calls up to its
#     fork, including the blocked thread's, plus its own);
#   - each profile equals the count-mode profile of the same process of
#     the same program (-fprofile-update=atomic build);
#   - each STREAM section is exact, with as many events as path counts.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
. "$(dirname "$0")/stream/lib.sh"
pp_require_build
pp_not_under_sanitizer thread "TSan cannot start threads in the child of a multithreaded fork (it dies, or with die_after_fork=0 reports a 'dup thread'), and the runtime restarts its analyzers there"
FT=$STREAM_DIR/ftotals.pl
SRC=$STREAM_DIR/fork_prog.c
P=1000 W1=2000 W2=3000 NF=3 C=100 Q=10
ARGS=($P $W1 $W2 $NF $C $Q x)

pp_cc_plain "$T/bin-plain" "$SRC" -O2 -pthread &&
    pp_cc "$T/bin-count" "$SRC" -O2 -pthread -fprofile-update=atomic &&
    pp_cc "$T/bin-stream" "$SRC" -O2 -pthread $STREAM ||
    BAIL_OUT "fork_prog does not build"

# forkrun NAME BIN [ENV...]: runs BIN in $T/NAME with PATHPROF_OUT=prof.%p
forkrun() {
    local name=$1 bin=$2; shift 2
    mkdir -p "$T/$name"
    (cd "$T/$name" && exec env PATHPROF_OUT="$T/$name/prof.%p" PATHPROF_QUIET=1 "$@" "$bin" "${ARGS[@]}" \
        >out 2>err </dev/null)
    echo $? >"$T/$name/st"
    sed 's/ [0-9][0-9]*\( _exit\)*$/ PID\1/; s/^parent [0-9]*$/parent PID/' "$T/$name/out" >"$T/$name/out.nopid"
}

forkrun plain "$T/bin-plain"
is "$(cat "$T/plain/st") $(tr '\n' ';' <"$T/plain/out.nopid")" \
    "0 child 0 PID;child 1 PID;child 2 PID _exit;parent PID;" "plain build: runs as designed"
forkrun count "$T/bin-count"

# pid NAME WHO: the pid fork_prog printed for WHO (parent, child0, child1, child2)
pid() {
    case $2 in
    parent) sed -n 's/^parent \([0-9]*\)$/\1/p' "$T/$1/out" ;;
    child*) sed -n "s/^child ${2#child} \\([0-9]*\\).*/\\1/p" "$T/$1/out" ;;
    esac
}
# expected totals of pre tw in_child in_parent, by construction
expect() {
    case $1 in
    parent) echo "$P $((W1 + W2)) 0 $((NF * Q))" ;;
    child*) local k=${1#child}; echo "$P $W1 $((C + k)) $((k * Q))" ;;
    esac
}

for cfg in "default:" "16-event chunks, 2 analyzers:PATHPROF_CHUNK=16 PATHPROF_CHUNKS=2 PATHPROF_ANALYZERS=2"; do
    label=${cfg%%:*} name=s$((++n))
    # shellcheck disable=SC2086
    forkrun "$name" "$T/bin-stream" ${cfg#*:}
    d=$T/$name
    if [ "$(cat "$d/st")" = 0 ] && cmp -s "$d/out.nopid" "$T/plain/out.nopid" && cmp -s "$d/err" "$T/plain/err"; then
        pass "$label: same exit status, stdout (pids aside) and stderr as the plain build"
    else
        fail "$label: same exit status, stdout (pids aside) and stderr as the plain build" \
            "status $(cat "$d/st")" "$(cat "$d/out")" "$(head -n 5 "$d/err")"
    fi
    quick=$(pid "$name" child2)
    want=
    for who in parent child0 child1; do want="$want prof.$(pid "$name" "$who")"; done
    is "$(cd "$d" && echo $(ls prof.* 2>/dev/null | sort))" "$(echo $(printf '%s\n' $want | sort))" \
        "$label: a profile for the parent and each child that exited, none for the _exit child ($quick)"
    for who in parent child0 child1; do
        p=$(pid "$name" "$who") cp=$(pid count "$who") t="$label, $who"
        if [ ! -s "$d/prof.$p" ]; then
            fail "$t: profile written" "$(ls "$d")"
            skip "$t: no profile" 3
            continue
        fi
        "$PP_CLI" report --json "$d/prof.$p" >"$d/$who.json" 2>"$d/$who.json.err"
        perl "$NORM" "$d/$who.json" >"$d/$who.norm"
        is "$(perl "$FT" "$d/$who.json" pre tw in_child in_parent)" "$(expect "$who")" \
            "$t: totals of pre tw in_child in_parent by construction"
        if [ -s "$T/count/prof.$cp" ]; then
            "$PP_CLI" report --json "$T/count/prof.$cp" >"$T/count/$who.json"
            perl "$NORM" "$T/count/$who.json" >"$T/count/$who.norm"
            ok "$t: profile = the count-mode profile of the same process" diff "$T/count/$who.norm" "$d/$who.norm"
        else
            fail "$t: profile = the count-mode profile of the same process" "no count-mode profile prof.$cp"
        fi
        pe=$(sfacts "$d/$who.json" paths_executed)
        is "$(sfacts "$d/$who.json" mode exact dropped late resync unknown events)" "stream true 0 0 0 0 $pe" \
            "$t: STREAM exact, events = path counts"
    done
done
done_testing
