#!/bin/sh
# `make demo`: the main job on the bundled example (examples/demo.c, a
# small interpreter): built once in stream mode, run with the blpp and ksf
# analyzers (exact Ball-Larus and k-iteration paths), run again with
# ksf-pruned under a small memory budget (k-iteration paths with bounds),
# each profile reported, then the HTML report of both. Run from anywhere.
set -eu
cd "$(dirname "$0")/.."
cli=build/bin/pathprof
dir=build/demo
for f in build/lib/pathprof.so build/lib/libpathprof.so "$cli"; do
    if [ ! -e "$f" ]; then
        echo "demo: $f is missing: run 'make' first (or 'make demo', which does)" >&2
        exit 1
    fi
done
mkdir -p "$dir"
cflags=$("$cli" config --cflags)
libs=$("$cli" config --libs)
n=${DEMO_STATEMENTS:-50000}
banner() { printf '\n==== %s ====\n\n' "$*"; }

banner "build examples/demo.c in stream mode"
set -x
gcc $cflags -fplugin-arg-pathprof-mode=stream -O2 -g examples/demo.c -o "$dir/demo" $libs
{ set +x; } 2>/dev/null

banner "run it with the blpp and ksf analyzers (k = 4)"
set -x
PATHPROF_ANALYZER=blpp,ksf PATHPROF_K=4 PATHPROF_OUT=$dir/exact.pp "$dir/demo" "$n"
{ set +x; } 2>/dev/null

banner "the hottest Ball-Larus paths"
set -x
"$cli" report --top 3 "$dir/exact.pp"
{ set +x; } 2>/dev/null

banner "the hottest k-iteration paths"
set -x
"$cli" report --k --top 3 "$dir/exact.pp"
{ set +x; } 2>/dev/null

banner "a pruned run: ksf-pruned in 64 KiB per analyzer thread, every count with bounds"
set -x
PATHPROF_ANALYZER=ksf-pruned PATHPROF_K=4 PATHPROF_PRUNE=64K PATHPROF_OUT=$dir/pruned.pp "$dir/demo" "$n"
"$cli" report --k --top 3 "$dir/pruned.pp"
{ set +x; } 2>/dev/null

banner "the HTML report of both profiles"
set -x
"$cli" html -o "$dir/html" "$dir/exact.pp" "$dir/pruned.pp"
{ set +x; } 2>/dev/null
echo
echo "demo: open $(pwd)/$dir/html/index.html in a browser (static files, works offline)"
