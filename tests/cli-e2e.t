#!/usr/bin/env bash
# The CLI on a real profile: a two-file program built with the plugin
# (verify mode) at -O0 and -O2. Two static functions named helper are told
# apart by file; the copies of a header's static function are merged; the
# edge counts derived from the path counts equal the plugin's direct edge
# counters; the text report shows the program's source lines.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

cp "$PP_CLI_DIR"/e2e/a.c "$PP_CLI_DIR"/e2e/b.c "$PP_CLI_DIR"/e2e/h.h "$T/"
cd "$T" || exit 1
for level in O0 O2; do
    pp_cc "$T/ab-$level" a.c "-$level" b.c -fplugin-arg-pathprof-verify || continue
    PATHPROF_OUT=$T/ab-$level.pp "$T/ab-$level" >"$T/run.out" 2>"$T/run.err"
    is "$(cat "$T/run.out")" "85 20" "-$level: the program computes what it computes without pathprof"

    cli_run report "ab-$level.pp" --json
    is "$RC" 0 "-$level: report --json" || { diag "$ERR"; continue; }
    printf '%s\n' "$OUT" >"$T/ab.json"
    flat=$(perl "$JSONFLAT" <"$T/ab.json")
    has "$flat" 'F(helper@a.c).total=11' "-$level: helper of a.c (10 iterations + exit)"
    has "$flat" 'F(helper@b.c).total=7' "-$level: helper of b.c, a separate function"
    has "$flat" 'F(shared@h.h).copies=2' "-$level: the two copies of shared() merged"
    has "$flat" 'F(shared@h.h).total=13' "-$level: shared() counted from both files"
    out=$(perl "$PP_CLI_DIR/edgecheck.pl" <"$T/ab.json")
    ok_status $? "-$level: edge counts derived from paths == direct edge counters" || diag "$out"

    cli_run report "ab-$level.pp"
    is "$RC" 0 "-$level: text report"
    like "$OUT" "helper \(a\.c:4\)" "-$level: text names helper with its file"
    like "$OUT" "helper \(b\.c:3\)" "-$level: and the other helper with its own"
    like "$OUT" "s \+= shared\(i\);" "-$level: source text of a.c shown"
    like "$OUT" "return x / 2;" "-$level: source text of h.h shown"

    cli_run show "ab-$level.pp" b.c:helper 0
    is "$RC" 0 "-$level: show b.c:helper 0"
    cli_run dot "ab-$level.pp" a.c:helper
    is "$RC" 0 "-$level: dot a.c:helper"
    like "$OUT" "^digraph \"helper\" \{" "-$level: dot output"
done
done_testing
