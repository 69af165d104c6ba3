/* accumulate.glsl - the accumulators of seed 004 Table 1, one per mode,
 * selected by NB_PRECISION_<M>.  An accumulator (struct nb_acc) sums the
 * vec4 pair terms of one i-particle: acc_init, acc_add (one pair, at the
 * scale of the uniform prec_scale) or acc_add_scaled (at a scale of the
 * caller's: a second accumulator of other units), acc_tile_end (at least
 * every NB_PREC_TILE additions), and acc_pack /
 * acc_unpack, its whole state as eight 32-bit words, bit for bit (the
 * compute kernels store them; the fragment kernels write them to two
 * RGBA32UI render targets and read them back in the next ping-pong pass).
 * A kernel may hold several (GAJ: acceleration with potential, and jerk).
 *
 *   B  float pair terms, double sums
 *   C  Takahashi & Iitaka: float (hs, ls), Knuth two-sum then Dekker's
 *      fast two-sum (seed 004 Fig. 4)
 *   D  Nitadori: hs += y by fast two-sum, ls collects the errors (Fig. 5),
 *      LARGE = 0
 *   E  modified Nitadori: D with hs starting at LARGE = 3 << 20 (Fig. 6)
 *   F  Narumi: float hs from LARGE, int li of the errors times
 *      LOWER_FACTOR, carried into hs every LOWER_LOOP additions (Fig. 8)
 *   G  double pair terms (acc_add_double), double sums
 *   H  each pair term times 2^k rounded to an integer and summed in int64
 *   M  not a mode: float sums of |pair term|, the bound on every partial
 *      sum from which E, F and the MD kernels' H take their scale 2^k
 *
 * acc_merge (a += b, the states of two j-slices, each after its tile
 * end): B, G in double, H exact in int64; C, D, E, F as the double-float
 * sum of the two (hs, ls) pairs, whose rounding is of the order of one
 * addition of the mode's own, so a merged sum keeps the mode's bound; M
 * in float, like its own additions.
 *
 * Words (w0, w1): B, G, H the four 64-bit sums, low word first; C, D, E
 * hs then ls as float bits; F hs then li; M the sums, then zeros.
 *
 * The `precise` temporaries keep the compiler from reassociating or fusing
 * the error-free transformations.  Below GLSL 4.00 and ES 3.20 there is no
 * `precise`: the prelude's NB_EXACT(x) multiplies the sums whose rounding
 * error is taken out next by a uniform 1.0 the compiler cannot see through
 * (exact, and (a + b) - a can no longer fold to b); above, it is x. */
#if defined(NB_PRECISION_H)
#extension GL_ARB_gpu_shader_int64 : require
#endif

NB_LOCATION(NB_LOC_PREC_SCALE) uniform vec4 prec_scale;

#if defined(NB_PRECISION_B) || defined(NB_PRECISION_G)
struct nb_acc { dvec4 s; };
void acc_init(out nb_acc a) { a.s = dvec4(0.0); }
void acc_add_scaled(inout nb_acc a, vec4 t, vec4 scale) { a.s += dvec4(t); }
void acc_add_double(inout nb_acc a, dvec4 t) { a.s += t; }
void acc_tile_end(inout nb_acc a) {}

void acc_pack(nb_acc a, out uvec4 w0, out uvec4 w1)
{
    w0 = uvec4(unpackDouble2x32(a.s.x), unpackDouble2x32(a.s.y));
    w1 = uvec4(unpackDouble2x32(a.s.z), unpackDouble2x32(a.s.w));
}

void acc_unpack(uvec4 w0, uvec4 w1, out nb_acc a)
{
    a.s = dvec4(packDouble2x32(w0.xy), packDouble2x32(w0.zw),
                packDouble2x32(w1.xy), packDouble2x32(w1.zw));
}

/* Adds the state b (another j-slice's sums) into a, in double. */
void acc_merge(inout nb_acc a, nb_acc b) { a.s += b.s; }

