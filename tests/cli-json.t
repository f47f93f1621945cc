#!/usr/bin/env bash
# `pathprof report --json` (docs/json.md): exact values for paths known by
# construction (tests/cli/mkprofile.pl), u64 numbers above 2^53 printed
# exactly, edge counts derived from path counts equal to the direct ones.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require

perl "$MKPROFILE" --map "$T/p.map" "$T/p.pp" || BAIL_OUT "mkprofile.pl failed"
cli_run report "$T/p.pp" --json
is "$RC" 0 "--json: exit 0"
is "$ERR" "" "--json: nothing on stderr"
printf '%s\n' "$OUT" >"$T/p.json"
flat=$(perl "$JSONFLAT" <"$T/p.json")
ok_status $? "--json: valid JSON"

has "$flat" 'program="/tmp/prog"' "program"
has "$flat" 'command="./prog --fast 3"' "command"
has "$flat" 'pid=4242' "pid"
has "$flat" 'time=1700000000' "time"
has "$flat" 'paths_executed=9007199254741068' "paths_executed, exact above 2^53"
has "$flat" 'array_updates=64' "array_updates"
has "$flat" 'hash_updates=9007199254741004' "hash_updates"
is "$(printf '%s\n' "$flat" | grep -c '^F([^)]*)=')" 6 "six functions (helper@t.c copies merged)"
is "$(printf '%s\n' "$flat" | grep -o '^F([^)]*)=' | tr '\n' ' ')" \
    "F(loop@t.c)= F(helper@t.c)= F(cold@t.c)= F(helper@u.c)= F(fatal@u.c)= F(wide@u.c)= " \
    "functions in profile order, static functions distinguished by file"

L='F(loop@t.c)'
has "$flat" "$L.checksum=\"0x123456789abcdef0\"" "loop: checksum as hex string"
has "$flat" "$L.npaths=6" "loop: npaths"
has "$flat" "$L.line=1" "loop: line"
has "$flat" "$L.flags=[\"verify\"]" "loop: flags"
has "$flat" "$L.total=55" "loop: total"
has "$flat" "$L.paths[0]={\"blocks\":[23,24,25,27],\"count\":20,\"edges\":[[23,24],[24,25],[25,27],[27,23]],\"end\":\"backedge\",\"id\":3,\"length\":4,\"lines\":[\"t.c:3-5\",\"t.c:8-8\"],\"start\":\"loop\"}" \
    "loop path 3 (loop -> back edge): blocks, edges with the closing back edge, lines"
has "$flat" "$L.paths[1]={\"blocks\":[22,23,24,26,27],\"count\":10,\"edges\":[[22,23],[23,24],[24,26],[26,27],[27,23]],\"end\":\"backedge\",\"id\":1,\"length\":5,\"lines\":[\"t.c:2-4\",\"t.c:7-8\"],\"start\":\"entry\"}" \
    "loop path 1 (entry -> back edge)"
has "$flat" "$L.paths[2]={\"blocks\":[23,24,26,27],\"count\":10,\"edges\":[[23,24],[24,26],[26,27],[27,23]],\"end\":\"backedge\",\"id\":4,\"length\":4,\"lines\":[\"t.c:3-4\",\"t.c:7-8\"],\"start\":\"loop\"}" \
    "loop path 4"
has "$flat" "$L.paths[3]={\"blocks\":[23,28],\"count\":10,\"edges\":[[23,28],[28,1]],\"end\":\"return\",\"id\":5,\"length\":2,\"lines\":[\"t.c:3-3\",\"t.c:10-10\"],\"start\":\"loop\"}" \
    "loop path 5 (loop -> return)"
has "$flat" "$L.paths[4]={\"blocks\":[22,23,28],\"count\":5,\"edges\":[[22,23],[23,28],[28,1]],\"end\":\"return\",\"id\":2,\"length\":3,\"lines\":[\"t.c:2-3\",\"t.c:10-10\"],\"start\":\"entry\"}" \
    "loop path 2 (entry -> return)"
