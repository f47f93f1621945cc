// perfctl/programs/yaml-alloc.cpp - the operator new and delete of
// perfctl/programs/yaml-work.cpp (perfctl/programs/yaml-cpp.sh).
#include <cstddef>
#include <new>

#include <sys/mman.h>

// yaml-cpp orders nodes by address: its memory holder keeps
// std::set<std::shared_ptr<node>>, its emitter a std::map keyed by
// node_ref*. The shapes of those trees, so the paths of their inline
// _Rb_tree functions, follow the order of heap addresses, which malloc's
// state decides - and a profiling runtime that allocates too (stream mode's
// buffers) moves it. Every C++ allocation here comes from one mapping,
// reused through free lists by size class: the addresses' order then
// follows this program's own new/delete sequence only, the same in every
// build (as sqlite3's -heap in perfctl/programs/sqlite3.sh).
//
// In a file of its own, which instantiates nothing else: GCC's early
// inliner (it runs before pathprof's pass) would otherwise copy
// operator delete into this TU's copies of std::string's inline members
// and YAML::Exception's constructor, making them differ from the other
// TUs' copies; the copy that runs at a call site is then the one the later
// inliner picks, which the modes' probes move, and counting and streaming
// mode would attribute those deletes differently.
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
