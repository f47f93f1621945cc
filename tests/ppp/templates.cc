// templates.cc - C++ functions whose names hold blanks and quotes, for
// the interesting-paths file of PPP (tests/ppp-cxx-names.t): gcc names
// a template instance "classify<int, char>" and a literal operator
// operator""_k, which the file must quote to round-trip.
#include <cstdio>
#include <cstdlib>
#include <cstring>

template <typename T, typename U>
static int __attribute__((noinline)) classify(T v, U c)
{
    int r = 0;
    if (v < 0)
        r += 1;
    if (c >= 'a' && c <= 'z')
        r += 2;
    else if (c >= '0' && c <= '9')
        r += 4;
    if (v % 3 == 0)
        r += 8;
    return r;
}

static unsigned long long __attribute__((noinline)) operator""_k(unsigned long long v)
{
    return v > 100 ? v * 1000 : v;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "abc";
    long sum = 0;
    for (size_t i = 0; s[i]; i++) {
        sum += classify<int, char>((int)i - 2, s[i]);
        sum += classify<long, unsigned char>((long)s[i], (unsigned char)s[i]);
        if (s[i] == '!')
            sum += (long)(7_k + 700_k);
    }
    std::printf("%ld\n", sum);
    return 0;
}
