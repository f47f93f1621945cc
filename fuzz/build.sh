#!/bin/sh
# Builds the fuzz driver: the CLI's readers (cli/*.c and cli/*/*.c, analyzers/common/activations.c,
# the merge code of runtime/profile-merge*.c)
# and fuzz/driver.c, instrumented for AFL++ by afl-gcc and checked by ASan and
# UBSan (no recovery: a finding must abort so that afl-fuzz records it).
# afl-gcc is AFL++'s GCC mode (the assembly is instrumented by afl-as), the
# one of Debian 12's afl++ that works with its GCC: see docs/fuzzing.md.
# Usage: fuzz/build.sh OUTDIR      (writes OUTDIR/driver; AFL_CC overrides afl-gcc)
set -eu
out=${1:?usage: fuzz/build.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
cc=${AFL_CC:-afl-gcc}
command -v "$cc" >/dev/null || { echo "fuzz/build.sh: $cc not found (apt-get install afl++)" >&2; exit 1; }
mkdir -p "$out/obj"
# -O1: fast enough to build in the short pass of `make check`; the
# sanitizers, not the optimizer, are what finds the faults.
flags="-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -U_FORTIFY_SOURCE -O1 -g
       -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
       -I$root/cli -I$root/runtime -I$root/analyzers"
export AFL_QUIET=1
objs=
# pathprof merge compiles in the runtime's merge code (docs/cli.md).
for src in "$root"/cli/*.c "$root"/cli/*/*.c "$root"/analyzers/common/activations.c \
           "$root"/runtime/profile-merge*.c "$root"/runtime/profile-parts.c "$root"/runtime/bytebuf.c "$root"/fuzz/driver.c; do
    # Named by the whole path: cli/cmd/residual.c and cli/query/residual.c
    # are two files.
    rel=${src#"$root"/}
    o=$out/obj/$(printf '%s' "${rel%.c}" | tr / _).o
    extra=
    # The CLI's dispatch runs once per command inside the driver.
    [ "$src" = "$root/cli/main.c" ] && extra=-Dmain=pathprof_main
    if [ ! -f "$o" ] || [ "$src" -nt "$o" ] || [ -n "$(find "$root/cli" "$root/runtime" "$root/analyzers" \
            -name '*.h' -newer "$o" 2>/dev/null | head -n 1)" ]; then
        # shellcheck disable=SC2086
        "$cc" $flags $extra -c "$src" -o "$o"
    fi
    objs="$objs $o"
done
# shellcheck disable=SC2086
"$cc" -fsanitize=address,undefined -o "$out/driver" $objs -lm