lacks "$flat" "^$L\.paths\[5\]" "loop: path 0 never ran, not listed"
has "$flat" "$L.verify_edges[7]={\"count\":40,\"dst\":23,\"src\":27}" "loop: verify edges as bb indices"
has "$flat" "$L.block_lines.26=\"t.c:7-7\"" "loop: block_lines"

has "$flat" 'F(helper@t.c).copies=2' "helper@t.c: two copies merged"
has "$flat" 'F(helper@t.c).total=7' "helper@t.c: counts summed (3 + 4)"
has "$flat" 'F(helper@t.c).paths[0].count=7' "helper@t.c: path count summed"
has "$flat" 'F(helper@u.c).paths[0].id=1' "helper@u.c: its own path"
has "$flat" 'F(cold@t.c).paths=[]' "cold: no paths"
has "$flat" 'F(cold@t.c).total=0' "cold: total 0"
has "$flat" 'F(cold@t.c).flags=["atomic"]' "cold: flags"
lacks "$flat" '^F\(cold@t\.c\)\.verify_edges' "no verify_edges without VERIFY"
has "$flat" 'F(fatal@u.c).flags=["hash"]' "fatal: hash flag"
has "$flat" 'F(fatal@u.c).paths[0]={"blocks":[2,3],"count":9007199254740993,"edges":[[2,3]],"end":"terminal","id":0,"length":2,"lines":["u.c:4-5"],"start":"entry"}' \
    "fatal path 0: count 2^53 + 1 exact, ends at a noreturn call"
has "$flat" 'F(wide@u.c).npaths=1152921504606846978' "wide: npaths above 2^60 exact"
has "$flat" 'F(wide@u.c).paths[0].id=1152921504606846977' "wide: path ID 2^60 + 1 exact"
has "$flat" 'F(wide@u.c).flags=["hash","cut"]' "wide: flags"
# Grep the raw text too: a JSON reader could round and hide a mistake.
like "$OUT" '"id":1152921504606846977,"count":3,' "raw JSON: ID printed as an exact integer"
like "$OUT" '"count":9007199254740993,' "raw JSON: count printed as an exact integer"

out=$(perl "$PP_CLI_DIR/edgecheck.pl" <"$T/p.json")
ok_status $? "edge counts derived from path counts equal verify_edges" || diag "$out"

cli_run report "$T/p.pp" --json --top 1
flat=$(printf '%s\n' "$OUT" | perl "$JSONFLAT")
has "$flat" "$L.paths[0].id=3" "--json --top 1: the most frequent path"
lacks "$flat" '\.paths\[1\]=' "--json --top 1: one path per function"

cli_run report "$T/p.pp" --json --function u.c:helper
flat=$(printf '%s\n' "$OUT" | perl "$JSONFLAT")
is "$(printf '%s\n' "$flat" | grep -c '^F([^)]*)=')" 1 "--json --function FILE:NAME: one function"
has "$flat" 'F(helper@u.c).total=2' "--json --function: the right one"

# Names that are not valid UTF-8 or hold control characters still give
# valid JSON (the runtime copies whatever bytes the program had).
# "loop" (string 0 of the first TU) becomes \ 0xff " newline.
perl "$PATCH" "$T/p.pp" "$T/odd.pp" --reseal --map "$T/p.map" field:tu0.str0.bytes=0x0a22ff5c
cli_run report "$T/odd.pp" --json
flat=$(printf '%s\n' "$OUT" | perl "$JSONFLAT")
ok_status $? "a function name with a quote, a backslash, a newline and a bad byte: valid JSON"
like "$OUT" '"name":"\\\\\\uFFFD\\"\\n"|"name":"\\\\\\ufffd\\"\\n"' "the odd name is escaped"
cli_run report "$T/odd.pp"
is "$RC" 0 "the odd name in text: exit 0"
like "$OUT" '"\? \(t\.c:1\)' "text output: the newline in the name printed as ?"
done_testing
