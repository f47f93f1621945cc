#!/usr/bin/env bash
# Damaged KIPF sections (tests/cli/mkkipf.pl --map names every field): each
# damage ends in exit 2 and one line "pathprof: FILE: section 3 (KIPF, at
# byte N): why", never a crash. Then every byte of the section flipped and
# every truncation of it (a sample: PP_CLI_SWEEP_STRIDE=1 runs them all; checksum re-sealed, lengths fixed so the KIPF
# reader meets the damage), through `report --k` and `tree`, also with the
# CLI built with AddressSanitizer and UBSan.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require
pp_not_under_sanitizer thread "the CLI is single-threaded, TSan has nothing to check in it, and the sweep runs it thousands of times"
MKKIPF=$PP_CLI_DIR/mkkipf.pl

perl "$MKKIPF" --map "$T/f.map" "$T/f.pp" || BAIL_OUT "mkkipf.pl failed"
KIPF_RE='section 3 \(KIPF, at byte [0-9]+\): '

# damaged NAME REGEX EDIT...: patch fields (re-sealed), expect one error line
damaged() {
    local name=$1 re=$2
    shift 2
    perl "$PATCH" "$T/f.pp" "$T/bad.pp" --map "$T/f.map" "$@" --reseal || BAIL_OUT "patch.pl failed"
    cli_run report --k "$T/bad.pp"
    one_error_line "$T/bad.pp" "$KIPF_RE$re" "$name"
}

# Nodes in file order (first occurrence in the Fig. 3 stream): 0 = <6>,
# 1 = <6 2>, 2 = <6 2 0>, 3 = <6 2 0 0> (a leaf at depth 3), 4 = <2>...
damaged "k = 0" 'k = 0 \(1 to 64\)$' field:kipf.k=0
damaged "k = 65" 'k = 65 \(1 to 64\)$' field:kipf.k=65
damaged "k that does not match the levels" '6 k-SF levels, k = 5 has 8$' field:kipf.k=5
damaged "unknown flags" 'unknown flags 0x4$' field:kipf.flags=4
damaged "reserved field" 'reserved field is 1, not 0$' field:kipf.reserved=1
damaged "k-SF level that does not add up" 'k-SF level 2: 12 nodes, 13 internal, 9 children do not add up$' \
    field:kipf.level2.internal=13
damaged "roots that cannot fit" '4294967296 roots do not fit in the [0-9]+ bytes left$' field:kipf.nroots=4294967296
damaged "more roots announced than written" '[0-9]+ nodes announced do not fit in the [0-9]+ bytes left \(node [0-9]+\)$' \
    field:kipf.nroots=9
damaged "fewer roots: a node short" 'the section says 32 k-IPF nodes, the forest has 31$' field:kipf.nroots=7
damaged "children count overflow" '4294967302 nodes announced do not fit in the [0-9]+ bytes left \(node 3\)$' \
    field:kipf.node2.nchildren=4294967295
damaged "a node given one child too many" '.' field:kipf.node2.nchildren=2
damaged "a leaf at depth k - 1 given a child" 'node 3 at depth 3 has children: with k = 4, depth 3 is the deepest$' \
    field:kipf.node3.nchildren=1
damaged "count 0" 'node 3 \(depth 3\): count 0$' field:kipf.node3.count=0
damaged "child counts above the parent's" 'node 0: count 1 below the sum of its children.s \(5\)$' field:kipf.node1.count=5
damaged "label: no such TU section" 'node 2 \(depth 2\): TU 1, the profile has 1 TU sections$' field:kipf.node2.tu=1
damaged "label: no such function" 'node 0 \(depth 0\): function 2, TU 0 has 2$' field:kipf.node0.func=2
damaged "label: path ID out of range" 'node 2 \(depth 2\): function loop: path ID 8 out of range \(8 paths\)$' \
    field:kipf.node2.id=8
damaged "label: another function below a root" 'node 1 \(depth 1\): function tiny, its parent.s is loop: a k-iteration path lies within one function$' \
    field:kipf.node1.func=1
damaged "siblings with one label" 'nodes [0-9]+ and [0-9]+: siblings with one label \(TU 0, function loop, path 2\)$' \
    field:kipf.node0.id=2
damaged "node reserved field" 'node 5 \(depth 1\): reserved field is 3, not 0$' field:kipf.node5.reserved=3
damaged "wrong k-IPF node total" 'the section says 31 k-IPF nodes, the forest has more$' field:kipf.kipf_nodes=31
damaged "wrong leaf figures" 'the section says 14 leaves of depths summing to 28, the forest has 14 summing to 27$' \
    field:kipf.leaf_depth_sum=28

perl "$MKKIPF" --claim-k 3 "$T/deep.pp"
cli_run report --k "$T/deep.pp"
one_error_line "$T/deep.pp" "${KIPF_RE}node 2 at depth 2 has children: with k = 3, depth 2 is the deepest$" \
    "a forest deeper than k"

# kipf_section FILE: offset and length of the KIPF section body (the last).
read -r SEC_AT SEC_LEN_AT < <(awk '$1 == "sec2.tag" { t = $2 } $1 == "sec2.length" { l = $2 } END { print t, l }' "$T/f.map")
BODY=$((SEC_AT + 16))
SIZE=$(stat -c %s "$T/f.pp")

