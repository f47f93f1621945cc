#!/usr/bin/env bash
# writer-faults.t - the runtime's writers (profile and trace) against every
# way the place they write to can fail or be the wrong kind of file: a
# missing, read-only or full directory, a file size limit, a device node,
# symbolic links (to a file, dangling, chains, loops), a FIFO (read, not
# read, read then abandoned), a directory, a /proc link to the program's own
# stdout, a name longer than a message line, concurrent writers.
#
# For each, in counting mode and in stream mode (blpp and trace analyzers):
# the program's exit status and its stdout are those of a run without the
# fault, no temporary file stays anywhere, what the name was (a device, a
# link, a FIFO, a directory) is still what it was, and the profile (and the
# trace) are exactly those of the run without the fault, wherever the
# messages say they went.  Where no location can hold them (a file size
# limit), the messages say so and why.
#
# Device nodes, full and read-only file systems are private: a tmpfs in a
# private mount namespace (unshare -m), skipped with the reason where that
# is not permitted.  The system's /dev is never written.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build

SRC=$TAP_ROOT/tests/writer-faults/prog.c
pp_cc "$T/count" "$SRC" -O2 || BAIL_OUT "cannot build $SRC in counting mode"
pp_cc "$T/stream" "$SRC" -O2 -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "cannot build $SRC in stream mode"
N=3000 # iterations: a 1.6 MB trace, over the trace writer's 1 MiB buffer
mkdir "$T/fb" "$T/ns"

# run MODE NAME [VAR=VALUE...]: the program of MODE (count, stream) with
# $T/fb as TMPDIR (the fallback location) and the variables given; its
# stdout, stderr and status go to $T/NAME.{stdout,err,rc}.
run() {
    local mode=$1 name=$2; shift 2
    local extra=()
    [ "$mode" = stream ] && extra=(PATHPROF_ANALYZER=blpp,trace)
    env TMPDIR="$T/fb" PATHPROF_VERBOSE=1 "${extra[@]}" "$@" "$T/$mode" "$N" >"$T/$name.stdout" 2>"$T/$name.err"
    echo $? >"$T/$name.rc"
}

# The profile as the CLI reads it, less what differs between runs.
prof_text() {
    "$PP_CLI" report --top 1000 "$1" 2>&1 | grep -Ev '^(pid|written) ' | sed 's/; producers blocked .*//'
}
# The trace's events, less its header line (pid, time).
trace_text() { "$PP_CLI" dump --raw "$1" 2>&1 | tail -n +2; }

run count ref-count PATHPROF_OUT="$T/ref-count.out"
run stream ref-stream PATHPROF_OUT="$T/ref-stream.out" PATHPROF_TRACE="$T/ref-stream.trace"
for m in count stream; do
    [ "$(cat "$T/ref-$m.rc")" = 7 ] && grep -q '^sum ' "$T/ref-$m.stdout" ||
        BAIL_OUT "the $m reference run failed: $(cat "$T/ref-$m.err")"
    prof_text "$T/ref-$m.out" >"$T/ref-$m.prof"
    grep -q '^paths ' "$T/ref-$m.prof" || BAIL_OUT "the $m reference profile is unreadable"
done
trace_text "$T/ref-stream.trace" >"$T/ref-stream.tr"
cmp -s "$T/ref-count.stdout" "$T/ref-stream.stdout" || BAIL_OUT "stdout differs between modes"

# fallback NAME: the file the "profile written to X instead of" warning names
fallback() { sed -n 's/^pathprof: warning: profile written to \(.*\) instead of .*/\1/p' "$T/$1.err"; }
# trace_fallback NAME: the file a warning says the trace went to instead
trace_fallback() { sed -n 's/^pathprof: warning: cannot .* trace .*; writing it to \(.*\) instead$/\1/p' "$T/$1.err"; }

# same_run MODE NAME WHAT: status and stdout of the reference run
same_run() {
    is "$(cat "$T/$2.rc")" 7 "$3: exit status unchanged ($1)" || diag "$(cat "$T/$2.err")"
    if cmp -s "$T/$2.stdout" "$T/ref-$1.stdout"; then pass "$3: stdout unchanged ($1)"
    else fail "$3: stdout unchanged ($1)" "got: $(head -c 300 "$T/$2.stdout")"; fi
}

