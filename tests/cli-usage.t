#!/usr/bin/env bash
# pathprof's command line: help, version, usage errors (exit 2), and files
# that cannot be read at all.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require

cli_run
is "$RC" 2 "no command: exit 2"
like "$ERR" "which command" "no command: says what is missing"

cli_run --help
is "$RC" 0 "--help: exit 0"
like "$OUT" "^Usage: pathprof COMMAND" "--help: usage on stdout"
like "$OUT" "report FILE \[--top N\] \[--function NAME\]" "--help: lists report"
like "$OUT" "config --cflags" "--help: lists config"

cli_run --version
is "$RC" 0 "--version: exit 0"
like "$OUT" "^pathprof [0-9.]+ \(profile format 2, metadata 3, run-time ABI 5\)$" "--version: versions"

cli_run frobnicate
is "$RC" 2 "unknown command: exit 2"
like "$ERR" "unknown command 'frobnicate'" "unknown command: named"
like "$ERR" "pathprof --help" "usage errors point to --help"

cli_run --frob
is "$RC" 2 "unknown option: exit 2"

for cmd in report show dot config; do
    cli_run "$cmd" --help
    is "$RC" 0 "$cmd --help: exit 0"
    like "$OUT" "^Usage: pathprof $cmd" "$cmd --help: its usage"
done

perl "$MKPROFILE" "$T/p.pp"
cli_run report
is "$RC" 2 "report without FILE: exit 2"
cli_run report "$T/p.pp" --top
is "$RC" 2 "report --top without N: exit 2"
cli_run report "$T/p.pp" --top 0
is "$RC" 2 "report --top 0: exit 2"
cli_run report "$T/p.pp" --top=x
is "$RC" 2 "report --top=x: exit 2"
cli_run report "$T/p.pp" --top -3
is "$RC" 2 "report --top -3: exit 2"
cli_run report "$T/p.pp" --colour
is "$RC" 2 "report unknown option: exit 2"
like "$ERR" "unknown option '--colour'" "report unknown option: named"
cli_run report "$T/p.pp" "$T/p.pp"
is "$RC" 2 "report two files: exit 2"
cli_run report "$T/p.pp" --function
is "$RC" 2 "report --function without NAME: exit 2"
cli_run show "$T/p.pp" loop
is "$RC" 2 "show without ID: exit 2"
cli_run show "$T/p.pp" loop 3x
is "$RC" 2 "show with a bad ID: exit 2"
cli_run show "$T/p.pp" loop -1
is "$RC" 2 "show with a negative ID: exit 2"
cli_run show "$T/p.pp" loop 1 2
is "$RC" 2 "show with too many arguments: exit 2"
cli_run dot "$T/p.pp"
is "$RC" 2 "dot without FUNCTION: exit 2"
cli_run config
is "$RC" 2 "config without option: exit 2"
cli_run config --cflags --frob
is "$RC" 2 "config unknown option: exit 2"
is "$OUT" "" "config unknown option: nothing on stdout"

# Files that cannot be read: one line naming the file, exit 2.
cli_run report "$T/missing.pp"
one_error_line "$T/missing.pp" "No such file or directory$" "missing file"
cli_run report "$T"
one_error_line "$T" "Is a directory$" "directory"
: >"$T/empty.pp"
cli_run report "$T/empty.pp"
one_error_line "$T/empty.pp" "truncated: 0 bytes" "empty file"
printf 'int main(void) { return 0; }\n' >"$T/prog.c"
cli_run report "$T/prog.c"
one_error_line "$T/prog.c" "not a pathprof profile" "a C file"
cli_run show "$T/missing.pp" loop 0
one_error_line "$T/missing.pp" "No such file" "show: missing file"
cli_run dot "$T/missing.pp" loop
one_error_line "$T/missing.pp" "No such file" "dot: missing file"
done_testing
