#!/bin/bash
# deb-check.sh - `make deb-check`: one real Debian source package built the
# Debian way (dpkg-buildpackage) with pathprof's one flag, its own test
# suite run with every process adding to one profile (docs/build-systems.md,
# "A Debian source package"). Heavier than `make check` (a source package
# fetched from Debian's archive, ~2-3 minutes), so a target of its own.
#
#   scripts/deb-check.sh BUILD [PKG]    (PKG: libsigsegv by default: autotools,
#                                        a libtool shared library, a test suite)
#
# Why two steps: dpkg-buildpackage runs configure, whose check programs are
# instrumented too; were PATHPROF_ACCUMULATE set for the whole build, the
# profile would also gather configure's many conftest mains. So the package
# is built with DEB_BUILD_OPTIONS=nocheck, then its test target (the
# dh_auto_test the full build would run) runs with accumulation on.
set -euo pipefail
build=$(cd "${1:?usage: scripts/deb-check.sh BUILD [PKG]}" && pwd)
pkg=${2:-libsigsegv}
root=$(cd "$(dirname "$0")/.." && pwd)
pp=$build/bin/pathprof
dir=$build/deb-check
say() { echo "deb-check: $*" >&2; }

specs=$("$pp" config --specs)
# Every source package has debian/rules; fetch-src.sh unpacks it under
# $dir/src/$pkg beside its .dsc, which is what we extract afresh.
"$root/perfctl/lib/fetch-src.sh" "$dir" "$pkg" rules >/dev/null
dsc=$(ls "$dir/src/$pkg"/*.dsc | head -n 1)
# A fresh tree every time: a build leaves its objects behind.
work=$dir/work
rm -rf "$work" && mkdir -p "$work"
(cd "$work" && dpkg-source -x "$dsc" tree >/dev/null)
cd "$work/tree"

say "$pkg: dpkg-buildpackage -b with DEB_CFLAGS_APPEND=DEB_LDFLAGS_APPEND=-specs=$specs"
if ! DEB_BUILD_OPTIONS=nocheck DEB_CFLAGS_APPEND="-specs=$specs" DEB_LDFLAGS_APPEND="-specs=$specs" \
        dpkg-buildpackage -b -uc -us >"$work/build.log" 2>&1; then
    tail -n 30 "$work/build.log" >&2
    say "FAIL: dpkg-buildpackage failed (log: $work/build.log)"; exit 1
fi
debs=$(ls "$work"/*.deb)
say "built: $(echo "$debs" | xargs -n1 basename | tr '\n' ' ')"

# Every shared library the packages ship is instrumented: it needs libpathprof.
libs=$(find debian -path '*/usr/lib/*' -name '*.so*' -type f)
[ -n "$libs" ] || { say "FAIL: the packages ship no shared library"; exit 1; }
for l in $libs; do
    readelf -d "$l" | grep -q 'NEEDED.*libpathprof' || { say "FAIL: $l does not link libpathprof"; exit 1; }
done
say "instrumented: $(echo "$libs" | xargs -n1 basename | tr '\n' ' ')"

prof=$work/$pkg.prof
rm -f "$prof" "$prof".*
say "$pkg's own test suite (dh_auto_test) with PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$prof"
if ! PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$prof dh_auto_test >"$work/test.log" 2>&1; then
    tail -n 30 "$work/test.log" >&2
    say "FAIL: the package's tests fail when instrumented (log: $work/test.log)"; exit 1
fi
grep -E '^# (TOTAL|PASS|FAIL):' "$work/test.log" | sed 's/^/deb-check: /' >&2 || true
[ -s "$prof" ] || { say "FAIL: no profile at $prof"; exit 1; }
[ -z "$(ls "$prof".[0-9]* 2>/dev/null)" ] || { say "FAIL: profiles written apart: $(ls "$prof".[0-9]*)"; exit 1; }
"$pp" report --json "$prof" >"$work/report.json"
perl -MJSON::PP -e '
    my $j = decode_json(join "", <STDIN>);
    my @ran = grep { $_->{total} > 0 } @{ $j->{functions} };
    my @main = grep { $_->{name} eq "main" } @ran;
    printf STDERR "deb-check: one profile: %d functions ran (%d test programs), %s paths\n",
        scalar @ran, scalar @main, $j->{paths_executed};
    exit(@ran > 1 && @main > 1 ? 0 : 1)' <"$work/report.json" ||
    { say "FAIL: the profile does not hold several test programs"; exit 1; }
"$pp" report --top 5 "$prof" | sed -n '1,20p'
say "PASS: $pkg built with -specs, its tests pass instrumented, one profile: $prof"
