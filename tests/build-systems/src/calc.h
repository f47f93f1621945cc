/* calc.h - the library of the small projects tests/build-*.t build. */
#ifndef CALC_H
#define CALC_H
int calc_classify(int x);
long calc_sum(int n);
#endif
