#!/bin/bash
# GCC's C torture execute suite with and without the pathprof plugin.
# Every test that passes natively must pass with the plugin: compiled with
# `pathprof config --cflags/--libs`, same exit status, and (when the CLI is
# built) a profile that `pathprof report` reads back.
#
# Usage: torture/run.sh [--list FILE] [--tap] [--levels "0 2"] [--jobs N]
#                       [--plugin-arg NAME=VALUE]... [--same-as NAME=VALUE]...
#   --list FILE   only the tests named in FILE (# comments, names without .c)
#   --tap         print TAP, one test line per (test, -O level)
#   --plugin-arg  adds -fplugin-arg-pathprof-NAME=VALUE (e.g. mode=stream)
#   --same-as     also builds each test with -fplugin-arg-pathprof-NAME=VALUE
#                 added and requires the same profile, path for path
#                 (tests/oracle/samepaths.pl): for arguments that must not
#                 change a count (loop-counts=0, hash-threshold=0)
# Environment: PP_CFLAGS / PP_LIBS override `pathprof config`, PATHPROF_CLI
#   the CLI that reads the profiles back (empty: do not read them);
#   TORTURE_RUN_TIMEOUT (s, default 20) limits each run; TORTURE_CFLAGS go
#   to both builds (a sanitizer suite's flags, torture/one.sh);
#   TORTURE_OUT replaces build/torture/run-LIST (a sanitizer suite's own).
# Writes build/torture/run-all/results.txt (run-LIST for --list LIST.list);
# failing runs keep their files in .../work/NAME-OLEVEL/{native,plugin}/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

list='' tap=0 levels="0 2" jobs=2 pargs='' tag='' same=''
while [ $# -gt 0 ]; do
    case $1 in
        --list) list=$2; shift 2 ;;
        --tap) tap=1; shift ;;
        --levels) levels=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --plugin-arg) pargs="$pargs -fplugin-arg-pathprof-$2"; tag="$tag-${2//[^A-Za-z0-9=]/_}"; shift 2 ;;
        --same-as) same="$same -fplugin-arg-pathprof-$2"; tag="$tag-same-${2//[^A-Za-z0-9=]/_}"; shift 2 ;;
        *) echo "torture/run.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done

bail() {  # a reason the whole run cannot happen
    if [ $tap = 1 ]; then echo "1..0 # SKIP $1"; exit 0; fi
    echo "torture: $1" >&2
    exit 1
}

plugin_so=$root/build/lib/pathprof.so
cli=$root/build/bin/pathprof
if [ -z "${PP_CFLAGS:-}" ]; then
    [ -f "$plugin_so" ] || bail "$plugin_so is not built yet (run make)"
    if [ -x "$cli" ]; then
        PP_CFLAGS=$("$cli" config --cflags) || bail "'$cli config --cflags' failed"
        PP_LIBS=$("$cli" config --libs) || bail "'$cli config --libs' failed"
    else
        # The CLI is not built yet: the same flags it would print.
        PP_CFLAGS="-fplugin=$plugin_so"
        PP_LIBS="-L$root/build/lib -Wl,-rpath,$root/build/lib -lpathprof -lpthread"
    fi
fi
PP_LIBS=${PP_LIBS:-}
PP_CFLAGS="$PP_CFLAGS$pargs"
if [ -z "${PATHPROF_CLI+set}" ]; then
    PATHPROF_CLI=
    [ -x "$cli" ] && PATHPROF_CLI=$cli
fi
[ -z "$same" ] || [ -n "$PATHPROF_CLI" ] || bail "--same-as compares profiles: build the CLI first (make)"
TORTURE_SAME_AS=$same TORTURE_ROOT=$root
export PP_CFLAGS PP_LIBS PATHPROF_CLI TORTURE_SAME_AS TORTURE_ROOT

if [ $tap = 1 ]; then
    torture/extract.sh build >/dev/null 2>&1 ||
        bail "cannot extract the torture suite (install gcc-12-source: scripts/install-deps.sh gcc-12-source)"
else
    torture/extract.sh build
fi
export TORTURE_SRC=$root/build/torture/execute
out=${TORTURE_OUT:-build/torture/run-$(basename "${list:-all}" .list)$tag}
case $out in /*) export TORTURE_WORK=$out/work ;; *) export TORTURE_WORK=$root/$out/work ;; esac
rm -rf "$TORTURE_WORK"
mkdir -p "$TORTURE_WORK"

if [ -n "$list" ]; then
    names=$(sed 's/#.*//' "$list" | tr -s ' \t' '\n\n' | sed '/^$/d')
