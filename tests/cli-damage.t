#!/usr/bin/env bash
# Damaged profiles, one field at a time: each must give exit status 2 and
# exactly one line "pathprof: FILE: <what is wrong>" from every command,
# without a crash, a hang or a large allocation (run under ulimit -v).
# The fields are found through the map tests/cli/mkprofile.pl writes;
# most edits re-seal the checksum so the damage reaches the parser.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require

perl "$MKPROFILE" --scenario small --map "$T/p.map" "$T/p.pp" || BAIL_OUT "mkprofile.pl failed"
cli_run report "$T/p.pp"
is "$RC" 0 "the undamaged profile reads"

# A bogus length must never turn into a big allocation: 256 MB of address
# space is far more than pathprof needs for these files.
pp_ulimit_v 262144

# damage NAME REGEX EDIT...: write the damaged file, expect REGEX from all commands
damage() {
    local name=$1 re=$2 f=$T/d.pp cmd
    shift 2
    if ! perl "$PATCH" "$T/p.pp" "$f" --map "$T/p.map" "$@" 2>"$T/patch.err"; then
        fail "$name: patch" "$(cat "$T/patch.err")"
        return
    fi
    cli_run report "$f"
    one_error_line "$f" "$re" "$name"
    for cmd in "report $f --json" "show $f loop 1" "dot $f loop"; do
        # shellcheck disable=SC2086
        cli_run $cmd
        if [ "$RC" != 2 ] || [ "$(printf '%s' "$ERR" | grep -c '')" != 1 ]; then
            fail "$name: ${cmd%% *} also exit 2 with one line" "exit $RC, stderr:" "$ERR"
            return
        fi
    done
}

# The envelope: magic, versions, sizes, checksum.
damage "wrong magic" 'not a pathprof profile \(it does not start with "PATHPROF"\)' \
    field:header.magic=0x5858585858585858
damage "wrong file version" 'profile format version 3, this pathprof reads versions 1 to 2$' field:header.version=3
damage "wrong header size" 'header size 128, expected 64$' --reseal field:header.header_size=128
damage "unknown mode" 'profile mode 7 is not supported' --reseal field:header.mode=7
damage "payload size beyond the file" 'truncated: the header announces 9223372036854775807 payload bytes' \
    field:header.payload_size=0x7fffffffffffffff
damage "bytes after the trailer" '1 unexpected bytes after the checksum$' append:00
damage "one byte changed" 'checksum mismatch \(stored [0-9a-f]{16}, computed [0-9a-f]{16}\): the file is damaged$' \
    xor:200:0x10
damage "checksum itself changed" 'checksum mismatch' xor:$(($(stat -c %s "$T/p.pp") - 1)):0x01
damage "2^32-1 sections" 'section 3 of 4294967295 \(at byte [0-9]+\): truncated section header$' \
    --reseal field:header.nsections=0xffffffff
damage "fewer sections than the payload holds" 'payload bytes after the last of the 1 sections$' \
    --reseal field:header.nsections=1
damage "section length 2^64-1" 'section 2 \(at byte [0-9]+\): length 18446744073709551615 exceeds' \
    --reseal field:sec1.length=0xffffffffffffffff
# A damaged PROGRAM section costs only what it holds: every command reads
# the rest and warns once, naming it (docs/cli.md, "Damaged profiles").
perl "$PATCH" "$T/p.pp" "$T/d.pp" --map "$T/p.map" --reseal field:program.program.len=0xffffffff
for cmd in "report @" "report @ --json" "show @ loop 1" "dot @ loop"; do
    # shellcheck disable=SC2086
    cli_run ${cmd/@/$T/d.pp}
    is "$RC:$(printf '%s' "$ERR" | grep -c '')" "0:1" "PROGRAM string length beyond the section: $cmd reads the rest"
done
like "$ERR" "^pathprof: $T/d.pp: warning: section 1 \(PROGRAM, at byte 64\) is damaged, .*: truncated$" \
    "PROGRAM string length beyond the section: one warning naming the section and why"

# The metadata blob.
damage "metadata length beyond the section" 'TU, at byte [0-9]+\): metadata length 18446744073709551615 exceeds' \
    --reseal field:tu0.meta_len=0xffffffffffffffff
damage "wrong metadata magic" 'metadata blob does not start with "PPTM"$' --reseal field:tu0.meta.magic=0x58585858
damage "wrong metadata version" 'metadata version 9, this pathprof reads versions 1 to 3$' --reseal field:tu0.meta.version=9
damage "2^32-1 functions" '4294967295 functions do not fit in the [0-9]+-byte blob$' \
    --reseal field:tu0.meta.nfuncs=0xffffffff
damage "2^32-1 strings" '4294967295 strings do not fit' --reseal field:tu0.meta.nstrings=0xffffffff
damage "string table offset beyond the blob" 'string table offset 18446744073709551615 is past the end' \
    --reseal field:tu0.meta.strtab_offset=0xffffffffffffffff
damage "string length beyond the blob" 'string 0 runs past the end of the blob$' --reseal field:tu0.str0.len=0xfffffff0
damage "string with a NUL" 'string 0 contains a NUL byte$' --reseal field:tu0.str0.bytes=0x00000041
damage "name index out of range" 'function 0: name string index 1000 out of range \(2 strings\)$' \
    --reseal field:tu0.f0.name=1000
damage "file index out of range" 'function 0 \(loop\): file string index 7 out of range' --reseal field:tu0.f0.file=7
damage "counters outside the TU's array" 'counters \[18446744073709551615, \+6\) outside the 15 counters$' \
    --reseal field:tu0.f0.counter_offset=0xffffffffffffffff
