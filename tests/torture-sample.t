#!/bin/bash
# A fast sample of GCC's C torture execute suite (torture/sample.list:
# setjmp/longjmp, computed goto, nested functions, VLAs, big switches,
# builtins) at -O0 and -O2: every test that passes without the plugin must
# pass with it. One TAP line per (test, -O level). `make torture` runs all.
cd "$(dirname "$0")/.." || exit 1
B=${PATHPROF_BUILD:-build}
if [ ! -f "$B/lib/pathprof.so" ] || [ ! -f "$B/lib/libpathprof.so" ]; then
    echo "1..0 # SKIP pathprof not built yet (run make)"
    exit 0
fi
# A sanitizer suite's tree (mk/sanitize.mk): its plugin, runtime and CLI,
# its flags on both builds, its own work directory.
if [ -f "$B/sanitize.env" ]; then
    . "$B/sanitize.env"
    export PP_CFLAGS="-fplugin=$B/lib/pathprof.so" PATHPROF_CLI=$B/bin/pathprof \
        PP_LIBS="-L$B/lib -Wl,-rpath,$B/lib -lpathprof -lpthread $PP_SAN_CFLAGS" \
        TORTURE_CFLAGS=$PP_SAN_CFLAGS TORTURE_OUT=$B/torture-sample
fi
exec torture/run.sh --list torture/sample.list --tap --jobs 2
