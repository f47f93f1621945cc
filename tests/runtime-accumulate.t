#!/usr/bin/env bash
# PATHPROF_ACCUMULATE=1 (docs/runtime.md, "Many processes"): 50 processes
# of one program run at once and add their profiles into one, exactly 50
# times a single run's counts (Ball-Larus in counting and stream mode,
# k-iteration paths too); processes killed at random moments, and one
# killed while it holds the lock, never tear the profile nor stop the
# others, and their temporaries are cleared away; a damaged profile or
# another build's is kept and this run's goes beside it; PATHPROF_OUT's %h
# and %t.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
ORACLE=$TAP_ROOT/tests/merge/counts.pl
SRC=$TAP_ROOT/tests/merge/work.c
cd "$T" || exit 1
pp_cc "$T/count" "$SRC" -O2 && pp_cc "$T/stream" "$SRC" -O2 -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "cannot build work.c"
# A rebuild of one compilation after an edit (the same file, the same
# command): "another build", where the same file compiled two ways is not
# (tests/accumulate-variants.t).
mkdir -p "$T/w" && cp "$SRC" "$T/w/work.c" && pp_cc "$T/before-edit" "$T/w/work.c" -O2 &&
    sed -i 's/^#ifdef VARIANT$/#if 1/' "$T/w/work.c" && pp_cc "$T/edited" "$T/w/work.c" -O2 ||
    BAIL_OUT "cannot build the edited work.c"

# parallel N OUT PROG ARGS...: N processes at once, accumulating into OUT;
# their stderr in $T/par.err, how many exited 0 in $T/par.ok
parallel() {
    local n=$1 out=$2 i; shift 2
    : >"$T/par.err"
    for i in $(seq 1 "$n"); do
        PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$out "$@" >/dev/null 2>>"$T/par.err" && echo ok &
    done >"$T/par.ok"
    wait
}

for mode in count stream; do
    env=()
    [ $mode = stream ] && env=(PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=4)
    env "${env[@]}" PATHPROF_OUT="$T/$mode.one" "$T/$mode" 3000 >/dev/null
    "$PP_CLI" report --json "$mode.one" >"$mode.one.json"
    parallel 50 "$T/$mode.acc" env "${env[@]}" "$T/$mode" 3000
    is "$(grep -c ok par.ok):$(cat par.err)" "50:" "$mode: 50 processes at once, all exit 0, none says anything"
    "$PP_CLI" report --json "$mode.acc" >"acc-$mode.json" 2>"$mode.err"
    is "$?:$(cat "$mode.err")" "0:" "$mode: the accumulated profile reads, no warning"
    is "$(perl "$ORACLE" bl "acc-$mode.json")" "$(perl "$ORACLE" bl x50 "$mode.one.json")" \
        "$mode: every path count is exactly 50 times a single run's"
    if [ $mode = stream ]; then
        "$PP_CLI" report --k --json --min-length 1 "$mode.one" >k.one.json
        "$PP_CLI" report --k --json --min-length 1 "$mode.acc" >k.acc.json
        is "$(perl "$ORACLE" k k.acc.json)" "$(perl "$ORACLE" k x50 k.one.json)" \
            "stream: every k-iteration path count is exactly 50 times a single run's"
    fi
done
ok "only the profile and its lock file are left" \
    test "$(ls count.acc* stream.acc* | tr '\n' ' ')" = "count.acc count.acc.lock stream.acc stream.acc.lock "

