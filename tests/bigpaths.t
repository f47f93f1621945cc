#!/usr/bin/env bash
# Functions with more than 2^32 and more than 2^64 acyclic paths: 40 and 80
# stacked independent `if`s (tests/lib/gen-bigpaths.pl), run on 6 known
# inputs with distinct multiplicities.  The plugin must cut the DAG so every
# path ID is unique and below the bound (default 2^32, and 2^16 with
# max-paths=2^16); every reported path must be a segment of the inputs'
# block sequences with exactly the sum of their multiplicities as count,
# and each input's run must be reported as a chain of segments from the
# entry to the return (tests/oracle/bigpaths.pl).  -fplugin-arg-pathprof-
# verbose must mention the cut.  One build also checks the edge oracle.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/programs.sh"
pp_require_build

bigcase() {    # N LEVEL MAXPATHS [verify]
    local n=$1 level=$2 max=$3 verify=${4:-}
    local tag="stacked ifs N=$n -$level max-paths=$max${verify:+ verify}" d=$T/big-$n-$level-$max$verify
    local maxarg=() bound=4294967296
    mkdir -p "$d"
    if [ "$max" != default ]; then
        maxarg=(-fplugin-arg-pathprof-max-paths=$max)
        bound=$(perl -e '$_ = shift; print /^2\^(\d+)$/ ? 2**$1 : $_' "$max")
    fi
    perl "$TAP_ROOT/tests/lib/gen-bigpaths.pl" "$n" "$d/spec.json" >"$d/big.c" || BAIL_OUT "gen-bigpaths.pl failed"
    pp_cc_plain "$d/plain" "$d/big.c" -"$level" || { fail "$tag: plain build"; return; }
    if ! pp_cc "$d/pp" "$d/big.c" -"$level" "${maxarg[@]}" -fplugin-arg-pathprof-verbose \
        ${verify:+-fplugin-arg-pathprof-verify}; then
        fail "$tag: builds with pathprof"; return
    fi
    pass "$tag: builds with pathprof"
    like "$(grep -i stacked "$d/pp.log")" 'cut' "$tag: verbose output says stacked was cut"
    local want got
    want=$("$d/plain"); got=$(PATHPROF_OUT=$d/prof PATHPROF_QUIET=1 "$d/pp")
    is "$got" "$want" "$tag: same output with pathprof"
    if ! pp_json "$d/prof" >"$d/prof.json" 2>"$d/report.err"; then
        fail "$tag: report --json reads the profile" "$(cat "$d/report.err")"; return
    fi
    if ! perl "$TAP_ROOT/tests/oracle/ppdecode.pl" "$d/prof" >"$d/decoded.json" 2>"$d/decode.err"; then
        fail "$tag: ppdecode.pl reads the profile" "$(cat "$d/decode.err")"; return
    fi
    pp_check sanity "$d/prof.json" "$tag: "
    local out
    out=$(perl "$TAP_ROOT/tests/oracle/bigpaths.pl" "$d/spec.json" "$d/prof.json" "$d/decoded.json" "$bound" 2>&1) \
        || fail "$tag: bigpaths.pl ran" "$out"
    out=$(printf '%s\n' "$out" | sed "s/\t/\t$tag: /")
    pp_tap_lines <<<"$out"
    if [ -n "$verify" ]; then
        pp_check --meta "$d/decoded.json" oracle "$d/big.c" "$d/prof.json" "$tag: "
    fi
}

bigcase 40 O0 default
bigcase 80 O0 default
bigcase 80 O0 '2^16'
bigcase 40 O2 default
bigcase 80 O2 '2^16' verify
bigcase 80 O0 65536 verify
done_testing
