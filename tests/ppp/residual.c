/* residual.c - a program whose path sets differ by construction with its
 * input: classify() takes one path per character class, so a run on
 * "abc 123" never takes the paths of upper-case letters and punctuation
 * that a run on "abc 123 XY!" does; rare() runs only when a '!' is seen.
 * Each class's statement is alone on a line marked with its class, which
 * tests/ppp-select-residual.t finds in the paths' source lines; neither
 * function is inlined, so each keeps its paths at -O2. */
#include <stdio.h>

static int counts[5];

__attribute__((noinline)) static int rare(int c)
{
    return c * 3 + 1; /* RARE */
}

__attribute__((noinline)) static int classify(int c)
{
    if (c >= '0' && c <= '9')
        return 0; /* DIGIT */
    if (c >= 'a' && c <= 'z')
        return 1; /* LOWER */
    if (c == ' ')
        return 2; /* SPACE */
    if (c >= 'A' && c <= 'Z')
        return 3; /* UPPER */
    return 4; /* OTHER */
}

int main(int argc, char **argv)
{
    int extra = 0;
    const char *s = argc > 1 ? argv[1] : "";
    for (; *s; s++) {
        int k = classify((unsigned char)*s);
        counts[k]++;
        if (*s == '!')
            extra += rare(*s);
    }
    printf("%d %d %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3], counts[4], extra);
    return 0;
}
