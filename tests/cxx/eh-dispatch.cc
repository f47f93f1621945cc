// eh-dispatch.cc - a try with two typed catch clauses in a loop: GCC
// dispatches on the exception's type in a GIMPLE_EH_DISPATCH block, which
// sampling=yes's checking copy could not copy (an ICE; yaml-cpp's
// emitfromevents.cpp). tests/sampling-eh-dispatch.t. Prints the sums.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

struct A {
    int v;
};

__attribute__((noinline)) int work(int i)
{
    if (i % 7 == 0)
        throw A{i};
    if (i % 11 == 0)
        throw std::runtime_error("eleven");
    return i;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, s = 0, a = 0, r = 0;
    for (int i = 0; i < n; i++) {
        try {
            s += work(i);
        } catch (const A &e) {
            a += e.v;
        } catch (const std::exception &) {
            r++;
        }
    }
    printf("%d %d %d\n", s, a, r);
    return 0;
}