#elif defined(NB_PRECISION_H)
/* The term y = t 2^k (|y| <= 2^NB_PREC_BITS_FIXED = 2^61 by the choice of
 * k) is split without any float-to-integer conversion, which costs a
 * quarter-rate instruction on NVIDIA and which NVIDIA's driver 580 got
 * wrong beyond 2^31 for int64.  Adding the magic number
 * 1.5 2^(23+s) rounds y to a multiple of 2^s (ties to even) and leaves that
 * multiple as an integer in the low mantissa bits; its float bits minus the
 * magic's are the integer.  Three chunks, s = 44, 22, 0, each below 2^21 in
 * magnitude, are exact: the remainders y - h are exact floats, and the
 * three parts add up to roundEven(y) because the upper two are even.  The
 * chunk sums are int32 (wrapping; a tile of at most 512 terms keeps the
 * true sums below 2^30) and move into the int64 sum at each tile end.
 * Every step is odd in y, so the terms of (i, j) and (j, i), exact
 * negatives, stay exact negatives.
 *
 * NB_ACC_CHECK (the block steps, whose scale may come from the caller's
 * last values instead of a bound): `over` records any term above 2^61 or
 * any sum, at a tile end or a merge, at 2^61 or more (in float, which is
 * within 2^-23 of it).  Without it, no sum can have wrapped: each tile
 * adds at most 2^62 + 2^51, and a merge adds two sums below 2^61 + 2^51. */
#if defined(NB_ACC_CHECK)
struct nb_acc { i64vec4 s; ivec4 c2, c1, c0; int terms; vec4 big; bool over; };
const float nb_fixed_top = 2305843009213693952.0;   /* 2^61 */
#else
struct nb_acc { i64vec4 s; ivec4 c2, c1, c0; int terms; };
#endif

const float nb_magic2 = 221360928884514619392.0;     /* 1.5 2^67 */
const float nb_magic1 = 52776558133248.0;           /* 1.5 2^45 */
const float nb_magic0 = 12582912.0;                 /* 1.5 2^23 */

void acc_init(out nb_acc a)
{
    a.s = i64vec4(0);
    a.c2 = a.c1 = a.c0 = ivec4(0);
    a.terms = 0;
#if defined(NB_ACC_CHECK)
    a.big = vec4(0.0);
    a.over = false;
#endif
}

void acc_add_scaled(inout nb_acc a, vec4 t, vec4 scale)
{
    precise vec4 y = t * scale;
    precise vec4 a2 = y + nb_magic2;
    precise vec4 r1 = y - (a2 - nb_magic2);
    precise vec4 a1 = r1 + nb_magic1;
    precise vec4 r0 = r1 - (a1 - nb_magic1);
    precise vec4 a0 = r0 + nb_magic0;
    a.c2 += floatBitsToInt(a2);
    a.c1 += floatBitsToInt(a1);
    a.c0 += floatBitsToInt(a0);
    a.terms++;
#if defined(NB_ACC_CHECK)
    a.big = max(a.big, abs(y));
#endif
}

void acc_tile_end(inout nb_acc a)
{
    ivec4 c2 = a.c2 - a.terms * floatBitsToInt(nb_magic2);
    ivec4 c1 = a.c1 - a.terms * floatBitsToInt(nb_magic1);
    ivec4 c0 = a.c0 - a.terms * floatBitsToInt(nb_magic0);
#if defined(NB_ACC_CHECK)
    vec4 sum = vec4(a.s) + vec4(c2) * 17592186044416.0;     /* 2^44 */
    a.over = a.over || any(greaterThan(a.big, vec4(nb_fixed_top))) ||
             any(greaterThanEqual(abs(sum), vec4(nb_fixed_top)));
    a.big = vec4(0.0);
    if (a.over)
        c2 = ivec4(0);      /* no shift past int64; the sums are discarded */
#endif
    a.s += (i64vec4(c2) << 44) + (i64vec4(c1) << 22) + i64vec4(c0);
    a.c2 = a.c1 = a.c0 = ivec4(0);
    a.terms = 0;
}

/* Words of a 64-bit integer, low first (GLSL 4.30 has no unpackUint2x32). */
uvec2 nb_words(int64_t v) { return uvec2(uint(v & 0xffffffffl), uint(v >> 32)); }
int64_t nb_int64(uvec2 w) { return int64_t(uint64_t(w.y) << 32 | uint64_t(w.x)); }

