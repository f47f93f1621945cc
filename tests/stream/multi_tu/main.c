/* main.c - a program whose hot loop changes translation unit at nearly
 * every event (tests/stream-multi-tu.t): main.c calls into parse.c and
 * hash.c, which call each other, as an interpreter's VM calls into its
 * table and string files; every fourth iteration also calls wide.c, a TU
 * too big for the analyzer's flat array. */
#include <stdio.h>
#include <stdlib.h>

unsigned parse_step(unsigned x);
unsigned hash_mix(unsigned h, unsigned x);
unsigned wide(unsigned x);

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 200000;
    unsigned h = 17;
    for (unsigned i = 0; i < n; i++) {
        unsigned x = parse_step(i);
        h = (i & 1) ? hash_mix(h, x) : h ^ x;
        if ((i & 3) == 2)
            h += wide(i % 7u * 9363u); /* few distinct paths: reports stay small */
    }
    printf("%u\n", h);
    return 0;
}
