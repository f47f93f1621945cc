#!/bin/bash
# A fast sample of GCC's C torture execute suite (torture/sample.list:
# setjmp/longjmp, computed goto, nested functions, VLAs, big switches,
# builtins) at -O0 and -O2: every test that passes without the plugin must
# pass with it. One TAP line per (test, -O level). `make torture` runs all.
cd "$(dirname "$0")/.." || exit 1
if [ ! -f build/lib/pathprof.so ] || [ ! -f build/lib/libpathprof.so ]; then
    echo "1..0 # SKIP pathprof not built yet (run make)"
    exit 0
fi
exec torture/run.sh --list torture/sample.list --tap --jobs 2