# step() runs 3000 times a run: the number of runs a profile holds.
runs() { "$PP_CLI" report --json "$1" | perl -MJSON::PP -e '
    my ($f) = grep { $_->{name} eq "step" } @{ decode_json(join "", <STDIN>)->{functions} };
    my $t = $f ? $f->{total} : 0; print $t % 3000 ? "not a multiple: $t" : $t / 3000' ; }

# Killed at random moments (before, during or after their write): the
# profile is always whole, and holds between the survivors and everyone.
torn=0 wrong=0
for round in 1 2 3; do
    rm -f kill.acc
    pids=()
    for i in $(seq 1 30); do
        PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/kill.acc "$T/count" 3000 $((RANDOM % 200)) >/dev/null 2>/dev/null &
        pids+=($!)
    done
    killed=0
    for p in "${pids[@]}"; do
        if [ $((RANDOM % 2)) = 0 ]; then
            sleep "0.0$((RANDOM % 10))"
            kill -9 "$p" 2>/dev/null && killed=$((killed + 1))
        fi
    done
    alive=0
    for p in "${pids[@]}"; do wait "$p" && alive=$((alive + 1)); done
    if ! "$PP_CLI" report kill.acc >/dev/null 2>kill.err; then
        torn=$((torn + 1)); diag "round $round: $(cat kill.err)"
    else
        n=$(runs kill.acc)
        note "round $round: $alive of 30 exited, $killed kill signals sent, the profile holds $n runs"
        case $n in *[!0-9]*) wrong=$((wrong + 1)) ;; *) [ "$n" -ge "$alive" ] && [ "$n" -le 30 ] || wrong=$((wrong + 1)) ;; esac
    fi
done
is "$torn" 0 "processes killed at random moments: the profile always reads (3 rounds of 30)"
is "$wrong" 0 "and holds whole runs, at least every survivor's"

# Killed while it holds the lock: the others go on, nothing is lost.
rm -f lock.acc
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/lock.acc "$T/count" 3000 >/dev/null
PATHPROF_ACCUMULATE=1 PATHPROF_TEST_ACCUMULATE_DELAY_MS=10000 PATHPROF_OUT=$T/lock.acc "$T/count" 3000 >/dev/null 2>&1 &
victim=$!
sleep 1 # its 3000 steps take milliseconds: by now it holds the lock, for 10 s
kill -9 "$victim"; wait "$victim" 2>/dev/null
# It died halfway through appending its profile (the delay is there):
# readers skip the torn part, saying so.
"$PP_CLI" report lock.acc >/dev/null 2>lock.err
like "$(cat lock.err)" "^pathprof: lock.acc: warning: its last [0-9]+ bytes are an addition that did not finish" \
    "a torn append at the end: the reader warns"
is "$(runs lock.acc 2>/dev/null)" 1 "a torn append at the end: the profile reads without it"
start=$(date +%s)
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/lock.acc "$T/count" 3000 >/dev/null 2>lock.err
is "$?:$(cat lock.err)" "0:" "the next process, after one was killed holding the lock: exit 0, silent"
ok "it did not wait for the dead one's delay" test $(( $(date +%s) - start )) -lt 5
is "$(runs lock.acc)" 2 "the profile holds the first and the last run, not the killed one"

# One after the other: each appends its profile as one more part until
# the parts after the first outgrow twice the first, then merges them all
# (docs/format.md, "Parts"); every reader sums the parts.
# (perfctl/lib/pp-parts.pl: perfctl merges a file of several before its
# stats scripts read it)
parts() { perl "$TAP_ROOT/perfctl/lib/pp-parts.pl" "$1"; }
rm -f seq.acc
got=
for i in 1 2 3 4 5 6; do
    PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/seq.acc "$T/count" 3000 >/dev/null
    got="$got $(parts seq.acc):$(runs seq.acc)"
done
is "$got" " 1:1 2:2 3:3 1:4 2:5 3:6" \
    "six runs one after the other: appended, appended, merged into one, ...; every run counted"
"$PP_CLI" merge -o seq.merged seq.acc && "$PP_CLI" report --json seq.merged >seq.merged.json &&
    "$PP_CLI" report --json seq.acc >seq.acc.json
is "$(parts seq.merged):$(perl "$ORACLE" bl seq.merged.json)" "1:$(perl "$ORACLE" bl seq.acc.json)" \
    "pathprof merge of a file of parts: one part, the same counts"

