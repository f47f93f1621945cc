#!/usr/bin/env bash
# docs/build-systems.md, autotools with libtool: `./configure
# CFLAGS="-O2 -specs=$(pathprof config --specs)"` and nothing else (no LIBS,
# no LDFLAGS: libtool's checks and its shared library links take -specs
# from CFLAGS); `make check` passes with PATHPROF_ACCUMULATE=1 and the
# library's and the program's counts are in one profile.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/build-systems/lib.sh"
for tool in autoreconf automake libtoolize; do
    command -v "$tool" >/dev/null || plan skip_all "$tool is not installed (make check installs autoconf, automake, libtool)"
done
bs_setup autotools
bs_step "autoreconf -fi" autoreconf.log autoreconf -fi
bs_step "./configure CFLAGS=\"-O2 -specs=...\"" configure.log ./configure CFLAGS="-O2 -g -specs=$SPECS"
bs_step "make" make.log make
ok "the shared library is instrumented (it links libpathprof)" \
    sh -c "ldd .libs/libcalc.so | grep -q libpathprof"
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$PROF bs_step "its own make check passes" check.log make check
bs_check_profile
done_testing