/* Packs the int64 sums; call acc_tile_end first. */
void acc_pack(nb_acc a, out uvec4 w0, out uvec4 w1)
{
    w0 = uvec4(nb_words(a.s.x), nb_words(a.s.y));
    w1 = uvec4(nb_words(a.s.z), nb_words(a.s.w));
}

void acc_unpack(uvec4 w0, uvec4 w1, out nb_acc a)
{
    acc_init(a);
    a.s = i64vec4(nb_int64(w0.xy), nb_int64(w0.zw), nb_int64(w1.xy), nb_int64(w1.zw));
}

/* Adds the state b (another j-slice's sums, after acc_tile_end) into a:
 * exact, int64 addition is associative (wrapping, and the true sums stay
 * below 2^63 by the choice of k). */
void acc_merge(inout nb_acc a, nb_acc b)
{
    a.s += b.s;
#if defined(NB_ACC_CHECK)
    a.over = a.over || b.over || any(greaterThanEqual(abs(vec4(a.s)), vec4(nb_fixed_top)));
#endif
}

#if defined(NB_ACC_CHECK)
bool acc_overflow(nb_acc a) { return a.over; }
#endif

#elif defined(NB_PRECISION_M)
struct nb_acc { vec4 s; };
void acc_init(out nb_acc a) { a.s = vec4(0.0); }
void acc_add_scaled(inout nb_acc a, vec4 t, vec4 scale) { a.s += abs(t); }
void acc_tile_end(inout nb_acc a) {}
void acc_pack(nb_acc a, out uvec4 w0, out uvec4 w1)
{
    w0 = floatBitsToUint(a.s);
    w1 = uvec4(0);
}
void acc_unpack(uvec4 w0, uvec4 w1, out nb_acc a) { a.s = uintBitsToFloat(w0); }
void acc_merge(inout nb_acc a, nb_acc b) { a.s += b.s; }

#else   /* C, D, E, F: a float high part and a float or int low part */
#if defined(NB_PRECISION_F)
struct nb_acc { vec4 hs; ivec4 li; };
#else
struct nb_acc { vec4 hs; vec4 ls; };
#endif
#if defined(NB_PRECISION_E) || defined(NB_PRECISION_F)
#define NB_LARGE float(3 << (NB_LARGE_SHIFT - 1))
#define NB_IN_SCALE scale
#else
#define NB_LARGE 0.0
#define NB_IN_SCALE 1.0
#endif

void acc_init(out nb_acc a)
{
    a.hs = vec4(NB_LARGE);
#if defined(NB_PRECISION_F)
    a.li = ivec4(0);
#else
    a.ls = vec4(0.0);
#endif
}

void acc_add_scaled(inout nb_acc a, vec4 t, vec4 scale)
{
    precise vec4 y = t * NB_IN_SCALE;
#if defined(NB_PRECISION_C)
    precise vec4 z = NB_EXACT(a.hs + y);    /* Knuth: z + e = hs + y exactly */
    precise vec4 w = NB_EXACT(z - a.hs);
    precise vec4 e = (a.hs - (z - w)) + (y - w);
    precise vec4 r = a.ls + e;
    precise vec4 b = NB_EXACT(z + r);       /* Dekker, |z| >= |r| */
    precise vec4 bb = r - (b - z);
    a.hs = b;
    a.ls = bb;
#else
    precise vec4 b = NB_EXACT(a.hs + y);    /* Dekker, assumes |hs| >= |y| */
    precise vec4 e = y - (b - a.hs);
    a.hs = b;
#if defined(NB_PRECISION_F)
    /* rounded, not truncated: a truncation errs toward zero, and where most
     * terms of a sum share a sign (a jerk's, for an i-particle fast against
     * the rest) those errors add up in proportion to N, not to its root */
    a.li += ivec4(roundEven(e * float(1 << NB_LOWER_FACTOR_LOG2)));
#else
    precise vec4 l = a.ls + e;
    a.ls = l;
#endif
#endif
}

/* Narumi's carry (Fig. 8 lines 45-49): the top LOWER_SHIFT bits of li, a
 * multiple of the ulp of hs, move into hs exactly. */
