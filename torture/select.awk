# Reads the DejaGnu directives of one torture test and prints one line:
#   run OPTIONS...      the test runs here, with these extra options
#   skip REASON         the test is skipped (needs what we do not model)
# Only the conventions that occur in gcc.c-torture/execute are handled, for
# an x86_64 GNU/Linux host. Usage: awk -f select.awk test.c
function selector_is_ours(s) {
    return s ~ /(^|[ {])\*-\*-\*/ || s ~ /x86_64/ || s ~ /i\?86/
}
BEGIN { opts = ""; skip = "" }
{
    line = $0
    if (line !~ /\{ *dg-/) next
    match(line, /\{ *dg-[a-z-]+/)
    dir = substr(line, RSTART, RLENGTH); sub(/\{ */, "", dir)
    rest = substr(line, RSTART + RLENGTH)
    if (dir == "dg-do") {
        if (rest !~ /^ *run/) skip = skip " dg-do"
    } else if (dir == "dg-skip-if" || dir == "dg-xfail-if" || dir == "dg-xfail-run-if") {
        if (selector_is_ours(rest)) skip = skip " " dir
    } else if (dir == "dg-options" || dir == "dg-additional-options") {
        o = rest
        if (o ~ /target/) {
            if (!selector_is_ours(o) || o ~ /ia32/) next
            sub(/\{ *target.*/, "", o)
        }
        sub(/\} *\*\/.*$/, "", o); sub(/\} *$/, "", o)
        gsub(/["{}]/, "", o)
        opts = opts " " o
    } else if (dir == "dg-require-effective-target") {
        t = rest; sub(/^ */, "", t); sub(/[ }].*/, "", t)
        if (t !~ /^(int32plus|int32|label_values|alloca|trampolines|indirect_jumps|untyped_assembly|return_address|fileio|c99_runtime|unwrapped|stdint_types|mmap|int128|double64plus|longlong64|dfp)$/)
            skip = skip " target:" t
    } else if (dir == "dg-add-options" || dir == "dg-require-stack-size" ||
               dir == "dg-require-alias" || dir == "dg-require-weak" ||
               dir == "dg-prune-output") {
        next  # no-ops on x86_64 GNU/Linux
    } else {
        skip = skip " " dir
    }
}
END {
    if (skip != "") { print "skip" skip }
    else { gsub(/  +/, " ", opts); sub(/ +$/, "", opts); print "run" opts }
}
