/* rng.c - xoshiro256** (Blackman and Vigna), seeded through splitmix64 so
 * that any 64-bit seed, 0 included, gives a good, non-zero state.  Pure
 * integer arithmetic: the same sequence on every platform. */
#include "nb_host.h"

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void nb_rng_seed(struct nb_rng *rng, uint64_t seed)
{
    for (int k = 0; k < 4; k++)
        rng->s[k] = splitmix64(&seed);
}

uint64_t nb_rng_next(struct nb_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double nb_rng_uniform(struct nb_rng *rng)
{
    /* The top 53 bits, so every value is exact and below 1. */
    return (double)(nb_rng_next(rng) >> 11) * 0x1.0p-53;
}
