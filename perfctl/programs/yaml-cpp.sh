# shellcheck shell=bash disable=SC2034
# yaml-cpp 0.7.0 (Debian source package): C++, perfctl's only one. What it
# stresses that the C programs do not: exceptions (a parse error throws
# YAML::ParserException from the scanner through frames with destructors,
# and every failed node conversion throws YAML::TypedBadConversion), so
# landing pads, cleanups and resumes in most functions; virtual dispatch
# (YAML::EventHandler: the parser's calls into the NodeBuilder, the
# emitter's and the driver's handlers); templates (convert<T>, node
# iterators, std::vector and std::map instantiations) and inline functions
# from headers compiled in many of the 32 TUs (COMDAT copies of one
# function in several objects, one kept at link time). The workload:
# perfctl/programs/yaml-work.cpp, our driver, over the documents of
# perfctl/programs/gen-yaml.pl (load, classify each scalar by throwing
# conversions, decode records, emit again, re-parse with an event
# handler); its standard output is checked.
# Every yaml-cpp file (src/, src/contrib/) and the driver take the build's
# flags; there is nothing to configure. Two answers to yaml-cpp's and
# libstdc++'s own nondeterminism (docs/perfctl.md, "Robustness on further
# programs"): C++ allocations come from a deterministic arena
# (yaml-alloc.cpp: yaml-cpp orders nodes by address), and the driver
# starts and joins one thread first (libstdc++'s reference counts go
# atomic once a thread has existed, as stream mode's analyzer thread
# makes them).
# robustness's verify mode (perfctl/lib/edgeflow.pl): each of the
# workload's C++ exceptions unwinds frames whose paths never end (a
# throw in a callee of as<T>, the parser's handlers), one abandoned
# partial path each: their number grows with the workload (55,172 at
# scale 0.2), so it has no fixed bound; every other edge must agree.
PROG_ABANDON_MAX=any
PROG_KIND=cxx
PROG_DESC="yaml-cpp: yaml-work over gen-yaml.pl's documents (C++: exceptions, virtual calls, templates)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" yaml-cpp yaml-cpp.pc.in)
    PROG_VERSION=$(basename "$SRC")
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    compile_c "$b" "$3" "-O2 -w -pthread -I$SRC/include -I$SRC/src" \
        "$SRC"/src/*.cpp "$SRC"/src/contrib/*.cpp "$ROOT/perfctl/programs/yaml-work.cpp" \
        "$ROOT/perfctl/programs/yaml-alloc.cpp" || return 1
    # shellcheck disable=SC2046
    g++ -O2 -pthread "$3"/*.o -o "$2/yaml-work" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local f=$1/input.$2.yaml n
    n=$(size_of "$2" 2000)
    # made once per size (FILE.n records N)
    [ "$(head -c 64 "$f.n" 2>/dev/null)" = "$n" ] && [ -s "$f" ] && return 0
    perl "$ROOT/perfctl/programs/gen-yaml.pl" "$n" >"$f" && echo "$n" >"$f.n"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/yaml-work" "$2/input.$3.yaml")
    CMD_STDIN=/dev/null
}
