/* multi.h - a program in four translation units for tests/cli-merge-kipf.t:
 * k-iteration paths in several TUs, so a run's roots come in the order its
 * TUs registered, which need not be the merged profile's. */
#ifndef MULTI_H
#define MULTI_H
unsigned scan_words(const char *s);
unsigned table_mix(unsigned seed, unsigned rounds);
unsigned util_digits(unsigned long v);
#endif
