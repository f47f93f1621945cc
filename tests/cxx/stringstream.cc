// stringstream.cc - std::ostringstream, whose std::basic_stringbuf<char>
// libstdc++ declares `extern template` while its destructor is implicitly
// declared, so this TU compiles a COMDAT copy of it; std::string's
// member template _M_construct<const char*> likewise. Their callers
// (~basic_ostringstream, basic_string(const char*)) are extern members:
// inlined, they call this TU's copies; not inlined, libstdc++'s members
// call libstdc++'s own. tests/cxx-extern-template.t builds it in both
// modes with inlining limits under which the two modes' inliners
// decided differently (yaml-cpp at -O3 -flto showed it first).
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

__attribute__((noinline)) static size_t fmt(int i)
{
    std::ostringstream os;
    os << i;
    std::string s("n=");
    return s.size() + os.str().size();
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    size_t s = 0;
    for (int i = 0; i < n; i++)
        s += fmt(i);
    printf("%zu\n", s);
    return 0;
}