# same_profile MODE FILE WHAT: FILE is the reference run's profile
same_profile() {
    local got
    got=$(prof_text "$2")
    if [ -n "$2" ] && [ "$got" = "$(cat "$T/ref-$1.prof")" ]; then pass "$3: the whole profile ($1)"
    else fail "$3: the whole profile ($1)" "file: '$2'" "$(printf '%s\n' "$got" | head -n 5)"; fi
}

same_trace() {
    local got
    got=$(trace_text "$1")
    if [ -n "$1" ] && [ "$got" = "$(cat "$T/ref-stream.tr")" ]; then pass "$2: the whole trace"
    else fail "$2: the whole trace" "file: '$1'" "$(printf '%s\n' "$got" | head -n 5)"; fi
}

# no_temporaries WHAT: no *.tmp.* file anywhere under $T
no_temporaries() {
    local left
    left=$(find "$T" -name '*.tmp.*' 2>/dev/null)
    is "$left" "" "$1: no temporary file left"
    find "$T" -name '*.tmp.*' -delete 2>/dev/null
}

# both_fall_back MODE NAME WHAT: the profile (and the trace) went to $T/fb, whole
both_fall_back() {
    local fb tf
    fb=$(fallback "$2")
    like "$fb" "^$T/fb/pathprof\\.[0-9]+\\.out\$" "$3: a warning says where the profile went ($1)" ||
        diag "$(cat "$T/$2.err")"
    same_profile "$1" "$fb" "$3"
    if [ "$1" = stream ]; then
        tf=$(trace_fallback "$2")
        like "$tf" "^$T/fb/pathprof\\.[0-9]+\\.trace\$" "$3: a warning says where the trace went" ||
            diag "$(cat "$T/$2.err")"
        same_trace "$tf" "$3"
    fi
    rm -f "$T"/fb/*
}

# ------------------------------------------------------------ directories

for m in count stream; do
    run $m missing-$m PATHPROF_OUT="$T/missing/p.out" PATHPROF_TRACE="$T/missing/p.trace"
    same_run $m missing-$m "missing directory"
    like "$(cat "$T/missing-$m.err")" "^pathprof: error: cannot write profile $T/missing/p.out: No such file or directory \\(could not create a temporary file beside it\\)$" \
        "missing directory: the error names the file, the errno and the step ($m)"
    both_fall_back $m missing-$m "missing directory"
    no_temporaries "missing directory ($m)"

    mkdir -p "$T/adir"
    run $m dir-$m PATHPROF_OUT="$T/adir" PATHPROF_TRACE="$T/adir"
    same_run $m dir-$m "directory as target"
    like "$(cat "$T/dir-$m.err")" "^pathprof: error: cannot write profile $T/adir: Is a directory \\(a directory is never replaced: name a file in it\\)$" \
        "directory: refused, saying why ($m)"
    both_fall_back $m dir-$m "directory as target"
    is "$(ls -A "$T/adir")" "" "directory: still an empty directory ($m)"
    no_temporaries "directory ($m)"
done

# ------------------------------------------------------------------- links

mkdir "$T/links" "$T/real"
for m in count stream; do
    rm -f "$T"/links/* "$T"/real/*
    echo old >"$T/real/p.out"; echo old >"$T/real/p.trace"
    ln -s ../real/p.out "$T/links/p.out"; ln -s ../real/p.trace "$T/links/p.trace"
    run $m link-$m PATHPROF_OUT="$T/links/p.out" PATHPROF_TRACE="$T/links/p.trace"
    same_run $m link-$m "link to a file"
    [ -L "$T/links/p.out" ] && [ "$(readlink "$T/links/p.out")" = ../real/p.out ] &&
        pass "link to a file: still the same link ($m)" ||
        fail "link to a file: still the same link ($m)" "$(ls -l "$T/links")"
    same_profile $m "$T/real/p.out" "link to a file: its target replaced"
    [ $m = stream ] && same_trace "$T/real/p.trace" "link to a file: its target replaced"
    no_temporaries "link to a file ($m)"

    ln -s "$T/real/new.out" "$T/links/dangling.out"; ln -s "$T/real/new.trace" "$T/links/dangling.trace"
    run $m dangling-$m PATHPROF_OUT="$T/links/dangling.out" PATHPROF_TRACE="$T/links/dangling.trace"
    same_run $m dangling-$m "dangling link"
    [ -L "$T/links/dangling.out" ] && pass "dangling link: still a link ($m)" ||
        fail "dangling link: still a link ($m)" "$(ls -l "$T/links")"
    same_profile $m "$T/real/new.out" "dangling link: its target created"
    [ $m = stream ] && same_trace "$T/real/new.trace" "dangling link: its target created"

    # c1 -> c2 (absolute) -> c3 -> ../real/chain.out (relative to links/)
    ln -s c2 "$T/links/c1"; ln -s "$T/links/c3" "$T/links/c2"; ln -s ../real/chain.out "$T/links/c3"
    ln -s t2 "$T/links/t1"; ln -s ../real/chain.trace "$T/links/t2"
    run $m chain-$m PATHPROF_OUT="$T/links/c1" PATHPROF_TRACE="$T/links/t1"
    same_run $m chain-$m "chain of links"
    same_profile $m "$T/real/chain.out" "chain of links: the last target"
    [ $m = stream ] && same_trace "$T/real/chain.trace" "chain of links: the last target"
    is "$(find "$T/links" -type l | wc -l)" 9 "chain of links: every link still a link ($m)"

    ln -s l2 "$T/links/l1"; ln -s l1 "$T/links/l2"
    run $m loop-$m PATHPROF_OUT="$T/links/l1" PATHPROF_TRACE="$T/links/l2"
    same_run $m loop-$m "loop of links"
    like "$(cat "$T/loop-$m.err")" "^pathprof: error: cannot write profile $T/links/l1: Too many levels of symbolic links \\(could not resolve its symbolic links\\)$" \
        "loop of links: refused, saying why ($m)"
    both_fall_back $m loop-$m "loop of links"
    no_temporaries "links ($m)"
done

# A link in /proc (as /dev/stdout is) reaches the program's own stdout.  To
# a file, a rename would take the file from the program: refused.  To a
# pipe, the profile goes down the pipe, before the program's buffered text.
ln -s /proc/self/fd/1 "$T/links/stdout"
for m in count stream; do
    run $m procfile-$m PATHPROF_OUT="$T/links/stdout" PATHPROF_TRACE="$T/links/stdout"
    same_run $m procfile-$m "stdout to a file, as PATHPROF_OUT"
    like "$(cat "$T/procfile-$m.err")" "^pathprof: error: cannot write profile $T/links/stdout: Operation not supported \\(it is a link in /proc to a file the program has open" \
        "stdout to a file: refused, saying why ($m)"
    both_fall_back $m procfile-$m "stdout to a file"
done
PATHPROF_OUT=$T/links/stdout PATHPROF_QUIET=1 "$T/count" $N 2>"$T/procpipe.err" | cat >"$T/procpipe.got"
plen=$(stat -c %s "$T/ref-count.out")
head -c "$plen" "$T/procpipe.got" >"$T/procpipe.out"
same_profile count "$T/procpipe.out" "stdout to a pipe, as PATHPROF_OUT: down the pipe"
is "$(tail -c +$((plen + 1)) "$T/procpipe.got")" "$(cat "$T/ref-count.stdout")" \
    "stdout to a pipe: then the program's own output, whole"
no_temporaries "/proc links"

# ------------------------------------------------------------------- FIFOs

mkfifo "$T/fifo.out" "$T/fifo.trace"
for m in count stream; do
    # Bounded: a writer that replaces the FIFO never opens it.
    timeout 30 cat "$T/fifo.out" >"$T/fifo-$m.got" &
    r1=$!
    if [ $m = stream ]; then timeout 30 cat "$T/fifo.trace" >"$T/fifo-$m.tgot" & fi
    r2=$!
    run $m fifo-$m PATHPROF_OUT="$T/fifo.out" PATHPROF_TRACE="$T/fifo.trace"
    wait $r1
    [ $m = stream ] && wait $r2
    same_run $m fifo-$m "FIFO with a reader"
    like "$(cat "$T/fifo-$m.err")" "pathprof: profile written to $T/fifo.out$" "FIFO with a reader: written to it ($m)"
    same_profile $m "$T/fifo-$m.got" "FIFO with a reader: the reader got"
    [ $m = stream ] && same_trace "$T/fifo-$m.tgot" "FIFO with a reader: the reader got"
    [ -p "$T/fifo.out" ] && [ -p "$T/fifo.trace" ] && pass "FIFO with a reader: still FIFOs ($m)" ||
        fail "FIFO with a reader: still FIFOs ($m)" "$(ls -l "$T")"
done

# Nobody reads: waited for (2 s), not forever, then the fallback.
for m in count stream; do
    run $m noreader-$m PATHPROF_OUT="$T/fifo.out" PATHPROF_TRACE="$T/fifo.trace"
    same_run $m noreader-$m "FIFO nobody reads"
    like "$(cat "$T/noreader-$m.err")" "^pathprof: error: cannot write profile $T/fifo.out: No such device or address \\(could not open it: no process reads it" \
        "FIFO nobody reads: the error says so ($m)"
    both_fall_back $m noreader-$m "FIFO nobody reads"
done

# A forked child, its parent's trace going down a FIFO: the child cannot
# copy the parent's events (they are gone down the FIFO) nor share it, so
# it writes no trace, says so, and its profile is whole.
if [ "${PP_SANITIZE:-}" = thread ]; then
    # The child restarts the analyzer threads, which TSan does not allow
    # after a multithreaded fork (docs/install.md).
    skip "fork under TSan: no threads in a multithreaded fork's child" 4
else
timeout 30 cat "$T/fifo.trace" >"$T/forkfifo.tgot" &
r2=$!
env PATHPROF_ANALYZER=blpp,trace TMPDIR="$T/fb" PATHPROF_OUT="$T/forkfifo.%p.out" \
    PATHPROF_TRACE="$T/fifo.trace" "$T/stream" $N fork >"$T/forkfifo.stdout" 2>"$T/forkfifo.err"
is "$?" 7 "fork, trace down a FIFO: exit status unchanged"
wait $r2
like "$(cat "$T/forkfifo.err")" "^pathprof: warning: this forked process \\(pid [0-9]+\\) writes no trace: its parent writes trace $T/fifo.trace through a device or FIFO" \
    "fork, trace down a FIFO: the child says it writes no trace"
"$PP_CLI" dump "$T/forkfifo.tgot" >/dev/null 2>"$T/forkfifo.dump.err"
is "$?:$(cat "$T/forkfifo.dump.err")" "0:" "fork, trace down a FIFO: the parent's trace is whole"
child=$(sed -n 's/.*this forked process (pid \([0-9]*\)).*/\1/p' "$T/forkfifo.err")
is "$(prof_text "$T/forkfifo.$child.out" | grep '^paths ')" "$(grep '^paths ' "$T/ref-stream.prof")" \
    "fork, trace down a FIFO: the child's profile has the parent's paths up to the fork and its own"
rm -f "$T"/forkfifo.*.out "$T"/fb/*
fi

# The reader takes one byte and leaves, the pipe (4 KiB) full: the write
# fails with EPIPE, and SIGPIPE must not kill the program.
read_one_byte() {
    timeout 30 perl -e 'use Fcntl; my ($f) = @ARGV;
        sysopen(my $rw, $f, O_RDWR) or die; fcntl($rw, 1031, 4096); # F_SETPIPE_SZ
        sysopen(my $r, $f, O_RDONLY | O_NONBLOCK) or die;
        open(my $ready, ">", "$f.ready"); close $ready;
        # $rw stays open: without a writer, read would see end of file.
        my $flags = fcntl($r, F_GETFL, 0); fcntl($r, F_SETFL, $flags & ~O_NONBLOCK);
        sysread($r, my $b, 1); exit 0' "$1"
}
for m in count stream; do
    rm -f "$T/fifo.out.ready"
    read_one_byte "$T/fifo.out" &
    r1=$!
    for _ in $(seq 100); do [ -e "$T/fifo.out.ready" ] && break; sleep 0.05; done
    run $m epipe-$m PATHPROF_OUT="$T/fifo.out" PATHPROF_TRACE="$T/epipe.trace"
    wait $r1
    same_run $m epipe-$m "FIFO reader gone mid-write (SIGPIPE)"
    like "$(cat "$T/epipe-$m.err")" "^pathprof: error: cannot write profile $T/fifo.out: Broken pipe \\(could not write\\)$" \
        "FIFO reader gone: EPIPE said ($m)"
    fb=$(fallback epipe-$m)
    same_profile $m "$fb" "FIFO reader gone: fallback"
    rm -f "$T"/fb/* "$T/epipe.trace"
done
no_temporaries "FIFOs"

# -------------------------------------------------------- file size limit

# Limited (ulimit -f 8: 8 KiB) below the profile (15 KiB): every place
# fails alike, which the messages say; nothing killed, nothing left.
for m in count stream; do
    (ulimit -f 8 && run $m fsize-$m PATHPROF_OUT="$T/fsize.out" PATHPROF_TRACE="$T/fsize.trace")
    same_run $m fsize-$m "file size limit below the profile"
    like "$(cat "$T/fsize-$m.err")" "^pathprof: error: cannot write profile $T/fsize.out: File too large \\(could not write\\)$" \
        "file size limit: EFBIG said ($m)"
    like "$(cat "$T/fsize-$m.err")" "^pathprof: error: no profile written: every location failed \\(see above\\); the process's file size limit \\(ulimit -f\\) is 8192 bytes, the profile needs more$" \
        "file size limit: the last line says what to change ($m)"
    is "$(ls -A "$T/fb")" "" "file size limit: nothing left in the fallback location ($m)"
    no_temporaries "file size limit ($m)"
done
like "$(cat "$T/fsize-stream.err")" "^pathprof: error: cannot write trace $T/fsize.trace: File too large \\(could not write" \
    "file size limit: the trace's EFBIG said"
# Above the profile (15 KiB), below the trace (1.6 MB): the profile is whole.
(ulimit -f 200 && run stream fsize2 PATHPROF_OUT="$T/fsize2.out" PATHPROF_TRACE="$T/fsize2.trace")
same_run stream fsize2 "file size limit below the trace"
same_profile stream "$T/fsize2.out" "file size limit below the trace: the profile"
like "$(cat "$T/fsize2.err")" "^pathprof: error: cannot write trace $T/fsize2.trace: File too large" \
    "file size limit below the trace: said"
rm -f "$T"/fb/*
no_temporaries "file size limit"

# ------------------------------------------------------------ long names

# 2,600 characters of directories that do not exist: the message keeps the
# errno text and the fallback location, and shortens the name in the middle.
long=$T/$(printf 'a%.0s' $(seq 200))
for _ in $(seq 12); do long=$long/$(printf 'b%.0s' $(seq 200)); done
for m in count stream; do
    run $m long-$m PATHPROF_OUT="$long/p.out" PATHPROF_TRACE="$long/p.trace"
    same_run $m long-$m "a 2,600-character name"
    like "$(cat "$T/long-$m.err")" "^pathprof: error: cannot write profile $T/a+/b[b/]*\\.\\.\\.[b/]+/p\\.out: No such file or directory \\(could not create a temporary file beside it\\)$" \
        "long name: shortened in the middle, the errno and the step kept ($m)"
    is "$(awk 'length($0) > 4095' "$T/long-$m.err" | wc -l)" 0 "long name: every line within 4096 bytes ($m)"
    [ $m = stream ] && like "$(cat "$T/long-$m.err")" "^pathprof: warning: cannot create trace $T/a+/b[b/]*\\.\\.\\.[b/]+/p\\.trace \\(No such file or directory: could not create a temporary file beside it\\); writing it to $T/fb/pathprof\\.[0-9]+\\.trace instead$" \
        "long name: the trace's warning whole"
    both_fall_back $m long-$m "long name"
done

# ------------------------------------------------------ concurrent writers

# Eight processes, one name: always one whole profile, no temporary left.
for m in count stream; do
    pids=()
    for i in 1 2 3 4 5 6 7 8; do
        run $m conc-$m-$i PATHPROF_OUT="$T/conc.out" PATHPROF_TRACE="$T/conc.trace" &
        pids+=($!)
    done
    wait "${pids[@]}"
    st=
    for i in 1 2 3 4 5 6 7 8; do
        st=$st$(cat "$T/conc-$m-$i.rc")$(cmp -s "$T/conc-$m-$i.stdout" "$T/ref-$m.stdout" && echo =)
    done
    is "$st" "7=7=7=7=7=7=7=7=" "concurrent writers: every status and stdout unchanged ($m)"
    same_profile $m "$T/conc.out" "concurrent writers: one whole profile"
    [ $m = stream ] && same_trace "$T/conc.trace" "concurrent writers: one whole trace"
    no_temporaries "concurrent writers ($m)"
done

# -------------------------------- private devices and file systems (root)

# ns SCRIPT: SCRIPT in a private mount namespace where $T/ns is a fresh
# tmpfs (mount options in $NS_OPTS); run() and $T are available in it.
export -f run
export T N
ns() {
    unshare -m --propagation private bash -c \
        "mount -t tmpfs -o ${NS_OPTS:-size=1m} pathprof-test '$T/ns' && $1"
}
if ! ns 'true' 2>"$T/ns.err"; then
    skip "no private mount namespace with a tmpfs here (unshare -m, mount: $(head -c 200 "$T/ns.err" | tr '\n' ' '))" 76
    done_testing
fi

# A private /dev/null (1,3): written through, never replaced.
devices=(count stream)
if ! ns "mknod '$T/ns/probe' c 1 3" 2>"$T/ns.err"; then
    skip "no device nodes in a private tmpfs here (mknod: $(head -c 200 "$T/ns.err" | tr '\n' ' '))" 40
    devices=()
fi
for m in "${devices[@]}"; do
    ns "mknod -m 666 '$T/ns/null' c 1 3 &&
        run $m null-$m PATHPROF_OUT='$T/ns/null' PATHPROF_TRACE='$T/ns/null' &&
        stat -c '%F %t,%T' '$T/ns/null' >'$T/null-$m.after' && ls -A '$T/ns' >'$T/null-$m.ls'"
    same_run $m null-$m "device node (null)"
    is "$(cat "$T/null-$m.after" 2>/dev/null)" "character special file 1,3" "null: still the device ($m)"
    is "$(cat "$T/null-$m.ls" 2>/dev/null)" "null" "null: nothing else in its directory ($m)"
    like "$(cat "$T/null-$m.err")" "^pathprof: profile written to $T/ns/null$" "null: the profile went to it ($m)"
    is "$(grep -c 'error\|warning' "$T/null-$m.err")" 0 "null: no error, no warning ($m)"
done

# A private /dev/full (1,7): ENOSPC on the device, so the fallback.
for m in "${devices[@]}"; do
    ns "mknod -m 666 '$T/ns/full' c 1 7 &&
        run $m full-$m PATHPROF_OUT='$T/ns/full' PATHPROF_TRACE='$T/ns/full' &&
        stat -c '%F %t,%T' '$T/ns/full' >'$T/full-$m.after'"
    same_run $m full-$m "device node (full)"
    is "$(cat "$T/full-$m.after" 2>/dev/null)" "character special file 1,7" "full: still the device ($m)"
    like "$(cat "$T/full-$m.err")" "^pathprof: error: cannot write profile $T/ns/full: No space left on device \\(could not write\\)$" \
        "full: ENOSPC said ($m)"
    both_fall_back $m full-$m "device node (full)"
done

# A block device: refused (never opened, never replaced).
for m in "${devices[@]}"; do
    ns "mknod -m 600 '$T/ns/blk' b 7 0 &&
        run $m blk-$m PATHPROF_OUT='$T/ns/blk' PATHPROF_TRACE='$T/ns/blk' &&
        stat -c '%F %t,%T' '$T/ns/blk' >'$T/blk-$m.after'"
    same_run $m blk-$m "block device"
    is "$(cat "$T/blk-$m.after" 2>/dev/null)" "block special file 7,0" "block device: still the device ($m)"
    like "$(cat "$T/blk-$m.err")" "^pathprof: error: cannot write profile $T/ns/blk: Operation not supported \\(it is a block device, which a profile never replaces: name a regular file\\)$" \
        "block device: refused, saying why ($m)"
    both_fall_back $m blk-$m "block device"
done

# A full file system (an 8 KiB tmpfs; the profile is 15 KiB, the trace
# 1.6 MB): the temporary is removed, the profile goes to the fallback, the
# trace moves there with what it held so far.
for m in count stream; do
    NS_OPTS=size=8k ns "run $m disk-$m PATHPROF_OUT='$T/ns/p.out' PATHPROF_TRACE='$T/ns/p.trace' &&
        ls -A '$T/ns' >'$T/disk-$m.ls'"
    same_run $m disk-$m "full disk"
    like "$(cat "$T/disk-$m.err")" "^pathprof: error: cannot write profile $T/ns/p.out: No space left on device \\(could not write\\)$" \
        "full disk: ENOSPC said ($m)"
    is "$(cat "$T/disk-$m.ls" 2>/dev/null)" "" "full disk: no temporary left on it ($m)"
    both_fall_back $m disk-$m "full disk"
done

# Accumulating where one profile fits and two do not (a 20 KiB tmpfs, a
# 15 KiB profile): the second run's append (runtime/profile-accumulate.c)
# fails with ENOSPC, the file is cut back to the first run's bytes, and
# the second run's profile goes to the fallback, whole.
NS_OPTS=size=20k ns "run count acc1 PATHPROF_ACCUMULATE=1 PATHPROF_OUT='$T/ns/a.out' &&
    cp '$T/ns/a.out' '$T/acc1.prof' &&
    run count acc2 PATHPROF_ACCUMULATE=1 PATHPROF_OUT='$T/ns/a.out' &&
    cp '$T/ns/a.out' '$T/acc2.prof' && ls -A '$T/ns' >'$T/acc.ls'"
same_run count acc2 "full disk, accumulating"
like "$(cat "$T/acc2.err")" "^pathprof: error: cannot write profile $T/ns/a.out: No space left on device \\(could not append this run\\)$" \
    "full disk, accumulating: ENOSPC said, at the append"
ok "full disk, accumulating: the profile on disk is cut back to the first run's bytes" \
    cmp -s "$T/acc1.prof" "$T/acc2.prof"
ok "full disk, accumulating: and reads" "$PP_CLI" report "$T/acc2.prof"
is "$(cat "$T/acc.ls" 2>/dev/null | tr '\n' ' ')" "a.out a.out.lock " "full disk, accumulating: nothing else left on it"
both_fall_back count acc2 "full disk, accumulating"

# A read-only file system.
for m in count stream; do
    NS_OPTS=ro,size=1m ns "run $m ro-$m PATHPROF_OUT='$T/ns/p.out' PATHPROF_TRACE='$T/ns/p.trace'"
    same_run $m ro-$m "read-only directory"
    like "$(cat "$T/ro-$m.err")" "^pathprof: error: cannot write profile $T/ns/p.out: Read-only file system \\(could not create a temporary file beside it\\)$" \
        "read-only: EROFS said ($m)"
    both_fall_back $m ro-$m "read-only directory"
done
# Every location fails: /tmp itself read-only (a private tmpfs over it),
# TMPDIR unset.  The test directory, under /tmp, is reached through the
# working directory, which keeps the directory under the mount; the
# runtime library through a copy of it there.
mkdir "$T/lib"
cp "$PP_LIBDIR"/libpathprof.so* "$T/lib/"
for m in count stream; do
    ns "cd '$T' && mount -t tmpfs -o ro pathprof-tmp /tmp &&
        env -u TMPDIR LD_LIBRARY_PATH=lib PATHPROF_ANALYZER=blpp,trace PATHPROF_OUT=lost/p.out \
            PATHPROF_TRACE=lost/p.trace ./$m $N >lost-$m.stdout 2>lost-$m.err; echo \$? >lost-$m.rc"
    same_run $m lost-$m "every location fails"
    like "$(cat "$T/lost-$m.err")" "^pathprof: error: cannot write profile /tmp/pathprof\\.[0-9]+\\.out: Read-only file system \\(could not create a temporary file beside it\\)$" \
        "every location fails: the fallback's error ($m)"
    like "$(cat "$T/lost-$m.err")" "^pathprof: error: no profile written: every location failed \\(see above\\); set PATHPROF_OUT or TMPDIR to a writable place$" \
        "every location fails: the last line says what to change ($m)"
done
like "$(cat "$T/lost-stream.err")" "^pathprof: error: cannot create trace $T/lost/p.trace: .*, nor in the temporary directory\\); no trace will be written; set PATHPROF_TRACE or TMPDIR to a writable place$" \
    "every location fails: the trace's error says what to change"
no_temporaries "private file systems"

done_testing
