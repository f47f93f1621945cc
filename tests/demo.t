#!/usr/bin/env bash
# `make demo` (scripts/demo.sh) on a small input: the example built in
# stream mode, the hottest Ball-Larus and k-iteration paths, a pruned run
# with bounds, and the HTML report, in that order, each really there.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
[ -z "$PP_SANITIZE" ] || plan skip_all "scripts/demo.sh uses the plain tree (build/), not a sanitized one"

DEMO_DIR=$T/demo DEMO_STATEMENTS=3000 PATHPROF_QUIET=1 "$TAP_ROOT/scripts/demo.sh" >"$T/out" 2>"$T/err"
rc=$?
is "$rc" 0 "scripts/demo.sh runs to the end"
OUT=$(cat "$T/out")
order=$(printf '%s\n' "$OUT" | grep -E '^==== ' | sed 's/ ====$//')
is "$order" "==== build examples/demo.c in stream mode
==== run it with the blpp and ksf analyzers (k = 4)
==== the hottest Ball-Larus paths
==== the hottest k-iteration paths
==== a pruned run: ksf-pruned in 64 KiB per analyzer thread, every count with bounds
==== the HTML report of both profiles" "the steps, in order"
like "$OUT" "^mode       stream \\(analyzers blpp,ksf, " "a stream-mode profile with blpp and ksf"
like "$OUT" "^Paths by count \\(top 3 of [0-9]+\\)" "the hottest Ball-Larus paths"
like "$OUT" "^k-iteration paths by count \\(top 3 of [0-9]+\\)" "the hottest k-iteration paths"
like "$OUT" "^PRUNED     counts are bounds, not exact: ksf-pruned held at most 64\\.0 KiB" "a pruned run"
like "$OUT" "^    count [0-9]+ \\(\\+/- [0-9]+\\), between [0-9]+ and [0-9]+" "... with bounds"
is "$(printf '%s\n' "$OUT" | tail -n 1)" "demo: open $T/demo/html/index.html in a browser (static files, works offline)" \
    "it ends saying where the HTML report is"
ok "... and it is there" test -s "$T/demo/html/index.html" -a -s "$T/demo/html/f0.html"
done_testing