damage "no counters at all" 'outside the 0 counters' --reseal field:tu0.meta.ncounters=0
damage "verify counters outside the array" 'verify counters \[[0-9]+, \+9\) outside the 15 counters$' \
    --reseal field:tu0.f0.verify_offset=0xfffffffffffffff0
damage "verify edges without VERIFY" '9 verify edges without the VERIFY flag$' --reseal field:tu0.f0.flags=0
damage "detail offset beyond the blob" 'detail offset 9223372036854775808 is past the end' \
    --reseal field:tu0.f0.detail_offset=0x8000000000000000
damage "2^32-1 nodes" '4294967295 nodes do not fit in the [0-9]+ bytes left$' --reseal field:tu0.f0.nnodes=0xffffffff
damage "one node" '1 nodes \(ENTRY and EXIT at least\)$' --reseal field:tu0.f0.nnodes=1
damage "node 0 not ENTRY" 'nodes 0 and 1 are not ENTRY \(bb 0\) and EXIT \(bb 1\)$' --reseal field:tu0.f0.node0.bb=5
damage "node file out of range" 'node 3: file string index 99 out of range' --reseal field:tu0.f0.node3.file=99
damage "2^32-1 edges" '4294967295 edges do not fit' --reseal field:tu0.f0.nedges=0xffffffff
damage "edge to a node that does not exist" 'edge 3: node number out of range \(9 nodes\)$' \
    --reseal field:tu0.f0.edge3.dst=1000
damage "edge of unknown kind" 'edge 3: unknown kind 9$' --reseal field:tu0.f0.edge3.kind=9
damage "edge into ENTRY" 'edge 3: enters ENTRY$' --reseal field:tu0.f0.edge3.dst=0
damage "edge out of EXIT" 'edge 10: leaves EXIT$' --reseal field:tu0.f0.edge10.src=1
damage "exit dummy to a node that does not exist" 'edge 9: real destination 1000 out of range' \
    --reseal field:tu0.f0.edge9.real_dst=1000
damage "exit dummy without a real destination" 'edge 10: real destination 4294967295 out of range' \
    --reseal field:tu0.f0.edge10.kind=2
damage "real destination on a real edge" 'edge 3: real destination set on a kind 0 edge$' \
    --reseal field:tu0.f0.edge3.real_dst=3
damage "entry dummy not from ENTRY" 'edge 1: entry dummy edge does not leave ENTRY$' \
    --reseal field:tu0.f0.edge1.src=2
damage "edges not sorted by value" 'edges of node 3 are not sorted by value$' --reseal field:tu0.f0.edge3.val=5
damage "edges of a node not together" 'edges of node 2 are not grouped together$' --reseal field:tu0.f0.edge4.src=2
damage "a cycle" 'the path graph has a cycle$' --reseal field:tu0.f0.edge7.dst=3
damage "verify count differs from the directory" '9 verify edges in the detail record, 3 in the directory$' \
    --reseal field:tu0.f0.nverify=3
damage "verify edge out of range" 'verify edge 0: node number out of range' --reseal field:tu0.f0.verify0.src=99
damage "padding not zero" 'non-zero padding after the metadata$' --reseal field:tu0.pad=1

# The counts.
damage "2^60 path records" '1152921504606846976 path records do not fit in the [0-9]+ bytes left$' \
    --reseal field:tu0.f0.nrecords=0x1000000000000000
damage "path ID beyond npaths" 'function 0 \(loop\): path ID 2 out of range \(2 paths\)$' --reseal field:tu0.f0.npaths=2
damage "path IDs out of order" 'path IDs not in ascending order at record 1$' --reseal field:tu0.f0.rec1.id=1
damage "count 0 recorded" 'path 1 recorded with count 0$' --reseal field:tu0.f0.rec0.count=0
damage "values that do not add up (left over)" 'function 0 \(loop\): path 3 cannot be decoded: 1 left over at EXIT$' \
    --reseal field:tu0.f0.edge1.val=4
damage "values that do not add up (no edge)" 'path 1 cannot be decoded: node 2 \(bb 22\) has no edge for the remaining value 1$' \
    --reseal field:tu0.f0.edge2.val=7
damage "verify counts missing" 'section 2 \(TU, at byte [0-9]+\): function 0 \(loop\): 9 edge counts do not fit' \
    --reseal field:sec1.length=$(( $(awk '$1 == "tu0.f0.vcount0" { print $2 }' "$T/p.map") - $(awk '$1 == "sec1.length" { print $2 }' "$T/p.map") - 8 )) \
    set:48:8:$(( $(awk '$1 == "tu0.f0.vcount0" { print $2 }' "$T/p.map") - 64 )) \
    cut:$(awk '$1 == "tu0.f0.vcount0" { print $2 }' "$T/p.map") append:0000000000000000

# Damage that is not damage: unknown sections are skipped, unknown flag bits kept.
perl "$PATCH" "$T/p.pp" "$T/ok.pp" --map "$T/p.map" --reseal field:sec0.tag=77
cli_run report "$T/ok.pp"
is "$RC" 0 "an unknown section is skipped"
has "$OUT" "program    (not recorded)" "without a PROGRAM section the report says so"
perl "$PATCH" "$T/p.pp" "$T/ok.pp" --map "$T/p.map" --reseal field:tu0.f0.flags=0x8008
cli_run report "$T/ok.pp"
is "$RC" 0 "unknown function flag bits are accepted"
done_testing
