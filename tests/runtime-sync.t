#!/usr/bin/env bash
# PATHPROF_SYNC (docs/runtime.md): by default a profile is written to a
# temporary file and renamed over PATHPROF_OUT without fsync, as gcov
# writes its .gcda files (a rename is atomic for every reader and for a
# process killed at any moment; fsync only adds durability across a crash
# of the machine, at several milliseconds a process: docs/performance.md,
# "Exit of a short process"). PATHPROF_SYNC=1 fsyncs the file and its
# directory. With PATHPROF_ACCUMULATE=1 an appended part follows the
# setting, while the merge that rewrites a file holding other runs' counts
# always fsyncs. The trace analyzer's file follows the setting as a
# profile does. The system calls are seen by strace; the profiles must
# hold every run's counts whatever the setting.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
command -v strace >/dev/null || BAIL_OUT "strace is not installed (make check installs it)"
SRC=$TAP_ROOT/tests/merge/work.c
cd "$T" || exit 1
pp_cc "$T/count" "$SRC" -O2 && pp_cc "$T/stream" "$SRC" -O2 -fplugin-arg-pathprof-mode=stream ||
    BAIL_OUT "cannot build work.c"

# syscalls OUT ENV...: runs $BIN (default count) with ENV under strace;
# prints the number of fsync calls and of renames, as "fsync N rename M"
syscalls() {
    local out=$1; shift
    # LeakSanitizer cannot run under ptrace: off for these runs only.
    env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" PATHPROF_OUT="$out" "$@" strace -f -qq -o "$T/st" -e trace=fsync,fdatasync,rename,renameat,renameat2 \
        "$T/${BIN:-count}" 3000 >/dev/null 2>"$T/err" || { echo "failed: $(cat "$T/err")"; return; }
    echo "fsync $(grep -cE 'f(data)?sync\(' "$T/st") rename $(grep -c 'rename' "$T/st")"
}

# step() runs 3000 times a run: the number of runs a profile holds.
runs() { "$PP_CLI" report --json "$1" | perl -MJSON::PP -e '
    my ($f) = grep { $_->{name} eq "step" } @{ decode_json(join "", <STDIN>)->{functions} };
    my $t = $f ? $f->{total} : 0; print $t % 3000 ? "not a multiple: $t" : $t / 3000' ; }

is "$(syscalls "$T/a.pp")" "fsync 0 rename 1" "default: the profile is renamed into place, no fsync"
is "$(runs "$T/a.pp")" 1 "default: the profile reads and holds the run"
is "$(syscalls "$T/b.pp" PATHPROF_SYNC=1)" "fsync 2 rename 1" \
    "PATHPROF_SYNC=1: the file and its directory are fsynced, then renamed"
is "$(runs "$T/b.pp")" 1 "PATHPROF_SYNC=1: the profile reads and holds the run"
is "$(syscalls "$T/c.pp" PATHPROF_SYNC=0)" "fsync 0 rename 1" "PATHPROF_SYNC=0 is the default"

# Accumulating: the first run writes the file, the next two append parts
# (docs/runtime.md, "Many processes"), the fourth merges all into one.
got=""
for i in 1 2 3 4; do got="$got $(syscalls "$T/acc.pp" PATHPROF_ACCUMULATE=1)"; done
is "$got" " fsync 0 rename 1 fsync 0 rename 0 fsync 0 rename 0 fsync 2 rename 1" \
    "accumulating: the first write and the appended parts without fsync, the merge over other runs' counts with it"
is "$(runs "$T/acc.pp")" 4 "accumulating: the profile holds all four runs"
got=""
for i in 1 2; do got="$got $(syscalls "$T/accs.pp" PATHPROF_ACCUMULATE=1 PATHPROF_SYNC=1)"; done
is "$got" " fsync 2 rename 1 fsync 1 rename 0" "accumulating with PATHPROF_SYNC=1: the appended part is fsynced too"
is "$(runs "$T/accs.pp")" 2 "accumulating with PATHPROF_SYNC=1: both runs counted"

# The trace analyzer's file follows the setting too: by default renamed
# into place without fsync, with PATHPROF_SYNC=1 fsynced with its
# directory (the profile's two fsyncs, then the trace's two).
BIN=stream
is "$(syscalls "$T/t.pp" PATHPROF_ANALYZER=blpp,trace PATHPROF_TRACE="$T/t.trace")" "fsync 0 rename 2" \
    "trace, default: the profile and the trace renamed into place, no fsync"
ok "trace, default: the trace reads" "$PP_CLI" dump "$T/t.trace"
is "$(syscalls "$T/ts.pp" PATHPROF_ANALYZER=blpp,trace PATHPROF_TRACE="$T/ts.trace" PATHPROF_SYNC=1)" \
    "fsync 4 rename 2" "trace, PATHPROF_SYNC=1: the profile, the trace and their directory fsynced"
ok "trace, PATHPROF_SYNC=1: the trace reads" "$PP_CLI" dump "$T/ts.trace"
is "$(runs "$T/ts.pp")" 1 "trace, PATHPROF_SYNC=1: the profile holds the run"
BIN=

PATHPROF_SYNC=yes PATHPROF_OUT="$T/bad.pp" "$T/count" 3000 >/dev/null 2>"$T/bad.err"
like "$(cat "$T/bad.err")" 'PATHPROF_SYNC.*yes.*0 or 1' "a bad value is refused naming the variable and what it takes"
done_testing
