/* main.c - drives the other three TUs; argv[1] sets how much work. */
#include "multi.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100, acc = 0;
    static const char *const text[] = {"a bb  ccc", " x", "one two three four", ""};
    for (unsigned i = 0; i < n; i++) {
        acc += scan_words(text[i % 4]);
        if (i % 3 == 0)
            acc ^= table_mix(i, 1 + i % 7);
        else
            acc += util_digits((unsigned long)i * 2654435761u);
    }
    printf("%u\n", acc);
    return 0;
}