# A damaged second part: readers refuse the file naming the part, and the
# next process keeps it as it is and puts its profile beside it.
rm -f two.acc
for i in 1 2; do PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/two.acc "$T/count" 3000 >/dev/null; done
size=$(stat -c %s two.acc)
printf '\377' | dd of=two.acc bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
cp two.acc two.before
"$PP_CLI" report two.acc >/dev/null 2>two.err
is "$?:$(grep -c '' two.err)" "2:1" "a damaged second part: the report fails with one line"
like "$(cat two.err)" "part 2 of 2 \(bytes [0-9]+ to $size\) cannot be added to the others: checksum mismatch" \
    "a damaged second part: the line names the part and what is wrong"
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/two.acc "$T/count" 3000 >/dev/null 2>two.err &
pid=$!; wait $pid
like "$(cat two.err)" "^pathprof: warning: profile not added to $T/two.acc: it is not a profile this run can be added to \(part 2 of 2: checksum mismatch .*\); this run's profile is in $T/two.acc.$pid$" \
    "a damaged second part: the next process says where its profile went"
ok "a damaged second part: the file is left as it was" cmp -s two.acc two.before

# A damaged profile at the name: kept as it is, this run's beside it.
printf 'not a profile\n' >dam.acc
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/dam.acc "$T/count" 3000 >/dev/null 2>dam.err &
pid=$!; wait $pid
like "$(cat dam.err)" "^pathprof: warning: profile not added to $T/dam.acc: it is not a profile this run can be added to \(not a pathprof profile .*\); this run's profile is in $T/dam.acc.$pid$" \
    "a damaged profile: a warning says where this run's went"
is "$(cat dam.acc)" "not a profile" "the damaged file is left as it was"
is "$(runs "dam.acc.$pid")" 1 "this run's profile is beside it"

# Another build's profile (the program rebuilt after an edit): the same.
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/build.acc "$T/before-edit" 3000 >/dev/null
cp build.acc build.before
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/build.acc "$T/edited" 3000 >/dev/null 2>build.err &
pid=$!; wait $pid
like "$(cat build.err)" "^pathprof: warning: profile not added to $T/build.acc: function step \(.*work.c\) differs between the accumulated profile and this run \(pid $pid\)" \
    "another build: a warning names the function"
ok "the accumulated profile is left as it was" cmp -s build.acc build.before
ok "this run's profile is beside it" "$PP_CLI" report "build.acc.$pid"

# Temporaries of writers killed before their rename: the next process
# to take the lock removes those whose PID is gone and that are a minute
# old, and keeps a young one and a living process's.
rm -f tmp.acc*
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/tmp.acc "$T/count" 3000 >/dev/null
sh -c 'exit 0' & dead=$!; wait $dead
printf 'half a profile' >"tmp.acc.tmp.$dead.0"
printf 'half a profile' >"tmp.acc.tmp.$dead.1"
printf 'half a profile' >"tmp.acc.tmp.$$.0"
printf 'not one of ours' >"tmp.acc.tmp.$dead.x"
touch -d '2 minutes ago' "tmp.acc.tmp.$dead.0" "tmp.acc.tmp.$$.0" "tmp.acc.tmp.$dead.x"
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$T/tmp.acc "$T/count" 3000 >/dev/null 2>tmp.err
is "$?:$(cat tmp.err)" "0:" "with temporaries beside the profile: exit 0, silent"
# (both lists sorted alike: ls would order the PIDs as text, by locale)
is "$(ls tmp.acc* | LC_ALL=C sort | tr '\n' ' ')" \
    "$(printf '%s\n' tmp.acc tmp.acc.lock "tmp.acc.tmp.$$.0" "tmp.acc.tmp.$dead.1" "tmp.acc.tmp.$dead.x" | LC_ALL=C sort | tr '\n' ' ')" \
    "a dead writer's old temporary is gone; a young one, a living process's and a name not of the form stay"
is "$(runs tmp.acc)" 2 "the profile holds both runs"

# %h and %t.
PATHPROF_OUT="$T/pat.%h.%t.%p.%%" "$T/count" 10 >/dev/null &
pid=$!; wait $pid
host=$(hostname | tr / _)
f=$(ls "$T" | grep "^pat\.")
like "$f" "^pat\.$host\.[0-9]{10}\.$pid\.%$" "PATHPROF_OUT=pat.%h.%t.%p.%%: host name, time, pid ($f)"
t=${f#pat.$host.}; t=${t%%.*}
ok "%t is the time of the write" test $(( $(date +%s) - t )) -lt 60
done_testing
