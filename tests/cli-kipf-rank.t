#!/usr/bin/env bash
# report --k --top N without --function reads a KIPF section for that one
# ranking (cli/read/kipf_read.c, "Reading for a ranking"): only the nodes
# whose count or weight can still rank, and their ancestors, are kept.
# Oracle: the full ranking (--json without --top reads the whole forest),
# whose first N sequences, ties included and in the same order, must be
# what --top N lists, by count and by weight, at k = 3, 4 and 8, on a
# program with eight paths of unequal odds (tests/cli/kipf/mixed.c).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build

cp "$PP_CLI_DIR/kipf/mixed.c" "$T/"
cd "$T" || exit 1
pp_cc "$T/mixed" mixed.c -O1 -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build mixed.c"
want=$("$T/mixed")
for k in 3 4 8; do
    PATHPROF_ANALYZER=ksf PATHPROF_K=$k PATHPROF_QUIET=1 PATHPROF_OUT=$T/m$k.pp \
        "$T/mixed" >"$T/run.out" 2>"$T/run.err"
    is "$(cat "$T/run.out"):$(cat "$T/run.err")" "$want:" "k=$k: the program runs as built without the plugin would"
    cli_run report --k --json "m$k.pp"
    is "$RC" 0 "k=$k: the full ranking (report --k --json)"
    full=$(printf '%s\n' "$OUT" | grep '"ids"' | sed 's/,$//')
    nfull=$(printf '%s\n' "$full" | grep -c .)
    ok "k=$k: many sequences to rank ($nfull)" test "$nfull" -gt 60
    for n in 1 2 5 17 50 400; do
        cli_run report --k --json --top "$n" "m$k.pp"
        is "$(printf '%s\n' "$OUT" | grep '"ids"' | sed 's/,$//')" \
            "$(printf '%s\n' "$full" | head -n "$n")" \
            "k=$k: --top $n lists the first $n of the full ranking by count, counts included"
        cli_run report --k --top "$n" "m$k.pp"
        has "$OUT" "k-iteration paths by count (top $n of $nfull)" \
            "k=$k: --top $n counts all $nfull sequences of the whole forest"
        # By weight: the text's second table, against the full text's.
        mine=$(printf '%s\n' "$OUT" | sed -n '/^k-iteration paths by count x blocks/,$p' | grep -E '^#[0-9]+  |^    count ')
        cli_run report --k --top 100000 "m$k.pp"
        whole=$(printf '%s\n' "$OUT" | sed -n '/^k-iteration paths by count x blocks/,$p' | grep -E '^#[0-9]+  |^    count ' | head -n $((2 * n)))
        is "$mine" "$whole" "k=$k: --top $n by weight = the first $n of the full ranking by weight"
    done
done
done_testing
