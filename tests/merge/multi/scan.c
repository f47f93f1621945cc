/* scan.c - words in a string: a loop whose path depends on the byte. */
#include "multi.h"

unsigned scan_words(const char *s)
{
    unsigned words = 0;
    int in = 0;
    for (; *s; s++) {
        if (*s == ' ')
            in = 0;
        else if (!in) {
            in = 1;
            words++;
        }
    }
    return words;
}