else
    names=$(cd "$TORTURE_SRC" && ls -- *.c | sed 's/\.c$//')
fi

jobsfile=$out/jobs.txt results=$out/results.txt skipped=$out/skipped.txt
: >"$jobsfile"; : >"$skipped"
ntests=0
for name in $names; do
    ntests=$((ntests + 1))
    [ -f "$TORTURE_SRC/$name.c" ] || bail "no test $name.c in $TORTURE_SRC (from $list)"
    sel=$(awk -f torture/select.awk "$TORTURE_SRC/$name.c")
    case $sel in
        skip*) echo "$name ${sel#skip }" >>"$skipped" ;;
        run*) for o in $levels; do echo "$o $name${sel#run}" >>"$jobsfile"; done ;;
    esac
done

start=$(date +%s)
[ $tap = 1 ] || echo "torture: $ntests tests, $(wc -l <"$skipped") skipped for DejaGnu directives, $(wc -l <"$jobsfile") runs (-O${levels// /, -O}) on $jobs jobs; plugin flags: $PP_CFLAGS${same:+; the same profile with$same}"
xargs -P "$jobs" -L 1 torture/one.sh <"$jobsfile" >"$results.tmp"
# Job order, so that TAP numbering and listings are stable.
awk 'NR == FNR { r[$1 " " $2] = $0; next } { k = $2 " -O" $1; print r[k] }' \
    "$results.tmp" "$jobsfile" >"$results"
rm -f "$results.tmp"
elapsed=$(( $(date +%s) - start ))

repro() {  # NAME OLEVEL
    local opts
    opts=$(awk -v n="$1" -v o="${2#-O}" '$1 == o && $2 == n { $1 = ""; $2 = ""; print }' "$jobsfile" | sed 's/^ *//')
    echo "cd $out/work/$1$2/plugin && gcc -w $2 $PP_CFLAGS${opts:+ $opts} -c $TORTURE_SRC/$1.c -o t.o && gcc $2 t.o -o t $PP_LIBS -lm && ./t; echo exit=\$?"
}

if [ $tap = 1 ]; then
    n=$(( $(wc -l <"$results") + $(wc -l <"$skipped") * $(echo $levels | wc -w) ))
    echo "1..$n"
    i=0
    while read -r name o native plugin; do
        i=$((i + 1))
        case $native/$plugin in
            pass/pass) echo "ok $i - $name $o" ;;
            pass/*)
                echo "not ok $i - $name $o: with the plugin: $plugin (without: pass)"
                {
                    echo "# repro: $(repro "$name" "$o")"
                    for f in cc.log run.log report.log; do
                        [ -s "$TORTURE_WORK/$name$o/plugin/$f" ] &&
                            head -n 15 "$TORTURE_WORK/$name$o/plugin/$f" | sed "s/^/# $f: /"
                    done
                } >&2
                ;;
            *) echo "ok $i - $name $o # SKIP fails without the plugin ($native)" ;;
        esac
    done <"$results"
    while read -r name reason; do
        for o in $levels; do
            i=$((i + 1)); echo "ok $i - $name -O$o # SKIP $reason"
        done
    done <"$skipped"
    exit 0
fi

echo
printf '%-6s %8s %14s %14s %8s\n' level runs "native pass" "plugin pass" failed
total_native=0 total_pass=0
for o in $levels; do
    awk -v o="-O$o" '$2 == o { runs++; if ($3 == "pass") { n++; if ($4 == "pass") p++ } }
        END { printf "%-6s %8d %14d %14d %8d\n", o, runs, n, p, n - p }' "$results"
    total_native=$((total_native + $(awk -v o="-O$o" '$2 == o && $3 == "pass"' "$results" | wc -l)))
    total_pass=$((total_pass + $(awk -v o="-O$o" '$2 == o && $3 == "pass" && $4 == "pass"' "$results" | wc -l)))
done
awk '$3 != "pass" { print $1, $2, $3 }' "$results" >"$out/native-failures.txt"
echo "(native failures: $out/native-failures.txt; skipped: $skipped; ${elapsed}s)"
failed=$((total_native - total_pass))
if [ $failed -gt 0 ]; then
    echo
    echo "FAILURES with the plugin (each passes without it):"
    awk '$3 == "pass" && $4 != "pass" { print $1, $2, $4 }' "$results" |
    while read -r name o what; do
        printf '  %-24s %-4s %s\n' "$name" "$o" "$what"
        echo "      repro: $(repro "$name" "$o")"
    done
fi
echo
echo "torture: $total_pass passed, $failed failed (of $total_native runs that pass without the plugin)"
[ $failed = 0 ]
