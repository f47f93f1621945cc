// throw_recursive.cc - C++ exceptions for tests/trace-e2e.t: a throw from
// under the deepest of several recursive activations of one function,
// caught by an outer activation of that same function (frames tell them
// apart), cleanups (destructors) in between, and a recursive function
// without any handler whose activations the throw unwinds at once.
#include <cstdio>
#include <cstdlib>

struct Oops {
    int at;
};

static int live;

struct Guard {
    Guard() { live++; }
    ~Guard() { live--; }
};

static void thrower(int n)
{
    for (int i = 0; i < 2; i++)
        if (i == 1)
            throw Oops{n};
}

// No handler, no cleanup: a throw passes through every activation.  The
// loop makes each activation finish a path before it recurses.
static int middle(int m)
{
    int s = 0;
    for (int i = 0; i < m + 2; i++)
        if (i == m + 1)
            s += m ? middle(m - 1) : (thrower(m), 0);
        else
            s += i;
    return s;
}

static int level(int n, int catch_at)
{
    Guard g;
    int r = 0;
    try {
        for (int i = 0; i < 2; i++)
            if (i == 1)
                r = n == 0 ? middle(3) : level(n - 1, catch_at) + 1;
    } catch (Oops &o) {
        if (n != catch_at)
            throw;
        r = -o.at - 1;
    }
    return r;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 30, s = 0;
    for (int i = 0; i < n; i++)
        s += level(i % 6, i % 6 > 2 ? 2 : i % 6);
    std::printf("%d %d\n", s, live);
    return 0;
}
