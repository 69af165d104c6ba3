/* accumulate.glsl - the accumulators of seed 004 Table 1, one per mode,
 * selected by NB_PRECISION_<M>.  Each sums vec4 pair terms (ax, ay, az,
 * phi) of one i-particle with acc_init, acc_add (one pair), acc_tile_end
 * (after each tile of NB_PREC_TILE pairs) and acc_store (one result slot).
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
 *   H  each pair term times 2^k rounded to int64 and summed exactly
 *   M  not a mode: float sums of |pair term|, the bound on every partial
 *      sum from which E and F take their scale 2^k
 *
 * The `precise` temporaries keep the compiler from reassociating or fusing
 * the error-free transformations. */
#if defined(NB_PRECISION_H)
#extension GL_ARB_gpu_shader_int64 : require
#endif

layout(location = NB_LOC_PREC_SCALE) uniform vec4 prec_scale;

/* Where the sums go: the GA kernel's result binding unless the including
 * program (the MD one, whose binding 1 holds types) names another. */
#ifndef NB_PREC_BIND_RESULT
#define NB_PREC_BIND_RESULT NB_BIND_OUT
#endif

#if defined(NB_PRECISION_B) || defined(NB_PRECISION_G)
layout(std430, binding = NB_PREC_BIND_RESULT) writeonly buffer Results { dvec4 result[]; };
dvec4 acc;
void acc_init() { acc = dvec4(0.0); }
void acc_add(vec4 t) { acc += dvec4(t); }
void acc_add_double(dvec4 t) { acc += t; }
void acc_tile_end() {}
void acc_store(int i) { result[i] = acc; }

#elif defined(NB_PRECISION_H)
layout(std430, binding = NB_PREC_BIND_RESULT) writeonly buffer Results { i64vec4 result[]; };
i64vec4 acc;
void acc_init() { acc = i64vec4(0); }
/* |t| * 2^k < 2^62 by the choice of k: exact scaling, no overflow; the
 * rounding is odd (roundEven(-x) = -roundEven(x)), so the pair terms of
 * (i, j) and (j, i) become exact negatives.  The conversion goes through
 * double (exact for a float): NVIDIA's driver (580) converted float to
 * int64 wrongly beyond 2^31 (f_err 0.9 on the H200), double to int64
 * correctly. */
void acc_add(vec4 t) { acc += i64vec4(roundEven(dvec4(t) * dvec4(prec_scale))); }
void acc_tile_end() {}
void acc_store(int i) { result[i] = acc; }

#elif defined(NB_PRECISION_M)
layout(std430, binding = NB_PREC_BIND_RESULT) writeonly buffer Results { vec4 result[]; };
vec4 acc;
void acc_init() { acc = vec4(0.0); }
void acc_add(vec4 t) { acc += abs(t); }
void acc_tile_end() {}
void acc_store(int i) { result[i] = acc; }

#else   /* C, D, E, F: a float high part and a float or int low part */
layout(std430, binding = NB_PREC_BIND_RESULT) writeonly buffer Results { uvec4 result[]; };
vec4 hs;
#if defined(NB_PRECISION_F)
ivec4 li;
#else
vec4 ls;
#endif
#if defined(NB_PRECISION_E) || defined(NB_PRECISION_F)
#define NB_LARGE float(3 << (NB_LARGE_SHIFT - 1))
#define NB_IN_SCALE prec_scale
#else
#define NB_LARGE 0.0
#define NB_IN_SCALE 1.0
#endif

void acc_init()
{
    hs = vec4(NB_LARGE);
#if defined(NB_PRECISION_F)
    li = ivec4(0);
#else
    ls = vec4(0.0);
#endif
}

void acc_add(vec4 t)
{
    precise vec4 y = t * NB_IN_SCALE;
#if defined(NB_PRECISION_C)
    precise vec4 z = hs + y;            /* Knuth: z + e = hs + y exactly */
    precise vec4 w = z - hs;
    precise vec4 e = (hs - (z - w)) + (y - w);
    precise vec4 r = ls + e;
    precise vec4 b = z + r;             /* Dekker, |z| >= |r| */
    precise vec4 bb = r - (b - z);
    hs = b;
    ls = bb;
#else
    precise vec4 b = hs + y;            /* Dekker, assumes |hs| >= |y| */
    precise vec4 e = y - (b - hs);
    hs = b;
#if defined(NB_PRECISION_F)
    li += ivec4(e * float(1 << NB_LOWER_FACTOR_LOG2));
#else
    precise vec4 l = ls + e;
    ls = l;
#endif
#endif
}

/* Narumi's carry (Fig. 8 lines 45-49): the top LOWER_SHIFT bits of li, a
 * multiple of the ulp of hs, move into hs exactly. */
void acc_tile_end()
{
#if defined(NB_PRECISION_F)
    const int low_mask = (1 << (32 - NB_LOWER_SHIFT)) - 1;
    precise vec4 h = hs + vec4(li & ~low_mask) * (1.0 / float(1 << NB_LOWER_FACTOR_LOG2));
    hs = h;
    li &= low_mask;
#endif
}

void acc_store(int i)
{
    result[2 * i] = floatBitsToUint(hs);
#if defined(NB_PRECISION_F)
    result[2 * i + 1] = uvec4(li);
#else
    result[2 * i + 1] = floatBitsToUint(ls);
#endif
}
#endif
