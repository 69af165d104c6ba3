/* block_clock.c - the block time steps of the Hermite integrator: the
 * step criteria (Makino and Aarseth 1992 eqs. 2 and 9), their quantisation
 * to powers of two that divide the block time (McMillan and Aarseth 1993),
 * and the levels that find a block without reading every particle's time.
 */
#include "nb_host.h"

#include <math.h>

static double norm3(const double *u)
{
    return sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
}

/* Eq. 2, eta |a| / |jerk|, where both are non-zero.  Either can be exactly
 * zero at the start: the jerk of an input at rest (a cold collapse), the
 * acceleration at a point of symmetry (the figure-eight's middle body);
 * eq. 2 would then give dt_max or 0.  There we take eta times a dynamical
 * time built from the potential instead, sqrt|phi| / |a| or
 * |phi|^{1/4} / |jerk|^{1/2}: both r^{3/2} / sqrt(m) for one pair, like
 * |a| / |jerk|.  Infinite when the particle feels nothing at all. */
double nb_step_initial_criterion(double eta, const double *a, const double *j, double pot)
{
    double an = norm3(a), jn = norm3(j), phi = fabs(pot);

    if (an > 0.0 && jn > 0.0)
        return eta * an / jn;
    if (an > 0.0)
        return eta * sqrt(phi) / an;
    return jn > 0.0 ? eta * sqrt(sqrt(phi) / jn) : INFINITY;
}

/* Eq. 9; infinite where the denominator vanishes (no higher derivatives:
 * nothing limits the step but dt_max). */
double nb_step_aarseth_criterion(double eta, const double *a, const double *j,
                                 const double *a2, const double *a3)
{
    double an = norm3(a), jn = norm3(j), a2n = norm3(a2), a3n = norm3(a3);
    double den = jn * a3n + a2n * a2n;

    return den > 0.0 ? sqrt(eta * (an * a2n + jn * jn) / den) : INFINITY;
}

/* Whether the power of two `step` divides t: t / step is exact, so an
 * integer quotient says it (fmod says the same, many times slower). */
static int divides(double step, double t)
{
    double q = t / step;

    return q == floor(q);
}

/* The quantised step after a correction at t1: halve while above the
 * criterion (any halving still divides t1); double only when the criterion
 * allows it, dt_max does and t1 is a multiple of the doubled step.  May
 * return a step below NB_DT_FLOOR: the caller reports it. */
double nb_step_next(double dt, double crit, double t1, double dt_max)
{
    if (crit < dt) {
        while (dt > crit && dt >= NB_DT_FLOOR)
            dt *= 0.5;
    } else if (crit >= 2.0 * dt && 2.0 * dt <= dt_max && divides(2.0 * dt, t1)) {
        dt *= 2.0;
    }
    return dt;
}

/* The first step: the largest power of two <= the criterion and dt_max;
 * at t = 0 every power of two is commensurate. */
double nb_step_first(double crit, double dt_max)
{
    int e;

    if (!(crit > 0.0))
        return 0.0;             /* below any floor: reported by the caller */
    if (!(crit < dt_max))
        return dt_max;
    frexp(crit, &e);
    return ldexp(1.0, e - 1);
}

int nb_step_level(double dt)
{
    return ilogb(dt) + NB_STEP_LEVEL_OF_ONE;
}

/* The level of the largest power of two that divides t1 (> 0, a multiple
 * of NB_DT_FLOOR, at most 2 NB_T_MAX: t1 2^40 is an integer below 2^55,
 * exact in a double and in 64 bits, and not 0). */
int nb_step_dividing_level(double t1)
{
    return __builtin_ctzll((unsigned long long)ldexp(t1, NB_STEP_LEVEL_OF_ONE));
}

/* The earliest time after t1 that a step of each level in `levels` (a
 * bit set) ends at: the next multiple of the step above t1 (t1 + step
 * where t1 is one); infinite for none. */
double nb_step_next_ends(uint64_t levels, double t1)
{
    double next = INFINITY;

    for (int l = 0; l < NB_STEP_LEVELS; l++)
        if (levels >> l & 1) {
            double step = ldexp(1.0, l - NB_STEP_LEVEL_OF_ONE);
            double end = (floor(t1 / step) + 1.0) * step;

            next = end < next ? end : next;
        }
    return next;
}
