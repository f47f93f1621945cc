/* tap.h - the few TAP helpers the C unit tests need (one header, no
 * library): ok(), is_str(), is_u64(), done_testing(). */
#ifndef PATHPROF_TEST_TAP_H
#define PATHPROF_TEST_TAP_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static bool ok(bool cond, const char *name)
{
    tap_n++;
    printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, name);
    if (!cond)
        tap_failed++;
    return cond;
}

static bool is_str(const char *got, const char *want, const char *name)
{
    bool same = strcmp(got, want) == 0;
    ok(same, name);
    if (!same)
        printf("#          got: '%s'\n#     expected: '%s'\n", got, want);
    return same;
}

static bool is_u64(uint64_t got, uint64_t want, const char *name)
{
    ok(got == want, name);
    if (got != want)
        printf("#          got: %" PRIu64 "\n#     expected: %" PRIu64 "\n", got, want);
    return got == want;
}

static int done_testing(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
