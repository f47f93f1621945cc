#!/usr/bin/env bash
# sweep.sh BIN DIR KINDS STRIDE PROGRESS - runs `BIN report` on the damaged
# profiles DIR/KIND-N that tests/cli/patch.pl --sweep wrote, for each KIND
# in KINDS (space-separated) and every STRIDE-th N, and prints one line per
# broken promise ("FILE: why"); nothing when all is well.
#
#   trunc, flip   (checksum or size catch them): exit 2 and one line
#                 "pathprof: FILE: ..." on stderr
#   rflip, rflip1, rtrunc (resealed: the parser sees the damage): exit 2
#                 with one such line, or exit 0 with a silent stderr or one
#                 warning naming a damaged section report does not need; every
#                 other file that reads is then also run through report
#                 --json, show, dot (and on one in four, diff with itself
#                 and html), which must
#                 end normally (0, 1 or 2) with at most one line besides
#                 that warning.
# Anything else (a signal, a sanitizer report, more lines) is a violation.
# PROGRESS holds the file being run, so a caller that kills a hung sweep
# can say which file hung.
bin=$1 dir=$2 kinds=$3 stride=$4 progress=$5
err=$dir.stderr

# lines_ok FILE RC: stderr of the last run fits exit status RC
lines_ok() {
    local f=$1 rc=$2 lines=()
    mapfile -t lines <"$err"
    if [ "$rc" = 0 ]; then
        # A section report does not need may be damaged: one warning.
        [ ${#lines[@]} = 0 ] ||
            { [ ${#lines[@]} = 1 ] && [[ ${lines[0]} == "pathprof: $f: warning: section "* ]]; }
    else
        [ ${#lines[@]} = 1 ] && [[ ${lines[0]} == "pathprof: $f: "* ]]
    fi
}

for kind in $kinds; do
    for f in "$dir/$kind"-*; do
        [ -e "$f" ] || continue
        n=${f##*-}
        [ $((n % stride)) = 0 ] || continue
        printf '%s\n' "$f" >"$progress"
        "$bin" report "$f" >/dev/null 2>"$err"
        rc=$?
        case $kind:$rc in
        trunc:2 | flip:2 | rflip:[02] | rflip1:[02] | rtrunc:[02]) ;;
        *)
            echo "$f: report exit status $rc: $(head -c 300 "$err" | tr '\n' '|')"
            continue ;;
        esac
        if ! lines_ok "$f" "$rc"; then
            echo "$f: report stderr is not one line naming the file: $(head -c 300 "$err" | tr '\n' '|')"
            continue
        fi
        # The other commands on every other readable file: they share the
        # reader, and time matters more than the last few percent here.
        [ "$rc" = 0 ] && [ $((n / stride % 2)) = 0 ] || continue
        cmds=("report --json" "show @ loop 3" "dot @ loop")
        # diff and html read as report does: on one file in four.
        [ $((n / stride % 8)) = 0 ] && cmds+=("diff @ @" "html -o $dir.html @")
        for cmd in "${cmds[@]}"; do
            # shellcheck disable=SC2086
            set -- ${cmd//@/$f}
            [ "$1" = report ] && set -- report "$f" --json
            "$bin" "$@" >/dev/null 2>"$err"
            rc=$?
            # At most one line of its own, after report's warning if any.
            if [ "$rc" -gt 2 ] || [ "$(grep -vc "^pathprof: $f: warning: section " "$err")" -gt 1 ] ||
                [ "$(wc -l <"$err")" -gt 2 ]; then
                echo "$f: $cmd exit status $rc: $(head -c 300 "$err" | tr '\n' '|')"
            fi
        done
    done
done
