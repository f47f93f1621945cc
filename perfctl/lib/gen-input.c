/* gen-input.c - writes a deterministic, mixed, mostly text-like input for
 * the bzip2 benchmark: Zipf-distributed words from a made-up vocabulary,
 * log-like lines with numbers and hex ids, indented code-like blocks, and
 * a little incompressible noise. Same size and seed, same bytes.
 *
 *   usage: gen-input BYTES [SEED] > file
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORDS 4096

static uint64_t state;

static uint64_t next(void) /* splitmix64 */
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static unsigned below(unsigned n) { return (unsigned)(next() % n); }

static char words[NWORDS][16];
static double cumulative[NWORDS];

static void make_vocabulary(void)
{
    static const char *const syll[] = {
        "ka", "to", "ri", "an", "el", "mo", "su", "ne", "di", "or", "pa",
        "li", "ve", "th", "qu", "ex", "in", "ar", "ion", "ste"
    };
    double total = 0;
    for (int i = 0; i < NWORDS; i++) {
        int n = 1 + (int)below(4);
        words[i][0] = '\0';
        for (int s = 0; s < n; s++)
            strcat(words[i], syll[below(sizeof syll / sizeof syll[0])]);
        total += 1.0 / (i + 1); /* Zipf, exponent 1 */
        cumulative[i] = total;
    }
    for (int i = 0; i < NWORDS; i++)
        cumulative[i] /= total;
}

static const char *zipf_word(void)
{
    double u = (double)(next() >> 11) / 9007199254740992.0;
    int lo = 0, hi = NWORDS - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cumulative[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return words[lo];
}

static long emit_prose(void)
{
    long n = 0;
    int len = 8 + (int)below(30);
    for (int w = 0; w < len; w++) {
        const char *word = zipf_word();
        if (w == 0)
            n += printf("%c%s", word[0] - 32, word + 1); /* capitalised */
        else
            n += printf(" %s", word);
        if (w + 1 < len && below(12) == 0)
            n += printf(",");
    }
    n += printf(".\n");
    return n;
}

static long emit_log(void)
{
    static const char *const level[] = { "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR" };
    return printf("2024-%02u-%02u %02u:%02u:%02u.%03u [%s] %s id=%08llx n=%u %s\n",
                  1 + below(12), 1 + below(28), below(24), below(60), below(60),
                  below(1000), level[below(6)], zipf_word(),
                  (unsigned long long)(next() & 0xffffffffu), below(100000), zipf_word());
}

static long emit_code(void)
{
    long n = 0;
    int depth = 1 + (int)below(3);
    n += printf("static int %s_%s(int %s)\n{\n", zipf_word(), zipf_word(), zipf_word());
    for (int i = 0; i < 3 + (int)below(6); i++)
        n += printf("%*sif (%s > %u)\n%*s%s += %s;\n", 4 * depth, "", zipf_word(),
                    below(256), 4 * depth + 4, "", zipf_word(), zipf_word());
    n += printf("    return 0;\n}\n\n");
    return n;
}

static long emit_noise(void)
{
    int len = 64 + (int)below(512);
    for (int i = 0; i < len; i++)
        putchar((int)(next() & 0xff));
    putchar('\n');
    return len + 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: gen-input BYTES [SEED] > file\n");
        return 2;
    }
    long size = strtol(argv[1], NULL, 10);
    state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20240601;
    make_vocabulary();
    long n = 0;
    while (n < size) {
        unsigned r = below(100);
        if (r < 55)
            n += emit_prose();
        else if (r < 85)
            n += emit_log();
        else if (r < 98)
            n += emit_code();
        else
            n += emit_noise();
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
