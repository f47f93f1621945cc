#!/usr/bin/env bash
# The trace analyzer's writer (analyzers/trace/trace.c, analyzers/trace/sink.c) driven like
# the runtime drives it, against a fake runtime (tests/trace-writer/): the
# file it writes is read back with `pathprof dump` and compared with the
# trace tests/trace/mktrace.pl writes independently from docs/format.md;
# several analyzer threads at once (exact words, in order, per thread);
# fork (the child's trace has the parent's events up to the fork); events
# after the trace was written; a directory that cannot be written.
# Built with ASan and UBSan, and with TSan for the threads, when gcc can.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require
grep -q 'fn_base' "$TAP_ROOT/runtime/analyzer-services.h" 2>/dev/null ||
    plan skip_all "runtime/analyzer-services.h has no pp_tu_info.fn_base yet"

mkdir "$T/blobs"
perl "$TAP_ROOT/tests/trace/mktrace.pl" --blobs "$T/blobs" "$T/ref.trace" || BAIL_OUT "mktrace.pl failed"
src=("$TAP_ROOT"/tests/trace-writer/*.c "$TAP_ROOT/analyzers/trace/trace.c" "$TAP_ROOT/analyzers/trace/sink.c"
     "$TAP_ROOT/runtime/message.c" "$TAP_ROOT/runtime/output-path.c" "$TAP_ROOT/runtime/atomic-file.c"
     "$TAP_ROOT/runtime/bytebuf.c")
flags=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -pthread -I"$TAP_ROOT/runtime"
       -I"$TAP_ROOT/analyzers" -I"$TAP_ROOT/tests/trace-writer")
W=$T/writer
if gcc "${flags[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all "${src[@]}" -o "$W" \
        2>"$T/cc.err" && "$W" 2>/dev/null; [ $? = 99 ]; then
    note "writer built with -fsanitize=address,undefined"
else
    gcc "${flags[@]}" "${src[@]}" -o "$W" 2>"$T/cc.err" ||
        BAIL_OUT "cannot compile the writer test: $(head -n 5 "$T/cc.err" | tr '\n' ' ')"
fi

# without_header DUMP: the dump less its first line (pid, time) and thread 3
without_header() { printf '%s\n' "$1" | tail -n +2 | grep -v '^# thread 3'; }

TRACE_PATTERN=$T/w.trace "$W" "$T/blobs" streams 2>"$T/err"
is "$?:$(cat "$T/err")" "0:pathprof: trace written to $T/w.trace" "streams: written, and said where"
cli_run dump "$T/w.trace"
w=$OUT
cli_run dump "$T/ref.trace"
is "$(without_header "$w")" "$(without_header "$OUT")" \
    "the writer's trace dumps exactly like the independent writer's"
like "$(printf '%s\n' "$w" | head -n 1)" "^# trace $T/w.trace: pid [0-9]+, started [-0-9]+ [0-9:]+ UTC, 2 TUs, 4 functions, 2 threads, 17 events$" \
    "its header: this pid, the TUs of the fake runtime"
ls "$T" | grep -q 'tmp' && fail "a temporary file is left" "$(ls "$T")" || pass "no temporary file left"

# run_stress W NAME: 12 producers on 4 analyzer threads
run_stress() {
    TRACE_PATTERN=$T/s.trace "$1" "$T/blobs" stress "$T/s.expected" 2>"$T/err"
    is "$?" 0 "$2: the writer ran"
    "$PP_CLI" dump --raw "$T/s.trace" | tail -n +2 >"$T/s.got"
    if cmp -s "$T/s.got" "$T/s.expected"; then
        pass "$2: 12 producers x 150000 events, every word in order, counts in END"
    else
        fail "$2: the words differ" "$(diff "$T/s.got" "$T/s.expected" | head -n 5)"
    fi
}
run_stress "$W" "4 analyzer threads"

out=$(TRACE_PATTERN=$T/f.%p.trace "$W" "$T/blobs" fork 2>"$T/err")
is "$?" 0 "fork: both processes wrote"
parent=${out#parent } parent=${parent%% *} child=${out##* }
cli_run dump --raw "$T/f.$parent.trace"
like "$(printf '%s\n' "$OUT" | head -n 2)" "pid $parent, .* 201000 events
# thread 1: 201000 events, stream ended" "the parent's trace: its 201000 events"
is "$(printf '%s\n' "$OUT" | sed -n '200003p;201002p')" "1 200000 0x0008000000000000
1 200999 0x00080000000003e7" "... the parent's own after the fork"
cli_run dump --raw "$T/f.$child.trace"
like "$(printf '%s\n' "$OUT" | head -n 1)" "pid $child \\(forked from $parent\\), .* 200500 events$" \
    "the child's trace: its own pid, the parent named"
is "$(printf '%s\n' "$OUT" | sed -n '3p;131073p;131074p;200002p;200003p;200502p')" "1 0 0x0000000000000000
1 131070 0x000000000001fffe
1 131071 0x000000000001ffff
1 199999 0x0000000000030d3f
1 200000 0x0004000000000000
1 200499 0x00040000000001f3" "... the parent's events up to the fork (written and buffered), then its own"

TRACE_PATTERN=$T/l.trace "$W" "$T/blobs" late 2>"$T/err"
is "$(grep -c warning "$T/err")" 1 "events after the trace was written: one warning"
like "$(cat "$T/err")" "warning: events arrived after trace $T/l.trace was written" "... naming the trace"
cli_run dump "$T/l.trace"
like "$OUT" "# thread 1: 11 events, stream cut short" "... and they are not in it"

mkdir "$T/tmpdir"
TMPDIR=$T/tmpdir TRACE_PATTERN=$T/no/such/dir/x.trace "$W" "$T/blobs" streams 2>"$T/err"
like "$(head -n 1 "$T/err")" "^pathprof: warning: cannot create trace $T/no/such/dir/x.trace \\(No such file or directory: could not create a temporary file beside it\\); writing it to $T/tmpdir/pathprof\\.[0-9]+\\.trace instead$" \
    "an unwritable directory: a warning names both files"
f=$(ls "$T/tmpdir"/pathprof.*.trace 2>/dev/null)
cli_run dump "$f"
is "$RC" 0 "... and the trace is in \$TMPDIR"

# The threads once more under ThreadSanitizer.
if gcc "${flags[@]}" -fsanitize=thread "${src[@]}" -o "$T/writer-tsan" 2>"$T/cc.err" &&
        "$T/writer-tsan" 2>/dev/null; [ $? = 99 ]; then
    TSAN_OPTIONS=halt_on_error=1:exitcode=66 run_stress "$T/writer-tsan" "ThreadSanitizer"
else
    skip "gcc cannot build or run -fsanitize=thread here" 2
fi
done_testing
