#!/usr/bin/env bash
# `make install PREFIX=...` into a temporary prefix: every file is there, the
# pkg-config file and the installed CLI point into the prefix, and a program
# built from the installed files alone is profiled.
. "$(dirname "$0")/lib/tap.sh"
pp_require_build
cd "$TAP_ROOT" || BAIL_OUT "cannot cd to $TAP_ROOT"

P=$T/prefix
# In a sanitizer suite, its tree is the one installed (the plain build/ is
# not this suite's to build), and the program below needs its flags.
ok "make install PREFIX=$P" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX="$P" \
    ${PP_SANITIZE:+SANITIZE=$PP_SANITIZE}
for f in bin/pathprof lib/pathprof.so lib/libpathprof.so lib/libpathprof.a \
         include/pathprof-abi.h lib/pkgconfig/pathprof.pc lib/pathprof.specs; do
    ok "installed $f" test -s "$P/$f"
done
ok "bin/pathprof is executable" test -x "$P/bin/pathprof"

cflags=$("$P/bin/pathprof" config --cflags 2>&1)
is "$cflags" "-fplugin=$P/lib/pathprof.so" "installed 'pathprof config --cflags' names the installed plugin"
libs=$("$P/bin/pathprof" config --libs 2>&1)
like "$libs" "(^| )-L$P/lib( |$)" "installed 'pathprof config --libs' names the installed library directory"
like "$libs" "-lpathprof" "'pathprof config --libs' links the runtime"

pc=$P/lib/pkgconfig/pathprof.pc
like "$(grep '^Cflags:' "$pc")" "-fplugin=\\\$\\{libdir\\}/pathprof.so|-fplugin=$P/lib/pathprof.so" "pathprof.pc Cflags load the plugin"
if command -v pkg-config >/dev/null; then
    is "$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags pathprof | sed 's/ *$//')" "-fplugin=$P/lib/pathprof.so" "pkg-config --cflags pathprof"
    is "$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --libs pathprof | sed 's/ *$//')" \
       "-L$P/lib -Xlinker -rpath=$P/lib -lpathprof -lpthread" "pkg-config --libs pathprof"
else
    skip "pkg-config is not installed" 2
fi

# A program built from the installed files only; the build tree is hidden.
cat >"$T/hello.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv) {
    int n = 0;
    for (int i = 0; i < 100; i++)
        n += (i % 3 == 0) ? 2 : argc;
    (void)argv;
    printf("%d\n", n);
    return 0;
}
C
# shellcheck disable=SC2086
ok "compile with the installed plugin and runtime" \
    gcc $cflags $PP_SAN_CFLAGS -O2 "$T/hello.c" -o "$T/hello" $libs
out=$(PATHPROF_QUIET=1 PATHPROF_OUT=$T/hello.prof "$T/hello")
is "$out" "134" "the instrumented program runs"
ok "it wrote its profile" test -s "$T/hello.prof"
ok "the installed CLI reads it" "$P/bin/pathprof" report "$T/hello.prof"
ok "the runtime comes from the prefix (rpath)" \
    sh -c "ldd '$T/hello' | grep -q '$P/lib/libpathprof.so'"

# The one-flag build: the installed specs file loads the installed plugin
# and links the installed runtime.
specs=$("$P/bin/pathprof" config --specs 2>&1)
is "$specs" "$P/lib/pathprof.specs" "installed 'pathprof config --specs' names the installed specs file"
# shellcheck disable=SC2086
ok "compile and link with -specs alone" gcc -specs="$specs" $PP_SAN_CFLAGS -O2 "$T/hello.c" -o "$T/hello2"
is "$(PATHPROF_OUT=$T/hello2.prof "$T/hello2" 2>&1)" "134" "it runs, silent"
ok "its profile reads" "$P/bin/pathprof" report "$T/hello2.prof"
ok "its runtime comes from the prefix" \
    sh -c "ldd '$T/hello2' | grep -q '$P/lib/libpathprof.so'"
done_testing
