#!/usr/bin/env bash
# Counting mode's exit skips the counter pages the process never wrote
# (runtime/written-pages.c: the kernel's page map says which pages are
# present or swapped; a page that is neither holds zeros): a function of
# 2^18 paths in an array of 512 pages, of which a run takes 64 paths
# spread over the array (tests/count/sparse_pages.c).  The oracle is the
# program's construction: the 64 counts are 1..64, each once, and no other
# path of decide() is counted; a forked child, whose counter pages are
# copies of its parent's, writes all 64, the parent its first 32.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
SRC=$TAP_ROOT/tests/count/sparse_pages.c
cd "$T" || BAIL_OUT "no temp dir"

pp_cc_plain native "$SRC" -O2 || BAIL_OUT "cannot build sparse_pages.c"
pp_cc count "$SRC" -O2 || BAIL_OUT "cannot build sparse_pages.c with the plugin"
pp_cc count0 "$SRC" -O0 || BAIL_OUT "cannot build sparse_pages.c with the plugin at -O0"

# counts_of PROFILE: decide()'s counts, sorted
counts_of() {
    pp_path_counts "$1" | awk '$1 == "decide" { print $3 }' | sort -n | tr '\n' ' '
}
want() { seq 1 "$1" | tr '\n' ' '; }

./native >native.out
for b in count count0; do
    pp_run "$b.pp" "./$b"
    is "$?" 0 "$b: exit status 0"
    ok "$b: the same output as the plain build" cmp native.out "$b.pp.stdout"
    ok "$b: runs clean" [ ! -s "$b.pp.stderr" ]
    is "$(counts_of "$b.pp")" "$(want 64)" "$b: the 64 counts are 1..64, every other path 0"
    npaths=$(pp_json "$b.pp" --top 1 | perl -MJSON::PP -0777 -ne \
        'for (@{decode_json($_)->{functions}}) { print $_->{npaths} if $_->{name} eq "decide" }')
    is "$npaths" 262144 "$b: decide() has 2^18 paths (counted in an array of 512 pages)"
done

PATHPROF_OUT=$T/fork-%p.pp ./count fork >fork.out 2>fork.err
is "$?" 0 "fork: exit status 0"
# Under TSan the fork child always has TSan's own thread, so the runtime's
# warning about plain counters in a multithreaded program is TSan's doing.
[ "${PP_SANITIZE:-}" = thread ] && sed -i '/the program ran more than one thread/d' fork.err
ok "fork: runs clean" [ ! -s fork.err ]
n=0
for f in fork-*.pp; do n=$((n + 1)); done
is "$n" 2 "fork: two profiles, the parent's and the child's"
got=$(for f in fork-*.pp; do counts_of "$f"; echo; done | sort)
is "$got" "$(printf '%s\n%s\n' "$(want 32)" "$(want 64)" | sort)" \
    "fork: the parent's profile holds counts 1..32, the child's 1..64 (its pages are copies of the parent's)"
done_testing
