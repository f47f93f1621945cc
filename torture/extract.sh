#!/bin/sh
# Extracts GCC's C torture execute suite from Debian's gcc-12-source package
# into build/torture/execute (once; a stamp marks a complete extraction).
# Usage: torture/extract.sh [BUILD_DIR]
set -eu
build=${1:-build}
# Debian's gcc-12-source ships /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz (plus gm2-*.tar.xz).
tarball=${PATHPROF_GCC_TARBALL:-$(ls /usr/src/gcc-12/gcc-12*.tar.xz 2>/dev/null | head -n 1)}
tarball=${tarball:-/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz}
dest=$build/torture
stamp=$dest/.extracted
[ -f "$stamp" ] && exit 0
if [ ! -r "$tarball" ]; then
    echo "torture/extract.sh: $tarball not found: install Debian's gcc-12-source package (scripts/install-deps.sh gcc-12-source)" >&2
    exit 1
fi
rm -rf "$dest/execute"
mkdir -p "$dest"
top=$(tar -tJf "$tarball" | head -n 1 | cut -d/ -f1)
tar -xJf "$tarball" -C "$dest" --strip-components=4 \
    "$top/gcc/testsuite/gcc.c-torture/execute"
touch "$stamp"
