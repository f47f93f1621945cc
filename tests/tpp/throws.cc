// tests/tpp.t: exceptions under TPP.  "train" throws rarely (below 1% of
// the calls), so the throwing edge and the landing pad's paths are cold;
// "other" throws on every third call, so the cold counter and the paths
// thrown into the landing pad (counted where they end, on the EH edge)
// carry real flow.
#include <cstdio>
#include <stdexcept>

static volatile int sink;

static int risky(int x, int rare)
{
    if (x % rare == 0)
        throw std::runtime_error("rare");
    if (x & 1)
        sink++;
    return x * 2;
}

static long work(int x, int rare)
{
    long s = 0;
    for (int i = 0; i < 3; i++) {
        try {
            s += risky(x + i, rare);
        } catch (const std::exception &) {
            s -= 1;
        }
    }
    return s;
}

int main(int argc, char **argv)
{
    int rare = argc > 1 && argv[1][0] == 'o' ? 3 : 997;
    long s = 0;
    for (int i = 1; i < 20000; i++)
        s += work(i, rare);
    std::printf("%ld %d\n", s, (int)sink);
    return 0;
}
