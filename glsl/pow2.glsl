/* pow2.glsl - exact powers of two in double, built from their bits.
 * GLSL's ldexp on double is missing from some drivers (Mesa's zink could
 * not translate it, and phones' drivers can lack it), and exp2 has no
 * double form; a power of two assembled from its exponent field is exact
 * by construction, so x * nb_pow2(e) is ldexp(x, e) bit for bit wherever
 * neither 2^e nor the product leaves the normal range. */

/* 2^e for e in [-1022, 1023] (the normal doubles; the callers' exponents
 * are within a few hundred of 0). */
double nb_pow2(int e)
{
    return packDouble2x32(uvec2(0u, uint(e + 1023) << 20));
}

/* frexp's exponent of a positive normal double x: x = m 2^e, m in [0.5, 1). */
int nb_frexp_exponent(double x)
{
    return int((unpackDouble2x32(x).y >> 20) & 0x7ffu) - 1022;
}
