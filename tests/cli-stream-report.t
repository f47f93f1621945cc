#!/usr/bin/env bash
# `pathprof report` on stream-mode profiles (tests/trace/mkstream.pl): the
# mode and the stream's figures in the header, the loud NOT EXACT block
# when events were dropped, late, resynced or unknown, the same in JSON,
# and a damaged STREAM section (one line, exit 2).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require
MK=$TAP_ROOT/tests/trace/mkstream.pl

perl "$MK" "$T/exact.pp" || BAIL_OUT "mkstream.pl failed"
cli_run report "$T/exact.pp"
is "$RC:$ERR" "0:" "an exact stream profile reads"
has "$OUT" "mode       stream (analyzers blpp,trace, policy block, 2 analyzer threads, chunks of 8192 events)" \
    "header: the mode, analyzers, policy"
has "$OUT" "stream     1000 events from 3 threads; producers blocked 0.250 s" "header: the stream's figures"
lacks "$OUT" "NOT EXACT|differ" "no warning, no comparison with the (zero) update totals"
has "$OUT" "                1000  100.0%                   2/3  loop (t.c:1)  [stream]" "the stream flag is named"

perl "$MK" "$T/lossy.pp" dropped=5 late=2 resync=1 unknown=3 policy=2
cli_run report "$T/lossy.pp"
is "$(printf '%s\n' "$OUT" | head -n 6)" "!!! NOT EXACT: this profile misses events, or attributed some wrongly
!!!   5 events dropped: the analyzers fell behind (PATHPROF_POLICY=drop)
!!!   2 late events: emitted after their thread's stream was closed, or lost under a stale cursor (an instrumented signal handler), or by a child sharing the memory past its parent's chunk (vfork before exec, clone(CLONE_VM)); docs/streaming.md, section 2
!!!   1 activation resyncs: a RESUME marker matched no activation
!!!   3 events of translation units that were not registered
!!! The counts below miss the paths those events stood for." "a lossy profile: the NOT EXACT block comes first"
perl "$MK" "$T/resync.pp" resync=4
cli_run report "$T/resync.pp"
is "$(printf '%s\n' "$OUT" | grep -c '^!!!')" 3 "resync alone: the block has its one line"
cli_run report --json "$T/lossy.pp"
like "$OUT" '"mode":"stream",
 "stream":\{"exact":false,"policy":"drop","analyzers":"blpp,trace","analyzer_threads":2,"chunk_events":8192,"producers":3,"events":1000,"dropped":5,"late":2,"resync":1,"unknown":3,"blocked_ns":250000000\}' \
    "JSON: mode and stream, exact false"
cli_run report --json "$T/exact.pp"
like "$OUT" '"stream":\{"exact":true,' "JSON: an exact profile says so"

perl "$MKPROFILE" --scenario small "$T/count.pp"
cli_run report "$T/count.pp"
has "$OUT" "mode       count" "a counting-mode profile says so"
cli_run report --json "$T/count.pp"
like "$OUT" '"mode":"count",
 "stream":null' "JSON: count mode, no stream"

# A damaged STREAM section costs the stream's figures, not the paths: the
# report goes on, says loudly that exactness is not known, and warns once.
perl "$MK" "$T/short.pp" truncate=9
cli_run report "$T/short.pp"
is "$RC:$(printf '%s\n' "$ERR" | grep -c '')" "0:1" "a STREAM section cut short: the paths are reported, one warning"
like "$ERR" "^pathprof: $T/short.pp: warning: section 3 \(STREAM, at byte [0-9]+\) is damaged, whether the stream lost events is not known: 23 bytes of per-thread statistics for 2 analyzer threads$" \
    "a STREAM section cut short: the warning names the section and why"
like "$OUT" '^!!! NOT KNOWN TO BE EXACT: section 3 \(STREAM\) is damaged' "a STREAM section cut short: not known to be exact, first"
cli_run report --json "$T/short.pp"
like "$OUT" '"stream":null,' "a STREAM section cut short: JSON stream null"
perl "$MK" "$T/short.pp" truncate=60
cli_run report "$T/short.pp"
like "$RC:$ERR" "^0:pathprof: $T/short.pp: warning: section 3 \(STREAM, at byte [0-9]+\) is damaged, .*: truncated$" \
    "a STREAM section shorter than its fixed part: warning"
perl "$MK" "$T/two.pp" streams=2
cli_run report "$T/two.pp"
like "$ERR" "warning: section [0-9]+ \(STREAM, at byte [0-9]+\) is damaged, .*: a second STREAM section \(section 3 is the first\): which one is right is not known" \
    "two STREAM sections: neither is believed"
like "$OUT" '^!!! NOT KNOWN TO BE EXACT' "two STREAM sections: not known to be exact"
done_testing
