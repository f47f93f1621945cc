/* tap-c.h - TAP output for the tests written in C (tests/ksf, tests/prune):
 * ok(cond, fmt, ...) prints "ok N - ..." or "not ok N - ...", counts the
 * failures; the program prints "1..test_no" at its end and exits
 * failures != 0.  Header-only: each test is one program. */
#ifndef PATHPROF_TESTS_TAP_C_H
#define PATHPROF_TESTS_TAP_C_H

#include <stdarg.h>
#include <stdio.h>

static int test_no, failures;

static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", cond ? "ok" : "not ok", ++test_no);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures += !cond;
}

#endif
