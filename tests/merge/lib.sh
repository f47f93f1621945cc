# lib.sh - what the tests of `pathprof merge` share (tests/cli-merge*.t),
# sourced after tests/lib/tap.sh, run in the directory of the profiles.

# merge_groupings A B C: merges a.pp, b.pp and c.pp (the names A B C) into
# abc.pp, then in four other groupings and orders, and checks each gives
# abc.pp's bytes (associative and commutative).
merge_groupings() {
    local a=$1 b=$2 c=$3 f
    "$PP_CLI" merge -o abc.pp "$a.pp" "$b.pp" "$c.pp" 2>merge.err
    is "$?:$(cat merge.err)" "0:" "merge -o abc $a $b $c: exit 0, nothing said"
    "$PP_CLI" merge -o bc.pp "$b.pp" "$c.pp" && "$PP_CLI" merge -o a_bc.pp "$a.pp" bc.pp
    "$PP_CLI" merge -o ab.pp "$a.pp" "$b.pp" && "$PP_CLI" merge -o ab_c.pp ab.pp "$c.pp"
    "$PP_CLI" merge -o cab.pp "$c.pp" "$a.pp" "$b.pp"
    "$PP_CLI" merge -o ca.pp "$c.pp" "$a.pp" && "$PP_CLI" merge -o b_ca.pp ca.pp "$b.pp"
    for f in a_bc ab_c cab b_ca; do
        ok "associative and commutative: $f.pp = abc.pp, byte for byte" cmp -s abc.pp "$f.pp"
    done
}

# refused NAME REGEX INPUTS...: `merge -o out.pp INPUTS` exits 2 with one
# line on stderr matching REGEX, and leaves out.pp (which holds "keep") as
# it was.
refused() {
    local name=$1 re=$2 rc nl; shift 2
    "$PP_CLI" merge -o out.pp "$@" >/dev/null 2>merge.err
    rc=$?
    nl=$(grep -c '' merge.err)
    if [ "$rc" = 2 ] && [ "$nl" = 1 ] && grep -qE -- "$re" merge.err && [ "$(cat out.pp)" = keep ]; then
        pass "$name"
    else
        fail "$name" "exit $rc (want 2), $nl lines, out.pp $(head -c 4 out.pp)" "$(cat merge.err)"
    fi
}
