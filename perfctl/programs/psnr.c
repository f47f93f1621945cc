/* psnr.c - the round-trip check of perfctl's libjpeg-turbo workload
 * (perfctl/programs/work.jpeg), built uninstrumented by the recipe's
 * prog_input:  psnr ORIGINAL DECODED MIN-DB
 * Both are binary PPM or PGM files (P6 or P5, maxval 255) of one kind and
 * size. Prints "WxH PSNR N.NN dB" (the peak signal-to-noise ratio of
 * DECODED against ORIGINAL over every sample) and exits 1 when it is
 * below MIN-DB or the headers differ: a JPEG round trip is lossy, but not
 * by more than its settings allow. (A Perl version took seconds per
 * image at scale 1, more than the codec: it would have been most of every
 * configuration's time.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pnm {
    FILE *f;
    char magic[3];
    long w, h, maxval;
};

/* the next header number of P, or -1; skips whitespace and # comments */
static long number(FILE *f) {
    int c;
    long v = 0;
    do {
        c = getc(f);
        if (c == '#')
            while (c != '\n' && c != EOF) c = getc(f);
    } while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
    if (c < '0' || c > '9') return -1;
    for (; c >= '0' && c <= '9'; c = getc(f)) {
        v = v * 10 + (c - '0');
        if (v > 1000000) return -1;
    }
    /* the one whitespace byte after a number (after maxval: the data) */
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' ? v : -1;
}

static void open_pnm(const char *name, struct pnm *p) {
    p->f = fopen(name, "rb");
    if (!p->f) { perror(name); exit(2); }
    if (fread(p->magic, 1, 2, p->f) != 2) p->magic[0] = 0;
    p->magic[2] = 0;
    if (strcmp(p->magic, "P5") != 0 && strcmp(p->magic, "P6") != 0) {
        fprintf(stderr, "psnr: %s is not a binary PPM or PGM file\n", name);
        exit(2);
    }
    p->w = number(p->f);
    p->h = number(p->f);
    p->maxval = number(p->f);
    if (p->w <= 0 || p->h <= 0 || p->maxval != 255) {
        fprintf(stderr, "psnr: %s: a bad header (or maxval other than 255)\n", name);
        exit(2);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: psnr ORIGINAL DECODED MIN-DB\n");
        return 2;
    }
    char *end;
    double min = strtod(argv[3], &end);
    if (*end || end == argv[3]) {
        fprintf(stderr, "psnr: MIN-DB '%s' is not a number\n", argv[3]);
        return 2;
    }
    struct pnm a, b;
    open_pnm(argv[1], &a);
    open_pnm(argv[2], &b);
    if (strcmp(a.magic, b.magic) != 0 || a.w != b.w || a.h != b.h) {
        fprintf(stderr, "psnr: %s is %s %ldx%ld, %s is %s %ldx%ld\n", argv[2], b.magic, b.w, b.h, argv[1], a.magic,
                a.w, a.h);
        return 1;
    }
    long n = a.w * a.h * (a.magic[1] == '6' ? 3 : 1);
    double sse = 0;
    for (long i = 0; i < n; i++) {
        int x = getc(a.f), y = getc(b.f);
        if (x == EOF || y == EOF) {
            fprintf(stderr, "psnr: %s ends before its %ld samples\n", x == EOF ? argv[1] : argv[2], n);
            return 1;
        }
        sse += (double)(x - y) * (x - y);
    }
    double psnr = sse > 0 ? 10 * log10(255.0 * 255.0 * (double)n / sse) : 99;
    printf("%ldx%ld PSNR %.2f dB\n", a.w, a.h, psnr);
    return psnr >= min ? 0 : 1;
}
