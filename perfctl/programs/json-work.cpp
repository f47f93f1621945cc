// perfctl/programs/json-work.cpp - the workload of perfctl/programs/jsoncpp.sh:
// a driver over jsoncpp whose normal run throws and catches C++ exceptions
// through jsoncpp's (instrumented) frames. The input is
// perfctl/programs/gen-json.pl's records, one JSON document a line. For
// record i:
//   - the line is read through `std::istream >> Json::Value`
//     (json_reader.cpp's operator>>, which throws Json::RuntimeError when
//     the parse fails); every 7th record is cut in the middle first, so
//     the throw leaves CharReader::parse's callers;
//   - every 23rd record is wrapped in 600 to 1,400 levels of arrays
//     ("[[[...record...]]]"): past CharReaderBuilder's stackLimit (1000)
//     OurReader::readValue throws from the bottom of its recursion, through
//     every readArray/readValue frame and their Token and std::string
//     locals; below it the record parses, and is walked deep;
//   - a recursive walk converts every value with asInt64(), asDouble(),
//     asBool() and asString() in turn, each failure a Json::LogicError
//     thrown from json_value.cpp (JSON_FAIL_MESSAGE), caught here, and
//     indexes objects by position and arrays by name (thrown too);
//   - the tree is written again (StreamWriterBuilder compact and
//     indented, StyledWriter, FastWriter), the compact text parsed back
//     through CharReader (errors returned, not thrown) and compared with
//     the original (Value::operator==, Value::compare);
//   - Value::removeMember, append, resize, swap and copies on the tree.
// jsoncpp orders object members by their key bytes (std::map<CZString,
// Value>), never by address, so the paths do not follow the heap layout.
// Prints one line per record (FNV-1a hashes of the writers' texts and the
// counts) and the totals; the output is deterministic.
// Usage: json-work FILE
#include <json/json.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <pthread.h>