void acc_tile_end(inout nb_acc a)
{
#if defined(NB_PRECISION_F)
    const int low_mask = (1 << (32 - NB_LOWER_SHIFT)) - 1;
    precise vec4 h = a.hs + vec4(a.li & ~low_mask) * (1.0 / float(1 << NB_LOWER_FACTOR_LOG2));
    a.hs = h;
    a.li &= low_mask;
#endif
}

void acc_pack(nb_acc a, out uvec4 w0, out uvec4 w1)
{
    w0 = floatBitsToUint(a.hs);
#if defined(NB_PRECISION_F)
    w1 = uvec4(a.li);
#else
    w1 = floatBitsToUint(a.ls);
#endif
}

void acc_unpack(uvec4 w0, uvec4 w1, out nb_acc a)
{
    a.hs = uintBitsToFloat(w0);
#if defined(NB_PRECISION_F)
    a.li = ivec4(w1);
#else
    a.ls = uintBitsToFloat(w1);
#endif
}

/* a += b: the high parts by Knuth's two-sum (no order of magnitude to
 * rely on), its error and b's low part into a's low part.  E, F: b's high
 * part less LARGE, exact (both lie in LARGE's binade, Sterbenz); F then
 * carries as at a tile end, so li is back in [0, 2^(32 - LOWER_SHIFT))
 * before the next merge. */
void acc_merge(inout nb_acc a, nb_acc b)
{
    precise vec4 y = NB_EXACT(b.hs - vec4(NB_LARGE));
    precise vec4 z = NB_EXACT(a.hs + y);
    precise vec4 w = NB_EXACT(z - a.hs);
    precise vec4 e = (a.hs - (z - w)) + (y - w);
#if defined(NB_PRECISION_C)
    precise vec4 r = (a.ls + b.ls) + e;
    precise vec4 h = NB_EXACT(z + r);       /* Dekker, renormalised as acc_add */
    precise vec4 l = r - (h - z);
    a.hs = h;
    a.ls = l;
#elif defined(NB_PRECISION_F)
    a.hs = z;
    a.li += b.li + ivec4(roundEven(e * float(1 << NB_LOWER_FACTOR_LOG2)));
    acc_tile_end(a);
#else
    precise vec4 l = (a.ls + b.ls) + e;
    a.hs = z;
    a.ls = l;
#endif
}
#endif

#if !defined(NB_PRECISION_H) || !defined(NB_ACC_CHECK)
/* Whether a's sums left its range (NB_ACC_CHECK, mode H): never else. */
bool acc_overflow(nb_acc a) { return false; }
#endif

/* One pair term at the run's scale (B, C, D, G and M ignore it). */
void acc_add(inout nb_acc a, vec4 t) { acc_add_scaled(a, t, prec_scale); }

/* Compute kernels: the results in a buffer, two uvec4 per particle (the
 * magnitude sums: one vec4).  NB_PREC_BIND_RESULT is the GA kernel's
 * output binding unless the including program names another. */
#ifndef NB_PREC_NO_BUFFER
#ifndef NB_PREC_BIND_RESULT
#define NB_PREC_BIND_RESULT NB_BIND_OUT
#endif
layout(std430, binding = NB_PREC_BIND_RESULT) writeonly buffer Results { uvec4 result[]; };

void acc_store(int i, nb_acc a)
{
    uvec4 w0, w1;
    acc_pack(a, w0, w1);
#if defined(NB_PRECISION_M)
    result[i] = w0;
#else
    result[2 * i] = w0;
    result[2 * i + 1] = w1;
#endif
}
#endif

#if defined(NB_PRECISION_G)
/* 1 / sqrt(r2) in double for the double laws (ga.glsl, gaj.glsl): float's
 * inversesqrt (a few 2^-24) refined by two Newton steps, each of which
 * squares the relative error (~1e-13, then double rounding).  NVIDIA
 * runs the double sqrt and divide as long software sequences; these are
 * six double FMAs and a conversion each way.  Outside float's range, the
 * plain form. */
double nb_rsqrt_double(double r2)
{
    float f = float(r2);
    if (!(f > 1e-36 && f < 1e36))
        return 1.0LF / sqrt(r2);
    double y = double(inversesqrt(f));
    y *= fma(-0.5LF * r2, y * y, 1.5LF);
    y *= fma(-0.5LF * r2, y * y, 1.5LF);
    return y;
}
#endif
