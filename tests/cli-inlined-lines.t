#!/usr/bin/env bash
# The lines a path runs, with code inlined from elsewhere in the file
# (issue 19 item 7): in tests/programs/inlined_far.c a helper defined far
# above main is inlined into a block of main, whose line range then spans
# never_runs(), a function between them that no run calls. No path of main
# may print a line of never_runs or main's header lines as run; the path
# through the helper prints the helper's line; and main's paths still all
# print differently (as tests/cli-paths-distinct.t checks at large).
# Profiles now carry each block's exact lines (the line table,
# tests/cli-exact-lines.t), so this holds by construction; profiles
# without it rely on the range filter this test was written for.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$T" || exit 1
cp "$TAP_ROOT/tests/programs/inlined_far.c" .
for level in O2 O1; do
    pp_cc "$T/inl-$level" inlined_far.c "-$level" || { fail "inlined_far.c builds at -$level"; continue; }
    PATHPROF_QUIET=1 PATHPROF_OUT=$T/inl-$level.pp "$T/inl-$level" 10 >/dev/null
    n=$("$PP_CLI" report --json "inl-$level.pp" | perl -MJSON::PP -e 'local $/;
        my ($f) = grep { $_->{name} eq "main" } @{ decode_json(<STDIN>)->{functions} }; print $f->{npaths}')
    : >all.txt
    for ((id = 0; id < n; id++)); do
        "$PP_CLI" show "inl-$level.pp" main "$id" | sed -n '/^lines$/,$p' >"lines.$id"
        cat "lines.$id" >>all.txt
    done
    like "$(grep -c '' all.txt)" '^[1-9]' "-$level: main's $n paths show their lines"
    ok "-$level: the helper's line is shown where a path runs it" grep -q 'HELPER' all.txt
    ok "-$level: no path shows a line of never_runs (between the helper and main)" \
        sh -c "! grep -q 'NEVER\|never_runs(int' all.txt"
    ok "-$level: no path shows main's header lines" sh -c "! grep -Eq '\| (int main|\{\$)' all.txt"
    dups=$(md5sum lines.* | awk '{print $1}' | sort | uniq -d | wc -l)
    is "$dups" 0 "-$level: main's $n paths print $n different texts"
done
done_testing
