#!/usr/bin/env bash
# docs/build-systems.md, CMake: `cmake -DCMAKE_C_FLAGS="-specs=$(pathprof
# config --specs)"` (CMake passes CMAKE_C_FLAGS to compile and link lines);
# ctest passes with PATHPROF_ACCUMULATE=1, one profile holds both runs.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/build-systems/lib.sh"
command -v cmake >/dev/null || plan skip_all "cmake is not installed (make check installs it)"
bs_setup cmake
bs_step "cmake -DCMAKE_C_FLAGS=\"-specs=...\"" cmake.log \
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS="-specs=$SPECS"
bs_step "cmake --build" build.log cmake --build build
ok "the shared library is instrumented (it links libpathprof)" \
    sh -c "ldd build/libcalc.so | grep -q libpathprof"
PATHPROF_ACCUMULATE=1 PATHPROF_OUT=$PROF bs_step "its own ctest passes" check.log \
    ctest --test-dir build --output-on-failure
bs_check_profile
done_testing
