#!/usr/bin/env bash
# A path longer than the listing's limit (SOURCE_MAX_LINES, 12 lines in
# cli/render/source_lines.h): `pathprof show` prints its first lines, one
# line "... (N more lines)" with N exactly the lines left out, and its
# last line; a path under the limit is printed whole. The program is
# written here, so its lines are known by construction: walk()'s long
# path runs lines 8 to 8+N+1 (N assignments, the store and the return).
# Unsigned arithmetic: it wraps, so the sanitizer builds see no overflow.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
cd "$T" || exit 1

for N in 30 9; do
    {
        echo '#include <stdio.h>'
        echo '#include <stdlib.h>'
        echo 'static volatile unsigned sink;'
        echo '__attribute__((noinline)) static unsigned walk(unsigned x)'
        echo '{'
        echo '    if (x > 1000)'
        echo '        return 0;'
        for ((i = 1; i <= N; i++)); do echo "    x = x * 3u + $i; /* L$i */"; done
        echo '    sink = x;'
        echo '    return x;'
        echo '}'
        echo 'int main(int argc, char **argv)'
        echo '{'
        echo '    printf("%u\n", walk(argc > 1 ? (unsigned)atoi(argv[1]) : 1u));'
        echo '    return 0;'
        echo '}'
    } >"lp$N.c"
    pp_cc "$T/lp$N" "lp$N.c" -O0 || { fail "lp$N.c builds"; continue; }
    PATHPROF_QUIET=1 PATHPROF_OUT=$T/lp$N.pp "$T/lp$N" 2 >/dev/null
    first=8 last=$((8 + N + 1))   # N assignments, the store, the return
    total=$((last - first + 1))
    cli_run show "lp$N.pp" walk 1
    is "$RC" 0 "N=$N: show walk 1 runs"
    has "$OUT" "  lp$N.c:$first-$last" "N=$N: the long path's lines are $first-$last"
    shown=$(printf '%s\n' "$OUT" | grep -cE '^ +[0-9]+ \| ')
    # The branch line 6 is printed in its own span: one more numbered line.
    if ((total + 1 > 12)); then
        has "$OUT" "           | ... ($((total - 12)) more lines)" \
            "N=$N: the elision says exactly how many lines it left out ($((total - 12)))"
        is "$shown" 13 "N=$N: 12 numbered lines of the long span, and the branch's line"
        like "$(printf '%s\n' "$OUT" | grep -E '^ +[0-9]+ \| ' | tail -n 1)" "^ +$last \| +return x;" \
            "N=$N: the last line shown is the path's last (line $last)"
        like "$(printf '%s\n' "$OUT" | grep -A1 -E "^ +18 \| " | tail -n 1)" '\.\.\. \(' \
            "N=$N: the elision comes right after the 11th line of the span"
    else
        lacks "$OUT" 'more lines\)' "N=$N: a path of $total lines is printed whole"
        is "$shown" $((total + 1)) "N=$N: every line of the span, and the branch's line"
    fi
done
done_testing
