#!/usr/bin/env bash
# docs/build-systems.md, Meson: meson passes c_args to compiles only, so
# the flag goes in both: `meson setup build -Dc_args=-specs=FILE
# -Dc_link_args=-specs=FILE`; meson test passes with PATHPROF_ACCUMULATE=1,
# one profile holds both runs.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/build-systems/lib.sh"
command -v meson >/dev/null || plan skip_all "meson is not installed (make check installs meson and ninja-build)"
bs_setup meson
bs_step "meson setup -Dc_args=-specs=... -Dc_link_args=-specs=..." setup.log \
    meson setup build --buildtype=debugoptimized -Dc_args="-specs=$SPECS" -Dc_link_args="-specs=$SPECS"
bs_step "meson compile" build.log meson compile -C build
ok "the shared library is instrumented (it links libpathprof)" \
    sh -c "ldd build/libcalc.so | grep -q libpathprof"
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$PROF bs_step "its own meson test passes" check.log \
    meson test -C build
bs_check_profile
done_testing
