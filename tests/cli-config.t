#!/usr/bin/env bash
# `pathprof config`: the gcc flags of this pathprof, found relative to the
# executable (<bindir>/../lib), in the build tree and in a relocated copy
# laid out like `make install PREFIX=...`; a clear error when files are missing.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/cli/lib.sh"
cli_require

# In the build tree.
if [ -f "$PP_PLUGIN" ]; then
    libdir=$(cd "$PP_LIBDIR" && pwd -P)
    cli_run config --cflags
    is "$RC" 0 "config --cflags: exit 0"
    is "$OUT" "-fplugin=$libdir/pathprof.so" "config --cflags: -fplugin= the absolute plugin path"
    plugin=${OUT#-fplugin=}
    ok "config --cflags: the plugin exists" test -f "$plugin"
    cli_run config --plugin
    is "$OUT" "$libdir/pathprof.so" "config --plugin"
else
    skip "plugin not built ($PP_PLUGIN)" 4
fi
if [ -f "$PP_LIBDIR/libpathprof.so" ]; then
    libdir=$(cd "$PP_LIBDIR" && pwd -P)
    cli_run config --libs
    is "$OUT" "-L$libdir -Xlinker -rpath=$libdir -lpathprof -lpthread" "config --libs"
    cli_run config --runtime-dir
    is "$OUT" "$libdir" "config --runtime-dir"
    cli_run config --specs
    is "$RC:$OUT" "0:$libdir/pathprof.specs" "config --specs: the build tree's specs file"
    like "$(cat "$OUT" 2>/dev/null)" "\*cc1:" "the specs file sets the plugin for cc1"
    like "$(cat "$libdir/pathprof.specs")" "-fplugin=$libdir/pathprof.so" "it loads this plugin"
    like "$(cat "$libdir/pathprof.specs")" "-L$libdir -rpath $libdir -lpathprof" "and links this runtime"
else
    skip "runtime not built ($PP_LIBDIR/libpathprof.so)" 6
fi

# A copy laid out like an installation, reached through a symlink: the
# answer follows the real executable, not the link or the current directory.
mkdir -p "$T/prefix/bin" "$T/prefix/lib" "$T/elsewhere"
cp "$PP_CLI" "$T/prefix/bin/pathprof"
ln -s "$T/prefix/bin/pathprof" "$T/elsewhere/pp"
prefix=$(cd "$T/prefix" && pwd -P)
cd "$T/elsewhere" || exit 1
./pp config --cflags >"$T/out" 2>"$T/err"
is "$?" 1 "relocated, plugin missing: exit 1"
is "$(cat "$T/out")" "" "relocated, plugin missing: nothing on stdout"
like "$(cat "$T/err")" "^pathprof: config: the GCC plugin is not at $prefix/lib/pathprof.so" \
    "relocated, plugin missing: says where it looked"
: >"$T/prefix/lib/pathprof.so"
: >"$T/prefix/lib/libpathprof.so"
is "$(./pp config --cflags)" "-fplugin=$prefix/lib/pathprof.so" "relocated: --cflags"
is "$(./pp config --libs)" "-L$prefix/lib -Xlinker -rpath=$prefix/lib -lpathprof -lpthread" "relocated: --libs"
is "$(./pp config --runtime-dir)" "$prefix/lib" "relocated: --runtime-dir"
./pp config --specs >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/out")" "1:" "relocated, no specs file: exit 1, nothing on stdout"
like "$(cat "$T/err")" "GCC specs file is not at $prefix/lib/pathprof.specs" "no specs file: says where it looked"
is "$(./pp config --cflags --libs)" "-fplugin=$prefix/lib/pathprof.so -L$prefix/lib -Xlinker -rpath=$prefix/lib -lpathprof -lpthread" \
    "several options: one line, in order"
rm "$T/prefix/lib/libpathprof.so"
./pp config --cflags --libs >"$T/out" 2>"$T/err"
is "$?" 1 "runtime missing: exit 1"
is "$(cat "$T/out")" "" "runtime missing: no half answer on stdout"
like "$(cat "$T/err")" "runtime library is not at $prefix/lib/libpathprof.so" "runtime missing: says where it looked"
rm -r "$T/prefix/lib"
./pp config --plugin >"$T/out" 2>"$T/err"
is "$?" 1 "no lib directory: exit 1"
like "$(cat "$T/err")" "^pathprof: config: no library directory" "no lib directory: says so"
done_testing
