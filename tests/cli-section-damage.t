#!/usr/bin/env bash
# One damaged section must not take the others down (issue 11, fault 0): a
# real stream-mode run (tests/cli/kipf/oddeven.c, analyzers blpp, ksf and
# ksf-pruned) writes PROGRAM, TU, KIPF, KPRUNE and STREAM sections; then
# tests/cli/craft.pl makes one section inconsistent at a time, checksum
# re-sealed. A command that does not need the section works, prints what
# it printed on the sound file and warns once on stderr naming the file,
# the section and why; a command that needs it exits 2 with one line
# naming them; --json carries every section's status. A bad checksum of
# the whole file stays fatal (docs/format.md, "Damaged sections").
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
pp_require_build
CRAFT=$PP_CLI_DIR/craft.pl

cp "$PP_CLI_DIR/kipf/oddeven.c" "$T/"
cd "$T" || exit 1
pp_cc "$T/oe" oddeven.c -O2 -fplugin-arg-pathprof-mode=stream || BAIL_OUT "cannot build oddeven.c"
PATHPROF_ANALYZER=blpp,ksf,ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=64K PATHPROF_QUIET=1 \
    PATHPROF_OUT=$T/good.pp "$T/oe" >/dev/null || BAIL_OUT "the profiled run failed"

# The loop's hottest path (E, the even arm) roots a k-IPF tree.
E=$("$PP_CLI" report "$T/good.pp" --json --function loop | sed -n 's/.*{"id":\([0-9]*\),"count":400,.*/\1/p')
[ -n "$E" ] || BAIL_OUT "no path of loop ran 400 times"
COMMANDS=("report @" "report @ --json" "report --k @" "report --k --pruned @" "tree @ loop $E --prune 0"
    "show @ loop $E" "dot @ loop")