namespace {

struct Counts {
    long values = 0, ints = 0, doubles = 0, bools = 0, strings = 0;
    long logic = 0, runtime = 0, deep = 0, badindex = 0, reparsed = 0, same = 0;
};

std::uint64_t fnv(const std::string &s, std::uint64_t h = 1469598103934665603ULL)
{
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

// Every conversion jsoncpp refuses throws Json::LogicError.
void convert(const Json::Value &v, Counts &c, std::uint64_t &h)
{
    ++c.values;
    try {
        Json::Int64 i = v.asInt64();
        ++c.ints;
        h = fnv(std::to_string(i), h);
    } catch (const Json::LogicError &) {
        ++c.logic;
    }
    try {
        double d = v.asDouble();
        ++c.doubles;
        h = fnv(std::to_string(static_cast<long long>(d * 1000.0)), h);
    } catch (const Json::LogicError &) {
        ++c.logic;
    }
    try {
        if (v.asBool())
            ++c.bools;
    } catch (const Json::LogicError &) {
        ++c.logic;
    }
    try {
        h = fnv(v.asString(), h);
        ++c.strings;
    } catch (const Json::LogicError &) {
        ++c.logic;
    }
}

void walk(const Json::Value &v, Counts &c, std::uint64_t &h, int depth)
{
    convert(v, c, h);
    if (v.isObject()) {
        // an object indexed by position: throws (operator[](ArrayIndex)
        // asserts an array or null)
        if (depth % 3 == 0) {
            try {
                h = fnv(v[0u].toStyledString(), h);
            } catch (const Json::LogicError &) {
                ++c.badindex;
            }
        }
        for (const auto &name : v.getMemberNames()) {
            h = fnv(name, h);
            walk(v[name], c, h, depth + 1);
        }
    } else if (v.isArray()) {
        if (depth % 3 == 1) {
            try {
                h = fnv(v["label"].asString(), h);
            } catch (const Json::LogicError &) {
                ++c.badindex;
            }
        }
        for (Json::ArrayIndex i = 0; i < v.size(); ++i)
            walk(v[i], c, h, depth + 1);
    }
}

// Edits of a copy: members removed and added, arrays resized and
// appended, resize of a non-array thrown.
void edit(Json::Value v, Counts &c, std::uint64_t &h)
{
    if (v.isObject()) {
        Json::Value removed;
        if (v.removeMember("tree", &removed))
            h = fnv(removed.get("label", "none").asString(), h);
        v["extra"]["n"] = static_cast<Json::Int64>(c.values);
        Json::Value &tags = v["tags"];
        if (tags.isArray()) {
            tags.append("added");
            tags.resize(tags.size() / 2);
        }
        try {
            v["name"].resize(3);
        } catch (const Json::LogicError &) {
            ++c.logic;
        }
        Json::Value w(Json::objectValue);
        w.swap(v);
        h = fnv(Json::FastWriter().write(w), h);
    }
}

void record(long i, std::string line, Counts &c, Json::CharReaderBuilder &rb)
{
    std::uint64_t h = fnv(std::to_string(i));
    int wrap = 0;
    if (i % 23 == 0)
        wrap = 600 + static_cast<int>(i * 37 % 800);
    if (i % 7 == 0)
        line.resize(line.size() / 2);
    if (wrap)
        line = std::string(wrap, '[') + line + std::string(wrap, ']');
    Json::Value root;
    try {
        std::istringstream in(line);
        in >> root;  // throws Json::RuntimeError on a parse error
    } catch (const Json::RuntimeError &e) {
        ++c.runtime;
        if (wrap)
            ++c.deep;
        std::printf("%ld: error %016llx\n", i, static_cast<unsigned long long>(fnv(e.what())));
        return;
    }
    walk(root, c, h, 0);
    if (wrap) {
        std::printf("%ld: wrapped %d, hash %016llx\n", i, wrap, static_cast<unsigned long long>(h));
        return;
    }
    Json::StreamWriterBuilder wb;
    wb["indentation"] = "";
    const std::string compact = Json::writeString(wb, root);
    wb["indentation"] = "  ";
    wb["commentStyle"] = "None";
    const std::string indented = Json::writeString(wb, root);
    const std::string styled = Json::StyledWriter().write(root);
    h = fnv(compact, h);
    h = fnv(indented, h);
    h = fnv(styled, h);
    std::unique_ptr<Json::CharReader> r(rb.newCharReader());
    Json::Value back;
    std::string errs;
    if (r->parse(compact.data(), compact.data() + compact.size(), &back, &errs)) {
        ++c.reparsed;
        if (back == root && back.compare(root) == 0)
            ++c.same;
    }
    edit(root, c, h);
    std::printf("%ld: %zu %zu %zu, hash %016llx\n", i, compact.size(), indented.size(), styled.size(),
                static_cast<unsigned long long>(h));
}

void *nothing(void *) { return nullptr; }

}  // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: json-work FILE\n");
        return 2;
    }
    // One thread, started and joined: glibc then clears
    // __libc_single_threaded for good, and libstdc++'s inline reference
    // counts (the locale's, shared_ptr's) take their atomic paths in both
    // modes, as they do in stream mode, whose runtime starts an analyzer
    // thread (as perfctl/programs/yaml-work.cpp does).
    pthread_t t;
    if (pthread_create(&t, nullptr, nothing, nullptr) == 0)
        pthread_join(t, nullptr);
    std::ifstream f(argv[1]);
    if (!f) {
        std::fprintf(stderr, "json-work: cannot open %s\n", argv[1]);
        return 1;
    }
    Counts c;
    Json::CharReaderBuilder rb;
    Json::CharReaderBuilder::strictMode(&rb.settings_);
    std::string line;
    long i = 0;
    while (std::getline(f, line))
        record(++i, line, c, rb);
    std::printf("records %ld values %ld ints %ld doubles %ld bools %ld strings %ld\n", i, c.values, c.ints,
                c.doubles, c.bools, c.strings);
    std::printf("logic errors %ld runtime errors %ld (deep %ld) bad indexes %ld reparsed %ld same %ld\n",
                c.logic, c.runtime, c.deep, c.badindex, c.reparsed, c.same);
    return 0;
}
