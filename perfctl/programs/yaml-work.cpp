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
// C++ allocations come from a deterministic arena (yaml-alloc.cpp), so that
// yaml-cpp's address-ordered containers run the same paths in every build.
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
#include <sstream>
#include <string>
#include <vector>

#include <pthread.h>

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

static void *nothing(void *) { return nullptr; }

int main(int argc, char **argv)
{
    // One thread, started and joined: glibc then clears
    // __libc_single_threaded for good, and libstdc++'s shared_ptr reference
    // counts take their atomic paths (ext/atomicity.h) in every build -
    // as they do in stream mode, whose runtime starts an analyzer thread.
    // Without it the counting and streaming modes' profiles split
    // _Sp_counted_base's paths differently (same totals).
    pthread_t t;
    if (pthread_create(&t, nullptr, nothing, nullptr) == 0)
        pthread_join(t, nullptr);
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
