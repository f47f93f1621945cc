#!/usr/bin/env bash
# docs/build-systems.md, plain make: `make CFLAGS="-O2 -specs=$(pathprof
# config --specs)"` builds a project whose Makefile passes CFLAGS to the
# compile and link lines; its `make check` passes (its tests want an
# empty stderr) with PATHPROF_ACCUMULATE=1, and both runs are in the profile.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/build-systems/lib.sh"
bs_setup make
bs_step "make CFLAGS=\"-O2 -specs=...\"" make.log make CFLAGS="-O2 -g -specs=$SPECS"
ok "the program is instrumented (it links libpathprof)" sh -c "ldd ./calc | grep -q libpathprof"
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$PROF bs_step "its own make check passes" check.log make check
bs_check_profile
# The flag twice on one link line (CFLAGS and LDFLAGS, as Debian's builds
# pass it): the specs file only appends, so GCC takes it twice.
make clean >/dev/null
bs_step "make CFLAGS=-specs=... LDFLAGS=-specs=... (the flag twice on the link line)" make2.log \
    make CFLAGS="-O2 -g -specs=$SPECS" LDFLAGS="-specs=$SPECS"
is "$(PATHPROF_OUT=$T/twice.out ./calc 100 2>&1)" 201 "that build runs, silently"
ok "and writes its profile" "$PP_CLI" report "$T/twice.out"
done_testing
