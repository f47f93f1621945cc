# shellcheck shell=bash disable=SC2034
# jsoncpp 1.9.5 (Debian source package libjsoncpp): C++ whose normal run
# throws and catches exceptions through instrumented frames, in a library
# of its own (yaml-cpp, the other C++ recipe, throws from a scanner and
# from conversions; jsoncpp throws from deep recursion too). Its 3 TUs
# (src/lib_json: the reader, Json::Value with json_valueiterator.inl,
# the writers) and our driver perfctl/programs/json-work.cpp take the
# build's flags; nothing to configure (include/json/config.h and
# version.h are in the tarball).
# The workload: json-work over perfctl/programs/gen-json.pl's records (the
# jq recipe's): `istream >> Json::Value` throws Json::RuntimeError from
# json_reader.cpp on every cut record (1 in 7); 1 record in 23 is nested
# 600 to 1,400 arrays deep, and past the reader's stackLimit (1000)
# OurReader::readValue throws from the bottom of its recursion, unwinding
# up to 1,000 readValue/readArray frames with destructors (their Token
# and std::string locals); every value is converted by asInt64, asDouble,
# asBool and asString, each refusal a Json::LogicError thrown from
# json_value.cpp and caught in the driver (280 K throws at 2,000 records);
# objects indexed by position and arrays by name throw too; the trees are
# written by three writers, parsed back, compared, edited. Its standard
# output is checked. As in yaml-work.cpp the driver starts and joins a
# thread first (libstdc++'s inline reference counts go atomic once a
# thread has existed, as stream mode's analyzer thread makes them);
# jsoncpp orders members by key bytes, not addresses, so no arena.
PROG_KIND=cxx
PROG_DESC="jsoncpp: json-work over gen-json.pl's records (C++ exceptions from the reader's recursion and Value's conversions)"

prog_prepare() {
    SRC=$("$ROOT/perfctl/lib/fetch-src.sh" "$PERFCTL_SRC_DIR" libjsoncpp amalgamate.py)
    PROG_VERSION=$(basename "$SRC")
}
prog_build() {  # BUILD BINDIR OBJDIR
    local b=$1
    compile_c "$b" "$3" "-O2 -w -pthread -I$SRC/include -I$SRC/src/lib_json" \
        "$SRC"/src/lib_json/*.cpp "$ROOT/perfctl/programs/json-work.cpp" || return 1
    # shellcheck disable=SC2046
    g++ -O2 -pthread "$3"/*.o -o "$2/json-work" $(libs_of "$b")
}
prog_input() {  # WORKDIR SIZE
    local f=$1/input.$2.json n
    n=$(size_of "$2" 20000)
    # made once per size (FILE.n records N)
    [ "$(head -c 64 "$f.n" 2>/dev/null)" = "$n" ] && [ -s "$f" ] && return 0
    perl "$ROOT/perfctl/programs/gen-json.pl" "$n" >"$f" && echo "$n" >"$f.n"
}
prog_cmd() {    # BINDIR WORKDIR SIZE
    CMD=("$1/json-work" "$2/input.$3.json")
    CMD_STDIN=/dev/null
}
