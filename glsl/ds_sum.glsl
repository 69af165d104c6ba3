/* ds_sum.glsl - sums kept as double-single pairs of floats, hi + lo, for
 * mode A's block step (g6_block.comp, g6_reduce.comp).  A float sum
 * rounds at each addition by up to 2^-24 of itself; a pair (hi, lo)
 * keeps those roundings in lo, so its value hi + lo errs by ~2^-48.
 *
 * nb_ds_add(hi, lo, y): hi + y by Knuth's two-sum (exact as s + e, with
 * no order of magnitude assumed between hi and y), e added to lo.
 * nb_ds_merge(hi, lo, bh, bl): the pair (bh, bl) added the same way.
 * lo is not renormalised into hi: it only gathers roundings, ~2^-24 |hi|
 * each, so its own float rounding stays ~2^-48 of the sum.
 *
 * The kernels add a float sum of many pair terms (a tile's) at a time,
 * so these cost a few instructions a tile, not a pair.  `precise` (and
 * NB_EXACT below GLSL 4.00) keeps the compiler from folding
 * (hi - (s - w)) + (y - w) to 0. */
#define NB_DS_SUM(T)                                                          \
void nb_ds_add(inout T hi, inout T lo, T y)                                   \
{                                                                             \
    precise T s = NB_EXACT(hi + y);                                           \
    precise T w = NB_EXACT(s - hi);                                           \
    precise T e = (hi - (s - w)) + (y - w);                                   \
    precise T l = lo + e;                                                     \
    hi = s;                                                                   \
    lo = l;                                                                   \
}                                                                             \
void nb_ds_merge(inout T hi, inout T lo, T bh, T bl)                          \
{                                                                             \
    precise T s = NB_EXACT(hi + bh);                                          \
    precise T w = NB_EXACT(s - hi);                                           \
    precise T e = (hi - (s - w)) + (bh - w);                                  \
    precise T l = (lo + bl) + e;                                              \
    hi = s;                                                                   \
    lo = l;                                                                   \
}

NB_DS_SUM(float)
NB_DS_SUM(vec2)
NB_DS_SUM(vec4)
