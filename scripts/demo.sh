#!/bin/sh
# `make demo`: builds examples/demo.c with the pathprof plugin, runs it and
# prints the path report. Run from anywhere; works in the repository.
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
set -x
gcc $cflags -O2 -g examples/demo.c -o "$dir/demo" $libs
PATHPROF_OUT=$dir/pathprof.out "$dir/demo" 200000
"$cli" report --top 10 "$dir/pathprof.out"
