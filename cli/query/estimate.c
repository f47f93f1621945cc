/* estimate.c - a sampled count's estimate and its interval.
 *
 * The model (docs/sampling.md has the argument): the unit of sampling is
 * the burst, not the path.  A burst sees B consecutive checks of its
 * thread and each check starts at most one path, so the number X of times
 * a burst sees a path lies in [0, B]: X / B is a variable in [0, 1].  Its
 * variance is at most p (1 - p) for its mean p, the Bernoulli case
 * (Bhatia-Davis), whatever way the path clusters inside bursts.  The
 * randomized gaps make the bursts' positions close to independent, so the
 * fraction seen, C / (n B) over n bursts, is a mean of n such variables
 * and a Wilson score interval with n trials covers p at least at the
 * nominal level (asymptotically; Wilson behaves at counts near 0 and at
 * small n where a normal interval does not).  The interval of p times all
 * the checks of the run is that of the full count.
 *
 * A k-iteration path of M BL paths is seen only when all M start in one
 * burst: a burst has B - M + 1 places for it, which both scales its count
 * up (the edges of the bursts cut the others) and bounds X: p is then
 * its rate per place, and p times all the checks its full count. */
#include <math.h>

#include "estimate.h"

/* The normal quantile of PP_ESTIMATE_CONFIDENCE (two-sided 0.95). */
#define Z 1.959963984540054

struct pp_estimate estimate_count(const struct pp_profile *p, uint64_t count, uint32_t span)
{
    const struct pp_sampling_info *s = &p->sampling;
    struct pp_estimate e = { false, false, 0.0, 0.0, 0.0 };
    double scale = profile_sample_scale(p);

    if (scale == 1.0 && (!p->has_sampling || s->sample_n == 1)) {
        e.known = e.exact = true;
        e.value = e.lo = e.hi = (double)count;
        return e;
    }
    if (scale == 0.0 || s->burst == 0)
        return e;
    /* S, the checks in bursts, and T, all the checks (the scale's own
     * figures; without a finished burst, the bursts begun and the rate). */
    double burst = (double)s->burst;
    double in_bursts = s->burst_checks ? (double)s->burst_checks : (double)s->bursts * burst;
    double all = in_bursts * scale;
    /* n: whole bursts' worth of checks, the trials. */
    double n = in_bursts / burst;
    double places = burst - (double)(span ? span - 1 : 0);
    if (places < 1.0)
        places = 1.0;
    double ph = (double)count / (n * places);
    if (ph > 1.0)
        ph = 1.0;
    double z2 = Z * Z;
    double centre = (ph + z2 / (2.0 * n)) / (1.0 + z2 / n);
    double half = Z / (1.0 + z2 / n) * sqrt(ph * (1.0 - ph) / n + z2 / (4.0 * n * n));
    double lo = centre - half, hi = centre + half;
    e.known = true;
    e.value = (double)count * all / (n * places);
    e.lo = (lo > 0.0 ? lo : 0.0) * all;
    e.hi = (hi < 1.0 ? hi : 1.0) * all;
    /* Never below what was seen. */
    if (e.lo < (double)count)
        e.lo = (double)count;
    return e;
}
