// overloads.cc - two C++ overloads of one name in one file, for the
// interesting-paths file of PPP (tests/ppp-overloads.t): gcc names both
// "score", the profile tells them apart by their declaration lines
// (and CFG checksums), and so must the file.
#include <cstdio>

static int __attribute__((noinline)) score(int v)
{
    int r = 0;
    if (v < 0)
        r += 1;
    if (v % 3 == 0)
        r += 2;
    return r;
}

static int __attribute__((noinline)) score(const char *s)
{
    int r = 0;
    for (; *s; s++) {
        if (*s >= 'a' && *s <= 'z')
            r += 1;
        else if (*s >= '0' && *s <= '9')
            r += 10;
        else
            r += 100;
    }
    return r;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "abc";
    long sum = score(s);
    for (int i = 0; s[i]; i++)
        sum += score((int)s[i] - 'b');
    std::printf("%ld\n", sum);
    return 0;
}