# run CMD FILE: cli_run with @ replaced by FILE
run() {
    local cmd=$1 file=$2
    # shellcheck disable=SC2086
    cli_run ${cmd//@/$file}
}

# The sound profile: every command reads it silently; keep their outputs.
declare -A GOOD
for cmd in "${COMMANDS[@]}"; do
    run "$cmd" "$T/good.pp"
    is "$RC:$ERR" "0:" "sound profile: $cmd"
    GOOD[$cmd]=$OUT
done
kinds=$(printf '%s\n' "${GOOD[report @ --json]}" | sed -n 's/.*"kind":"\([A-Z]*\)".*"status":"ok".*/\1/p' | tr '\n' ' ')
is "$kinds" "PROGRAM TU KIPF KPRUNE STREAM " "sound profile: --json lists the five sections, all ok"

# section_of FILE KIND: "N (KIND, at byte B)" of that section, as messages say it
section_of() {
    "$PP_CLI" report "$1" --json 2>/dev/null |
        sed -n "s/.*{\"index\":\([0-9]*\),\"kind\":\"$2\",\"tag\":[0-9]*,\"at\":\([0-9]*\),.*/\1 ($2, at byte \2)/p"
}
SEC_KIPF=$(section_of "$T/good.pp" KIPF | sed 's/[()]/\\&/g')
SEC_KPRUNE=$(section_of "$T/good.pp" KPRUNE | sed 's/[()]/\\&/g')
SEC_TU=$(section_of "$T/good.pp" TU | sed 's/[()]/\\&/g')
SEC_PROGRAM=$(section_of "$T/good.pp" PROGRAM | sed 's/[()]/\\&/g')
SEC_STREAM=$(section_of "$T/good.pp" STREAM | sed 's/[()]/\\&/g')

# works NAME FILE CMD SECTION-RE WHY-RE [same|same-but-budget]: exit 0, one
# warning naming FILE, the section and why; with "same", stdout as on the
# sound profile; with "same-but-budget" too, but for the header's budget,
# which only the damaged KPRUNE section knew and which it says is not known
works() {
    local name=$1 file=$2 cmd=$3 sec=$4 why=$5 same=${6:-}
    run "$cmd" "$file"
    if [ "$RC" = 0 ] && [ "$(printf '%s' "$ERR" | grep -c '')" = 1 ] &&
        printf '%s' "$ERR" | grep -qE -- "^pathprof: $file: warning: section $sec is damaged, .*: $why$"; then
        pass "$name: $cmd works, one warning"
    else
        fail "$name: $cmd works, one warning" "exit $RC, stderr:" "$ERR"
    fi
    if [ "$same" = same-but-budget ]; then
        has "$OUT" "analysis   k 4, budget not known (KPRUNE section damaged), sampling none (every path counted)" \
            "$name: $cmd says the budget is not known"
        is "$(printf '%s\n' "$OUT" | sed '/^analysis   /d')" \
            "$(printf '%s\n' "${GOOD[$cmd]}" | sed '/^analysis   /d')" \
            "$name: $cmd prints what it prints on the sound profile, but for the budget"
    elif [ -n "$same" ]; then
        is "$OUT" "${GOOD[$cmd]}" "$name: $cmd prints what it prints on the sound profile"
    fi
}

# refuses NAME FILE CMD SECTION-RE WHY-RE: exit 2, one line naming them
refuses() {
    local name=$1 file=$2 cmd=$3 sec=$4 why=$5
    run "$cmd" "$file"
    one_error_line "$file" " are unreadable \(.*\): section $sec: $why$" "$name: $cmd exits 2 naming the section"
}

# The issue's case: a KIPF child in another function than its parent.
F=$T/kipf.pp
perl "$CRAFT" "$T/good.pp" "$F" kipf-child-func || BAIL_OUT "craft.pl failed"
WHY="node 1 \(depth 1\): function [a-z]+, its parent.s is [a-z]+: a k-iteration path lies within one function"
works "KIPF inconsistent" "$F" "report @" "$SEC_KIPF" "$WHY" same
works "KIPF inconsistent" "$F" "report --k --pruned @" "$SEC_KIPF" "$WHY" same
works "KIPF inconsistent" "$F" "show @ loop $E" "$SEC_KIPF" "$WHY" same
works "KIPF inconsistent" "$F" "dot @ loop" "$SEC_KIPF" "$WHY" same
refuses "KIPF inconsistent" "$F" "report --k @" "$SEC_KIPF" "$WHY"
like "$ERR" "report --k --pruned reads the KPRUNE section" "KIPF inconsistent: the error says what still reads"
refuses "KIPF inconsistent" "$F" "tree @ loop $E --prune 0" "$SEC_KIPF" "$WHY"
works "KIPF inconsistent" "$F" "report @ --json" "$SEC_KIPF" "$WHY"
like "$OUT" '"kind":"KIPF","tag":4,"at":[0-9]+,"length":[0-9]+,"status":"damaged","error":"node 1 \(depth 1\): function' \
    "KIPF inconsistent: --json says the KIPF section is damaged, and why"
is "$(printf '%s\n' "$OUT" | grep -c '"status":"ok"')" 4 "KIPF inconsistent: --json: the four other sections ok"
is "$(printf '%s\n' "$OUT" | sed -n '/"functions":/,$p')" \
    "$(printf '%s\n' "${GOOD[report @ --json]}" | sed -n '/"functions":/,$p')" \
    "KIPF inconsistent: --json: the Ball-Larus paths as on the sound profile"

# KPRUNE: a sequence whose error exceeds its count.
F=$T/kprune.pp
perl "$CRAFT" "$T/good.pp" "$F" kprune-err || BAIL_OUT "craft.pl failed"
WHY="sequences of 1 BL paths: sequence 0: count [0-9]+ with error [0-9]+ \(count >= 1, error <= count\)"
works "KPRUNE inconsistent" "$F" "report @" "$SEC_KPRUNE" "$WHY" same-but-budget
works "KPRUNE inconsistent" "$F" "report --k @" "$SEC_KPRUNE" "$WHY" same-but-budget
works "KPRUNE inconsistent" "$F" "tree @ loop $E --prune 0" "$SEC_KPRUNE" "$WHY" same
refuses "KPRUNE inconsistent" "$F" "report --k --pruned @" "$SEC_KPRUNE" "$WHY"
run "report --k @ --json" "$F"
like "$OUT" '"kind":"KPRUNE","tag":5,"at":[0-9]+,"length":[0-9]+,"status":"damaged","error":"sequences of 1' \
    "KPRUNE inconsistent: report --k --json says the KPRUNE section is damaged"

# TU counts: a path recorded with count 0. The functions are sound, so
# the k-iteration paths still read; the Ball-Larus paths do not.
F=$T/counts.pp
perl "$CRAFT" "$T/good.pp" "$F" tu-count0 || BAIL_OUT "craft.pl failed"
WHY="function [0-9]+ \([a-z]+\): path [0-9]+ recorded with count 0"
for cmd in "report @" "report @ --json" "show @ loop $E" "dot @ loop"; do
    refuses "TU counts inconsistent" "$F" "$cmd" "$SEC_TU" "$WHY"
done
works "TU counts inconsistent" "$F" "report --k @" "$SEC_TU" "$WHY"
has "$OUT" "paths      not known: section 2 (TU) is damaged" \
    "TU counts inconsistent: report --k says the path total is not known"
is "$(printf '%s\n' "$OUT" | sed -n '/^k  /,$p')" "$(printf '%s\n' "${GOOD[report --k @]}" | sed -n '/^k  /,$p')" \
    "TU counts inconsistent: report --k lists the k-iteration paths of the sound profile"
works "TU counts inconsistent" "$F" "tree @ loop $E --prune 0" "$SEC_TU" "$WHY" same
works "TU counts inconsistent" "$F" "report --k --pruned @" "$SEC_TU" "$WHY"

# TU metadata: no function is known, so nothing reads; KIPF and KPRUNE,
# whose labels name those functions, are not even read.
F=$T/meta.pp
perl "$CRAFT" "$T/good.pp" "$F" tu-meta-magic || BAIL_OUT "craft.pl failed"
for cmd in "${COMMANDS[@]}"; do
    refuses "TU metadata damaged" "$F" "$cmd" "$SEC_TU" 'metadata blob does not start with "PPTM"'
done

# PROGRAM: only the program's name, command line and totals are lost.
F=$T/program.pp
perl "$CRAFT" "$T/good.pp" "$F" program-len || BAIL_OUT "craft.pl failed"
for cmd in "report --k @" "report --k --pruned @" "tree @ loop $E --prune 0" "show @ loop $E" "dot @ loop"; do
    works "PROGRAM damaged" "$F" "$cmd" "$SEC_PROGRAM" "truncated"
done
works "PROGRAM damaged" "$F" "report @" "$SEC_PROGRAM" "truncated"
has "$OUT" "program    (PROGRAM section damaged)" "PROGRAM damaged: report says so where the program was"
is "$(printf '%s\n' "$OUT" | sed -n '/^mode/,$p')" "$(printf '%s\n' "${GOOD[report @]}" | sed -n '/^mode/,$p')" \
    "PROGRAM damaged: the rest of the report as on the sound profile"
works "PROGRAM damaged" "$F" "report @ --json" "$SEC_PROGRAM" "truncated"
like "$OUT" '^\{"program":null,' "PROGRAM damaged: --json: program null"

# STREAM: whether events were lost is not known, and report says so loudly.
F=$T/stream.pp
perl "$CRAFT" "$T/good.pp" "$F" stream-threads || BAIL_OUT "craft.pl failed"
WHY="16 bytes of per-thread statistics for 2 analyzer threads"
works "STREAM damaged" "$F" "report @" "$SEC_STREAM" "$WHY"
like "$OUT" "^!!! NOT KNOWN TO BE EXACT: section 5 \(STREAM\) is damaged" "STREAM damaged: report says first that exactness is not known"
has "$OUT" "mode       stream (STREAM section damaged: whether events were lost is not known)" \
    "STREAM damaged: ... and on its mode line"
works "STREAM damaged" "$F" "report @ --json" "$SEC_STREAM" "$WHY"
like "$OUT" '"stream":null,' "STREAM damaged: --json: stream null"
like "$OUT" '"kind":"STREAM","tag":3,"at":[0-9]+,"length":[0-9]+,"status":"damaged"' \
    "STREAM damaged: --json says why in sections"

# Two damaged sections: one warning each, and the Ball-Larus paths still read.
F=$T/two.pp
perl "$CRAFT" "$T/good.pp" "$F" kipf-child-func program-len || BAIL_OUT "craft.pl failed"
run "report @" "$F"
is "$RC:$(printf '%s\n' "$ERR" | grep -c ": warning: section ")" "0:2" "two damaged sections: report works, two warnings"

# The checksum covers the whole file and nothing smaller: a mismatch leaves
# no section known to be sound, so every command refuses the file.
F=$T/checksum.pp
perl "$CRAFT" "$T/good.pp" "$F" header-byte || BAIL_OUT "craft.pl failed"
for cmd in "${COMMANDS[@]}"; do
    run "$cmd" "$F"
    one_error_line "$F" 'checksum mismatch \(stored [0-9a-f]{16}, computed [0-9a-f]{16}\): the file is damaged$' \
        "checksum mismatch: $cmd exits 2"
done
done_testing
