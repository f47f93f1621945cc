#!/bin/bash
# The loops of GCC's C torture execute suite (torture/loops.list) at -O0
# and -O2, each built with loop-counts=1 (the default: a one-path loop's
# iterations counted at its exits, plugin/loop-counts.h) and with
# loop-counts=0 (the probe in the loop): every test that passes without
# the plugin must pass with it and write the same profile, path for path,
# both ways (tests/oracle/samepaths.pl). `make torture
# TORTURE_ARGS="--same-as loop-counts=0"` runs the whole suite so.
cd "$(dirname "$0")/.." || exit 1
B=${PATHPROF_BUILD:-build}
if [ ! -f "$B/lib/pathprof.so" ] || [ ! -f "$B/lib/libpathprof.so" ] || [ ! -x "$B/bin/pathprof" ]; then
    echo "1..0 # SKIP pathprof not built yet (run make)"
    exit 0
fi
if [ -f "$B/sanitize.env" ]; then
    . "$B/sanitize.env"
    export PP_CFLAGS="-fplugin=$B/lib/pathprof.so" PATHPROF_CLI=$B/bin/pathprof \
        PP_LIBS="-L$B/lib -Wl,-rpath,$B/lib -lpathprof -lpthread $PP_SAN_CFLAGS" \
        TORTURE_CFLAGS=$PP_SAN_CFLAGS TORTURE_OUT=$B/torture-loop-counts
fi
exec torture/run.sh --list torture/loops.list --tap --jobs 2 --same-as loop-counts=0
