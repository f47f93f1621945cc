#!/usr/bin/env bash
# Metadata version 3 (docs/format.md, section 2): the plugin's compact
# detail records (LEB128 numbers and deltas).
#
# 1. Hand-made profiles (tests/cli/mkprofile.pl: PPWrite.pm encodes
#    version 3 from the format's text, independently of the plugin): the
#    same graphs in version 1's fixed records and in version 3 read the
#    same, command for command.
# 2. Damaged version 3 fields (mkprofile.pl --raw writes chosen bytes for
#    one LEB128 field): each is one clear error naming the file, the
#    function and the record, never a crash or a large allocation.
# 3. The plugin's blobs: version 3; on a program of many small functions
#    with lines from a header, at most 35% of what version 2's fixed
#    records take for the same graphs (tests/oracle/ppdecode.pl counts
#    both); ppdecode.pl's decoding of them equals the CLI's, path for path.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require
cd "$T" || exit 1

# 1. Versions 1 and 3 of one profile read the same. The JSON's section
# list differs only in the TU sections' lengths and offsets.
sections_blind() { sed -E 's/"at":[0-9]+,"length":[0-9]+/"at":_,"length":_/'; }
for sc in basic small lines; do
    perl "$MKPROFILE" --scenario "$sc" "v1-$sc.pp" &&
        perl "$MKPROFILE" --scenario "$sc" --meta-version 3 "v3-$sc.pp" ||
        BAIL_OUT "mkprofile.pl failed"
    ok "$sc: version 3 is smaller" test "$(stat -c %s "v3-$sc.pp")" -lt "$(stat -c %s "v1-$sc.pp")"
    for cmd in "report @" "report @ --json" "show @ loop 1" "show @ loop 3" "dot @ loop" \
        "report @ --function loop --top 2"; do
        # shellcheck disable=SC2086
        cli_run ${cmd//@/v1-$sc.pp}
        a=$(printf '%s\n' "$OUT" | sed "s/v1-$sc/FILE/g" | sections_blind)
        ra=$RC
        # shellcheck disable=SC2086
        cli_run ${cmd//@/v3-$sc.pp}
        b=$(printf '%s\n' "$OUT" | sed "s/v3-$sc/FILE/g" | sections_blind)
        is "$RC:$b" "$ra:$a" "$sc: '${cmd//@/FILE}' reads the same from versions 1 and 3"
    done
done

# 2. Damage, one LEB128 field at a time.
pp_ulimit_v 262144
# damage NAME SCENARIO REGEX RAW...: every command exits 2 with one line
damage() {
    local name=$1 sc=$2 re=$3 f=$T/d.pp cmd raw=()
    shift 3
    for r in "$@"; do raw+=(--raw "$r"); done
    if ! perl "$MKPROFILE" --scenario "$sc" --meta-version 3 "${raw[@]}" "$f" 2>"$T/mk.err"; then
        fail "$name: mkprofile.pl" "$(cat "$T/mk.err")"
        return
    fi
    for cmd in "report $f" "report $f --json" "dot $f loop"; do
        # shellcheck disable=SC2086
        cli_run $cmd
        one_error_line "$f" "$re" "$name: ${cmd%% *}${cmd##*.pp}"
    done
}
FN='function 0 \(loop\): '
damage "a node count beyond the bytes" small "${FN}1000000 nodes do not fit in the [0-9]+ bytes left$" \
    tu0.f0.nnodes=c0843d
damage "a node count above 2^32-1" small "${FN}detail record truncated or damaged before the nodes$" \
    tu0.f0.nnodes=8080808010
damage "an 11-byte number" small "${FN}node 3: a number cut short by the blob's end, longer than 64 bits" \
    tu0.f0.node3.bb=ffffffffffffffffff8101
damage "bits above the 64th" small "${FN}node 3: a number cut short" tu0.f0.node3.bb=ffffffffffffffffff02
damage "a file index past the table" small "${FN}node 3: file string index out of range \(2 strings\)$" \
    tu0.f0.node3.file=8d03
damage "a file index below 0" small "${FN}node 2: file string index out of range" tu0.f0.node2.file=13
damage "a line below 0" small "${FN}node 2: a number cut short by the blob's end, longer than 64 bits or out of range$" \
    tu0.f0.node2.line_first=c701
damage "a node 0 that is not ENTRY" small "${FN}nodes 0 and 1 are not ENTRY \(bb 0\) and EXIT \(bb 1\)$" \
    tu0.f0.node0.bb=05
damage "an edge count beyond the bytes" small "${FN}1000000 edges do not fit" tu0.f0.nedges=c0843d
damage "an edge to a node that does not exist" small "${FN}edge 3: node number out of range \(9 nodes\)$" \
    tu0.f0.edge3.dst_kind=a01f
damage "an edge into ENTRY" small "${FN}edge 3: enters ENTRY$" tu0.f0.edge3.dst_kind=00
damage "a source beyond 2^32-1" small "${FN}edge 3: a number cut short" tu0.f0.edge3.src=8080808010
damage "a source past the nodes" small "${FN}edge 3: node number out of range" tu0.f0.edge3.src=64
damage "an exit dummy to a node that does not exist" small "${FN}edge 9: real destination 1000 out of range" \
    tu0.f0.edge9.real_dst=e807
damage "a value past 2^64" basic "function 2 \(wide\): edge 2: its value exceeds 2\^64$" \
    tu1.f2.edge1.val=ffffffffffffffffff01 tu1.f2.edge2.val=01
damage "a cycle" small "${FN}the path graph has a cycle$" tu0.f0.edge7.dst_kind=0c
damage "verify count differs from the directory" small \
    "${FN}3 verify edges in the detail record, 9 in the directory$" tu0.f0.nverify_detail=03
damage "a verify edge out of range" small "${FN}verify edge 0: node number out of range" \
    tu0.f0.verify0.src=63
damage "spans past the blob's end" lines "${FN}line table: node 8's spans run past the end of the blob$" \
    tu0.f0.lines.node8.nspans=32
damage "ENTRY with lines" lines "${FN}line table: ENTRY has lines$" tu0.f0.lines.node0.nspans=01
damage "a span from line 0" lines "${FN}line table: node 2: bad span 0-0$" tu0.f0.lines.node2.span0.first=01
damage "a span's file past the table" lines "${FN}line table: node 5: file string index 8 out of range \(3 strings\)$" \
    tu0.f0.lines.node5.span1.file=0e
damage "spans out of order" lines "${FN}line table: node 5: spans not sorted, overlapping or adjacent$" \
    tu0.f0.lines.node5.span1.file=00 tu0.f0.lines.node5.span1.first=00
damage "a span's last line past 2^32-1" lines "${FN}line table: node 3: a number cut short" \
    tu0.f0.lines.node3.span0.range=ffffffff0f

# 3. The plugin's blobs.
if ! pp_have_build; then
    skip "plugin not built" 5
    done_testing
    exit 0
fi
# many.c: 150 small functions of three shapes, each with a call to a
# header's inline helper (lines of two files), and main calling some.
cat >helper.h <<'EOF'
static inline int helper(int x)
{
    if (x & 4)
        return x * 3;
    return x - 1;
}
EOF
perl -e 'print "#include \"helper.h\"\n";
    for my $i (0 .. 149) {
        if ($i % 3 == 0) { print "int f$i(int x)\n{\n    int s = 0;\n    for (int j = 0; j < x; j++) {\n        if (j & 1)\n            s += helper(j);\n        else\n            s ^= j;\n    }\n    return s;\n}\n" }
        elsif ($i % 3 == 1) { print "int f$i(int x)\n{\n    switch (x % 5) {\n    case 0: return helper(x);\n    case 1: return x + $i;\n    case 2: return x * 2;\n    case 3: return -x;\n    default: return 0;\n    }\n}\n" }
        else { print "int f$i(int x)\n{\n    int s = x;\n    while (s > 1)\n        s = (s & 1) ? 3 * s + 1 : s / 2;\n    return s + helper(x);\n}\n" }
    }
    print "int main(int argc, char **argv)\n{\n    (void)argv;\n    int s = 0;\n    for (int i = 0; i < 150; i += 7)\n        s += f0(argc + i) + f1(i) + f2(i + 3);\n    return s == 12345;\n}\n";' >many.c
pp_cc "$T/many" many.c -O2 || BAIL_OUT "many.c does not build with the plugin"
pp_run "$T/many.pp" "$T/many"
perl "$TAP_ROOT/tests/oracle/ppdecode.pl" many.pp >many.oracle.json 2>many.oracle.err
is "$?" 0 "ppdecode.pl reads the plugin's version 3 profile"
sizes=$(perl -MJSON::PP -e 'local $/; my $m = decode_json(<STDIN>)->{metadata}[0];
    print "$m->{version} $m->{bytes} $m->{v2_bytes}"' <many.oracle.json)
read -r version bytes v2_bytes <<<"$sizes"
is "$version" 3 "the plugin writes metadata version 3"
ok "the blob ($bytes bytes) is at most 35% of version 2's records for the same graphs ($v2_bytes)" \
    test "$((bytes * 100))" -le "$((v2_bytes * 35))"
# path for path: function, ID, count, blocks (bb indices)
paths() {
    perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
        for my $f (@{ $d->{functions} }) {
            print join(" ", $f->{name}, $_->{id}, $_->{count}, @{ $_->{blocks} }), "\n" for @{ $f->{paths} };
        }' | sort
}
oracle=$(paths <many.oracle.json)
cli=$("$PP_CLI" report --json many.pp | paths)
funcs=" $(printf '%s\n' "$oracle" | cut -d' ' -f1 | sort -u | tr '\n' ' ')"
ok "the profile has paths of main and of f0 and f1 at least (got:$funcs)" \
    bash -c '[[ $1 == *" f0 "* && $1 == *" f1"* && $1 == *" main "* ]]' _ "$funcs"
is "$cli" "$oracle" "the CLI and ppdecode.pl decode every path the same (ID, count, blocks)"

done_testing
