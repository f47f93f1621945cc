// perfctl/programs/yaml-work.cpp - the workload of perfctl/programs/yaml-cpp.sh:
// a driver over yaml-cpp that exercises what C++ adds to a profile.
// The input (perfctl/programs/gen-yaml.pl) is a stream of documents, each
// after a "---" line; some are malformed on purpose. For each document:
//   - YAML::Load builds a node tree; a parse error throws
//     YAML::ParserException from deep inside the scanner, through frames
//     with destructors to run (landing pads), caught here;
//   - a recursive walk classifies every scalar by trying as<long>, then
//     as<double>, then as<bool> (each failure a thrown
//     YAML::TypedBadConversion), and decodes records through a
//     YAML::convert<Record> specialisation (a missing key throws);
//   - the tree is emitted again (YAML::Emitter, block and flow styles),
//     and the document's text runs through YAML::Parser with an
//     EventHandler of ours (virtual dispatch from the parser's
//     singledocparser into this file).
// C++ allocations come from a deterministic arena (below), so that yaml-cpp's
// address-ordered containers run the same paths in every build.
// Prints one line per document (a hash of its emission and the counts) and
// the full emission of one document in 16; the output is deterministic.
// Usage: yaml-work FILE
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <sys/mman.h>

// --- a deterministic operator new ----------------------------------------
// yaml-cpp orders nodes by address: its memory holder keeps
// std::set<std::shared_ptr<node>>, its emitter a std::map keyed by
// node_ref*. The shapes of those trees, so the paths of their inline
// _Rb_tree functions, follow the order of heap addresses, which malloc's
// state decides - and a profiling runtime that allocates too (stream mode's
// buffers) moves it. Every C++ allocation here comes from one mapping,
// reused through free lists by size class: the addresses' order then
// follows this program's own new/delete sequence only, the same in every
// build (as sqlite3's -heap in perfctl/programs/sqlite3.sh).
namespace {

constexpr std::size_t kArena = std::size_t(8) << 30;  // reserved, not committed
constexpr std::size_t kHeader = 16;                    // keeps 16-byte alignment
constexpr std::size_t kSmall = 4096, kPage = 4096, kMaxPages = 4096;
char *arena_base, *arena_next;
void *free_small[kSmall / 16 + 1];    // by size / 16
void *free_large[kMaxPages + 1];      // by pages

void *arena_alloc(std::size_t n)
{
    if (!arena_base) {
        void *p = mmap(nullptr, kArena, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            throw std::bad_alloc();
        arena_base = arena_next = static_cast<char *>(p);
    }
    std::size_t size, cls;
    void **list;
    if (n <= kSmall) {
        cls = (n + 15) / 16;
        if (cls == 0)
            cls = 1;
        size = cls * 16;
        list = &free_small[cls];
    } else {
        cls = (n + kPage - 1) / kPage;
        size = cls * kPage;
        list = cls <= kMaxPages ? &free_large[cls] : nullptr;
    }
    char *b;
    if (list && *list) {
        b = static_cast<char *>(*list) - kHeader;
        *list = *static_cast<void **>(*list);
    } else {
        if (size + kHeader > kArena - static_cast<std::size_t>(arena_next - arena_base))
            throw std::bad_alloc();
        b = arena_next;
        arena_next += size + kHeader;
    }
    *reinterpret_cast<std::size_t *>(b) = size;
    return b + kHeader;
}

void arena_free(void *p)
{
    if (!p)
        return;
    std::size_t size = *reinterpret_cast<std::size_t *>(static_cast<char *>(p) - kHeader);
    void **list = size <= kSmall ? &free_small[size / 16] : size / kPage <= kMaxPages ? &free_large[size / kPage] : nullptr;
    if (!list)
        return;  // larger than any list: left unused
    *static_cast<void **>(p) = *list;
    *list = p;
}

}  // namespace

void *operator new(std::size_t n) { return arena_alloc(n); }
void *operator new[](std::size_t n) { return arena_alloc(n); }
void operator delete(void *p) noexcept { arena_free(p); }
void operator delete[](void *p) noexcept { arena_free(p); }
void operator delete(void *p, std::size_t) noexcept { arena_free(p); }
void operator delete[](void *p, std::size_t) noexcept { arena_free(p); }

namespace {

struct Record {
    long id = 0;
    std::string name;
    std::vector<std::string> tags;
    std::map<std::string, double> metrics;
};

struct Counts {
    long scalars = 0, ints = 0, floats = 0, bools = 0, strings = 0, nulls = 0;
    long seqs = 0, maps = 0, bad = 0, records = 0, norecord = 0, events = 0;
};

// FNV-1a, so the output shows a hash instead of every emission
std::uint64_t fnv(const std::string &s, std::uint64_t h = 1469598103934665603ULL)
{
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

// What the parser's events look like to a handler: the base class of two
// handlers, called through YAML::EventHandler's virtual functions.
class Tally : public YAML::EventHandler {
  public:
    long events = 0;
    std::uint64_t h = 1469598103934665603ULL;
    void OnDocumentStart(const YAML::Mark &) override { note("D", 0); }
    void OnDocumentEnd() override { note("d", 0); }
    void OnNull(const YAML::Mark &m, YAML::anchor_t a) override { note("~", m.line + a); }
    void OnAlias(const YAML::Mark &m, YAML::anchor_t a) override { note("*", m.column + a); }
    void OnScalar(const YAML::Mark &m, const std::string &tag, YAML::anchor_t a,
                  const std::string &value) override
    {
        note(value, m.pos + a + tag.size());
    }
    void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t a,
                         YAML::EmitterStyle::value style) override
    {
        note("[", a * 2 + style);
    }
    void OnSequenceEnd() override { note("]", 0); }
    void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t a,
                    YAML::EmitterStyle::value style) override
    {
        note("{", a * 2 + style);
    }
    void OnMapEnd() override { note("}", 0); }