# Truncated inside the section, section and payload lengths told: every cut.
mkdir "$T/d"
perl -e '
    use lib $ARGV[0]; use PPWrite qw(reseal);
    my ($in, $dir, $body, $lenat) = @ARGV[1 .. 4];
    open my $fh, "<:raw", $in or die; local $/; my $d = <$fh>;
    my $end = length($d) - 8;
    for my $cut ($body .. $end - 1) {
        my $t = substr($d, 0, $cut) . "\0" x 8;
        substr($t, $lenat, 8) = pack("Q<", $cut - $body);
        substr($t, 48, 8) = pack("Q<", $cut - 64);
        open my $o, ">:raw", "$dir/cut-$cut" or die; print $o reseal($t); close $o;
        my $x = $d;
        substr($x, $cut, 1) = chr(ord(substr($x, $cut, 1)) ^ 0xff);
        open $o, ">:raw", "$dir/flip-$cut" or die; print $o reseal($x); close $o;
        $x = $d;
        substr($x, $cut, 1) = chr(ord(substr($x, $cut, 1)) ^ 0x01);
        open $o, ">:raw", "$dir/flip1-$cut" or die; print $o reseal($x); close $o;
    }' "$PP_CLI_DIR" "$T/f.pp" "$T/d" "$BODY" "$SEC_LEN_AT" || BAIL_OUT "damage writer failed"

# sweep BIN STRIDE: prints one line per broken promise. Cuts must fail
# (exit 2, one line); flips may read (exit 0, silent stderr, or 1 for tree
# when the root's label changed) or fail with one line; never anything else.
sweep() {
    local bin=$1 stride=$2 f n rc lines
    for f in "$T"/d/*; do
        n=${f##*-}
        [ $((n % stride)) = 0 ] || continue
        for cmd in "report --k" "tree"; do
            if [ "$cmd" = tree ]; then
                timeout 20 "$bin" tree "$f" loop 2 --prune 0 >/dev/null 2>"$T/sweep.err"
            else
                timeout 20 "$bin" report --k "$f" --min-length 1 >/dev/null 2>"$T/sweep.err"
            fi
            rc=$?
            lines=$(grep -c '' "$T/sweep.err")
            case ${f##*/}:$rc:$lines in
            cut-*:2:1 | flip*:2:1 | flip*:0:0 | flip*:1:1) ;;
            *) echo "$f: $cmd: exit $rc, $lines stderr lines: $(head -c 300 "$T/sweep.err" | tr '\n' '|')"; continue ;;
            esac
            if [ "$lines" = 1 ] && ! grep -q "^pathprof: $f: " "$T/sweep.err"; then
                echo "$f: $cmd: stderr does not name the file: $(head -c 300 "$T/sweep.err")"
            fi
        done
    done
}

nfiles=$(find "$T/d" -type f | wc -l)
stride=${PP_CLI_SWEEP_STRIDE:-2}
# In a sanitizer suite $PP_CLI is itself sanitized: this is the sanitized
# sweep (at its stride), the build below is not needed.
[ -n "$PP_SANITIZE" ] && stride=$((stride * 4))
out=$(sweep "$PP_CLI" "$stride")
is "$out" "" "every ${stride}th cut and byte flip of the KIPF section ($((SIZE - 8 - BODY)) bytes, $nfiles files): exit 0, 1 or 2, at most one line"

ASAN=$T/asan/pathprof
mkdir -p "$T/asan"
if [ -n "$PP_SANITIZE" ]; then
    skip "the CLI under test is already built with SANITIZE=$PP_SANITIZE (the sweep above)" 6
elif gcc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all -I"$TAP_ROOT/runtime" \
    -I"$TAP_ROOT/analyzers" -I"$TAP_ROOT/cli" "$TAP_ROOT"/cli/*.c "$TAP_ROOT"/cli/*/*.c \
    "$TAP_ROOT/analyzers/common/activations.c" "$TAP_ROOT"/runtime/profile-merge*.c \
    "$TAP_ROOT/runtime/bytebuf.c" \
    -o "$ASAN" -lm >"$T/asan/build.log" 2>&1 &&
    "$ASAN" --version >/dev/null 2>&1; then
    pass "CLI builds with -fsanitize=address,undefined"
    export ASAN_OPTIONS=exitcode=86:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:exitcode=86
    if ! ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=1 "$ASAN" report --k "$T/f.pp" >/dev/null 2>&1; then
        note "LeakSanitizer unusable here: leaks not checked"
        export ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0
    fi
    for cmd in "report --k" "report --k --json" "tree @ loop 0 --prune 0" "report"; do
        # shellcheck disable=SC2086
        set -- ${cmd/@/$T/f.pp}
        [ "$1" = report ] && set -- "$@" "$T/f.pp"
        "$ASAN" "$@" >"$T/asan.out" 2>&1
        ok_status $? "sanitized: $cmd" || diag "$(head -n 20 "$T/asan.out")"
    done
    stride=$((${PP_CLI_SWEEP_STRIDE:-2} * 4))
    out=$(sweep "$ASAN" "$stride")
    is "$out" "" "sanitized: every ${stride}th cut and flip of the KIPF section"
else
    skip "gcc cannot build or run -fsanitize=address,undefined here: $(tail -n 1 "$T/asan/build.log")" 6
fi
done_testing
