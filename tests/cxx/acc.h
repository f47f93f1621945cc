// acc.h - a class template whose int instantiation is declared extern
// (extern template, as libstdc++ declares std::string and the iostreams):
// its members' bodies are visible for inlining, but the out-of-line copy
// is the one in another object, here acc-lib.cc (built without pathprof,
// like a library). tests/cxx-extern-template.t.
template <class T>
struct Acc {
    T sum = 0;
    // two paths, so an instrumented copy has something to count
    T add(T x)
    {
        if (x % 3 == 0)
            sum += x * 2;
        else
            sum -= x;
        return sum;
    }
};
#ifndef ACC_COMDAT  // tests/cxx-extern-template.t: the control without it
extern template struct Acc<int>;
#endif