  protected:
    virtual void note(const std::string &s, std::size_t n)
    {
        events++;
        h = fnv(s, h ^ n);
    }
};

// A handler that also measures the nesting depth: a second override level.
class DepthTally : public Tally {
  public:
    int depth = 0, max_depth = 0;

  protected:
    void note(const std::string &s, std::size_t n) override
    {
        if (s == "[" || s == "{") {
            if (++depth > max_depth)
                max_depth = depth;
        } else if (s == "]" || s == "}") {
            depth--;
        }
        Tally::note(s, n);
    }
};

void classify(const YAML::Node &n, Counts &c)
{
    c.scalars++;
    if (n.Tag() == "!") {  // quoted: a string whatever it looks like
        c.strings++;
        return;
    }
    try {
        (void)n.as<long>();
        c.ints++;
        return;
    } catch (const YAML::TypedBadConversion<long> &) {
        c.bad++;
    }
    try {
        (void)n.as<double>();
        c.floats++;
        return;
    } catch (const YAML::BadConversion &) {
        c.bad++;
    }
    try {
        (void)n.as<bool>();
        c.bools++;
        return;
    } catch (const YAML::Exception &) {
        c.bad++;
    }
    c.strings++;
}

void walk(const YAML::Node &n, Counts &c, int depth)
{
    switch (n.Type()) {
    case YAML::NodeType::Null:
        c.nulls++;
        break;
    case YAML::NodeType::Scalar:
        classify(n, c);
        break;
    case YAML::NodeType::Sequence:
        c.seqs++;
        for (const auto &e : n)
            walk(e, c, depth + 1);
        break;
    case YAML::NodeType::Map:
        c.maps++;
        for (const auto &kv : n) {
            walk(kv.first, c, depth + 1);
            walk(kv.second, c, depth + 1);
        }
        break;
    case YAML::NodeType::Undefined:
        break;
    }
}

}  // namespace

namespace YAML {
template <>
struct convert<Record> {
    static bool decode(const Node &n, Record &r)
    {
        if (!n.IsMap())
            return false;
        r.id = n["id"].as<long>();  // throws when missing or not a number
        r.name = n["name"].as<std::string>();
        r.tags = n["tags"].as<std::vector<std::string>>();
        if (n["metrics"])
            r.metrics = n["metrics"].as<std::map<std::string, double>>();
        return true;
    }
};
}  // namespace YAML

static void one_document(const std::string &text, long index, Counts &total)
{
    Counts c;
    std::ostringstream line;
    line << "doc " << index;
    try {
        YAML::Node root = YAML::Load(text);
        walk(root, c, 0);
        if (root.IsMap() && root["records"] && root["records"].IsSequence()) {
            for (const auto &e : root["records"]) {
                try {
                    Record r = e.as<Record>();
                    c.records++;
                    double sum = 0;
                    for (const auto &m : r.metrics)
                        sum += m.second;
                    line << " r" << r.id << ':' << r.tags.size() << ':' << static_cast<long>(sum * 1000);
                } catch (const YAML::Exception &) {
                    c.norecord++;
                }
            }
        }
        YAML::Emitter block, flow;
        flow.SetSeqFormat(YAML::Flow);
        flow.SetMapFormat(YAML::Flow);
        block << root;
        flow << root;
        line << " emit " << std::hex << fnv(block.c_str()) << ' ' << fnv(flow.c_str()) << std::dec;
        if (index % 16 == 0)
            line << "\n" << block.c_str();
    } catch (const YAML::ParserException &e) {
        line << " error " << e.mark.line << ':' << e.mark.column << ' ' << e.msg;
    }
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        DepthTally t;
        while (parser.HandleNextDocument(t)) {
        }
        c.events = t.events;
        line << " events " << t.events << " depth " << t.max_depth << ' ' << std::hex << t.h << std::dec;
    } catch (const YAML::Exception &e) {
        line << " parser-error " << e.mark.line << ':' << e.mark.column;
    }
    line << " n " << c.scalars << ' ' << c.ints << ' ' << c.floats << ' ' << c.bools << ' ' << c.strings
         << ' ' << c.nulls << ' ' << c.seqs << ' ' << c.maps << ' ' << c.bad << ' ' << c.records << ' '
         << c.norecord;
    std::cout << line.str() << '\n';
    total.scalars += c.scalars;
    total.records += c.records;
    total.norecord += c.norecord;
    total.events += c.events;
    total.bad += c.bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: yaml-work FILE\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "yaml-work: cannot open " << argv[1] << '\n';
        return 2;
    }
    Counts total;
    std::string line, doc;
    long index = 0;
    bool started = false;
    while (std::getline(in, line)) {
        if (line == "---") {
            if (started)
                one_document(doc, index++, total);
            started = true;
            doc.clear();
            continue;
        }
        doc += line;
        doc += '\n';
    }
    if (started)
        one_document(doc, index++, total);
    std::cout << "total " << index << " documents, " << total.scalars << " scalars, " << total.records
              << " records, " << total.norecord << " not records, " << total.bad << " failed conversions, "
              << total.events << " events\n";
    return 0;
}
