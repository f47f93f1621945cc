/* profile-merge-sampling.c - an input's SAMPLING section (docs/format.md,
 * "Merging"; docs/sampling.md, "Merging sampled profiles").
 *
 * The counts of a sampled function are the paths seen in bursts, and the
 * report scales them by one factor per profile, (gap_checks +
 * burst_checks) / burst_checks.  Profiles sampled at the same rate and
 * burst length pool: counts, bursts and both check totals add, and the
 * factor of the sum is the ratio estimator of one long run at that rate.
 * It is consistent (each path's share of the bursts tends to its share of
 * the run, however the run is split into processes), and it keeps a short
 * process that happened to have no burst in the estimate through its
 * checks; scaling each input by its own factor and adding the estimates
 * would drop such a process altogether, and would not be associative.
 *
 * Profiles sampled at different rates cannot pool: a path that ran only in
 * the sparser run would be scaled by a factor drawn mostly from the denser
 * one.  Their consistent sum keeps one pool per rate, which a profile with
 * one factor cannot hold, so such an input is refused (naming both rates)
 * and each rate is merged on its own. */
#include "profile-merge-sampling.h"

#include <stdio.h>

/* "1/N, bursts of B" as PATHPROF_SAMPLE and PATHPROF_BURST say it. */
static void rate_text(char *buf, size_t size, uint64_t n, uint64_t burst)
{
    if (n == 0)
        snprintf(buf, size, "never (PATHPROF_SAMPLE=0)");
    else if (n == 1)
        snprintf(buf, size, "1/1 (always)");
    else
        snprintf(buf, size, "1/%llu with bursts of %llu checks", (unsigned long long)n,
                 (unsigned long long)burst);
}

int mg_read_sampling(struct pprt_merge *m, struct mg_cur *c, size_t input,
                     struct pprt_merge_error *err)
{
    uint64_t v[5];
    if (mg_left(c) != sizeof v)
        return mg_fail(err, "%zu bytes, a SAMPLING section has %zu", mg_left(c), sizeof v);
    for (int i = 0; i < 5; i++)
        mg_get_u64(c, &v[i]);
    struct mg_sampling *s = &m->sampling;
    if (v[1] == 0)
        return mg_fail(err, "a burst of 0 checks (PATHPROF_BURST is at least 1)");
    /* At 0 (no burst) and 1/1 (one endless burst) the burst length does
     * not change what was counted: the smallest is kept, in any order. */
    int any_burst = v[0] < 2;
    if (s->present && (v[0] != s->sample_n || (!any_burst && v[1] != s->burst))) {
        char mine[64], theirs[64];
        rate_text(mine, sizeof mine, v[0], v[1]);
        rate_text(theirs, sizeof theirs, s->sample_n, s->burst);
        return mg_fail(err, "sampled at %s, but %s was sampled at %s: counts sampled at "
                       "different rates do not add into one profile (it has one scale "
                       "factor); merge the profiles of each rate on their own",
                       mine, m->names[s->first_input], theirs);
    }
    if (!s->present) {
        s->sample_n = v[0];
        s->burst = v[1];
        s->first_input = input;
    } else if (v[1] < s->burst) {
        s->burst = v[1];
    }
    if (mg_add(&s->bursts, v[2], err, "bursts") || mg_add(&s->gap_checks, v[3], err, "checks") ||
        mg_add(&s->burst_checks, v[4], err, "checks"))
        return -1;
    uint64_t checks; /* the report's numerator */
    if (__builtin_add_overflow(s->gap_checks, s->burst_checks, &checks))
        return mg_fail(err, "the checks add up to more than 2^64 - 1");
    s->present = 1;
    return 0;
}
