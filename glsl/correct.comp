/* correct.comp - the Hermite corrector on the device (Makino & Aarseth
 * 1992 eqs. 5-9), so that a block step sends nothing up and reads back one
 * record a block particle: the host's integrator_hermite4.c (correct_one)
 * and block_clock.c (nb_step_aarseth_criterion, nb_step_next) in the
 * same double operations, in the same order, none fused (precise): with
 * IEEE division and square root, the same bits as the host.
 *
 * Invocation k corrects block slot k, particle i = idx[k], at t1 from its
 * state at t0 (x0, t0; ds: v, a, jerk, a2, a3 and its step's level, 16
 * doubles a particle) and the GAJ result of the slot (acc: a, phi;
 * jerk), then writes the corrected state back and, for the host, rec[k] =
 * the new level or NB_CORRECT_NOT_FINITE / NB_CORRECT_TOO_SMALL; after the
 * n_block levels (rounded up to an even count of words), four words a
 * slot: the criterion and m a1.(x1 - xp) as doubles (the host reads them
 * only for a failed slot or a block of everyone).  A failed slot leaves
 * the state as it was. */
layout(local_size_x = NB_CORRECT_GROUP) in;

#define NB_CORRECT_DT_FLOOR ldexp(1.0LF, -NB_CORRECT_LEVEL_OF_ONE)

layout(std430, binding = NB_BIND_STATE_X) buffer X0 { double x0[]; };
layout(std430, binding = NB_BIND_STATE_T0) buffer T0 { double t0[]; };
layout(std430, binding = NB_BIND_STATE_V) readonly buffer V0 { vec4 v0[]; };  /* w: mass */
layout(std430, binding = NB_BIND_DSTATE) buffer DS { double ds[]; };
layout(std430, binding = NB_BIND_ACTIVE) readonly buffer Index { int idx[]; };
layout(std430, binding = NB_BIND_OUT) readonly buffer Acc { vec4 acc[]; };
layout(std430, binding = NB_BIND_OUT2) readonly buffer Jerk { vec4 jerk1[]; };
layout(std430, binding = NB_BIND_CORRECTED) writeonly buffer Out { uint rec[]; };

NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_block;
NB_LOCATION(NB_LOC_TIME) uniform double t1;
NB_LOCATION(NB_LOC_CORRECT_STEP) uniform dvec2 eta_dt_max;

double norm3(dvec3 u)
{
    precise double s = u.x * u.x + u.y * u.y;
    precise double s3 = s + u.z * u.z;
    return sqrt(s3);
}

/* nb_step_aarseth_criterion; -1 for infinite. */
double aarseth(double eta, dvec3 a, dvec3 j, dvec3 a2, dvec3 a3)
{
    precise double an = norm3(a), jn = norm3(j), a2n = norm3(a2), a3n = norm3(a3);
    precise double den = jn * a3n + a2n * a2n;
    precise double num = an * a2n + jn * jn;
    precise double q = eta * num / den;
    return den > 0.0LF ? sqrt(q) : -1.0LF;
}

/* nb_step_next with crit < 0 for infinite. */
double step_next(double dt, double crit, double dt_max)
{
    bool infinite = crit < 0.0LF;
    if (!infinite && crit < dt) {
        while (dt > crit && dt >= NB_CORRECT_DT_FLOOR)
            dt *= 0.5LF;
    } else if ((infinite || crit >= 2.0LF * dt) && 2.0LF * dt <= dt_max) {
        precise double q = t1 / (2.0LF * dt);
        if (q == floor(q))
            dt *= 2.0LF;
    }
    return dt;
}

bool finite3(dvec3 u)
{
    return !any(isnan(u)) && !any(isinf(u));
}

void main()
{
    int k = int(gl_GlobalInvocationID.x);
    if (k >= n_block)
        return;
    int i = idx[k];
    int s = 16 * i;
    dvec3 x = dvec3(x0[3 * i], x0[3 * i + 1], x0[3 * i + 2]);
    dvec3 v = dvec3(ds[s], ds[s + 1], ds[s + 2]);
    dvec3 a = dvec3(ds[s + 3], ds[s + 4], ds[s + 5]);
    dvec3 j = dvec3(ds[s + 6], ds[s + 7], ds[s + 8]);
    int level = int(ds[s + 15]);
    dvec3 a1 = dvec3(acc[k].xyz), j1 = dvec3(jerk1[k].xyz);
    precise double dt = t1 - t0[i];
    precise double dt2 = dt * dt;
    /* predict_one: x + dt (v + dt/2 (a + dt/3 j)), v + dt (a + dt/2 j) */
    precise dvec3 xp = x + dt * (v + dt / 2.0LF * (a + dt / 3.0LF * j));
    precise dvec3 vp = v + dt * (a + dt / 2.0LF * j);
    precise dvec3 da = a - a1;
    precise dvec3 a2 = (-6.0LF * da - dt * (4.0LF * j + 2.0LF * j1)) / dt2;
    precise dvec3 a3 = (12.0LF * da + 6.0LF * dt * (j + j1)) / (dt2 * dt);
    precise dvec3 x1 = xp + dt2 * dt2 * (a2 / 24.0LF + dt * a3 / 120.0LF);
    precise dvec3 v1 = vp + dt2 * dt * (a2 / 6.0LF + dt * a3 / 24.0LF);
    precise dvec3 a2_1 = a2 + dt * a3;
    int o = (n_block + 1) / 2 * 2 + 4 * k;     /* doubles 8-byte aligned */
    double m = double(v0[i].w);
    precise dvec3 moved = x1 - xp;
    precise double dw = m * a1.x * moved.x + m * a1.y * moved.y + m * a1.z * moved.z;
    uvec2 w = unpackDouble2x32(dw);
    rec[o + 2] = w.x, rec[o + 3] = w.y;
    if (!finite3(x1) || !finite3(v1) || !finite3(a2_1) || !finite3(a3)) {
        rec[o] = 0u;
        rec[o + 1] = 0u;
        rec[k] = uint(NB_CORRECT_NOT_FINITE);
        return;
    }
    double crit = aarseth(eta_dt_max.x, a1, j1, a2_1, a3);
    double dt_old = ldexp(1.0LF, level - NB_CORRECT_LEVEL_OF_ONE);
    double dt_new = step_next(dt_old, crit, eta_dt_max.y);
    w = unpackDouble2x32(crit);
    rec[o] = w.x, rec[o + 1] = w.y;
    if (dt_new < NB_CORRECT_DT_FLOOR) {
        rec[k] = uint(NB_CORRECT_TOO_SMALL);
        return;
    }
    int e;
    frexp(dt_new, e);                   /* dt_new = 2^(e - 1) */
    int level_new = e - 1 + NB_CORRECT_LEVEL_OF_ONE;
    rec[k] = uint(level_new);
    x0[3 * i] = x1.x;
    x0[3 * i + 1] = x1.y;
    x0[3 * i + 2] = x1.z;
    t0[i] = t1;
    ds[s] = v1.x, ds[s + 1] = v1.y, ds[s + 2] = v1.z;
    ds[s + 3] = a1.x, ds[s + 4] = a1.y, ds[s + 5] = a1.z;
    ds[s + 6] = j1.x, ds[s + 7] = j1.y, ds[s + 8] = j1.z;
    ds[s + 9] = a2_1.x, ds[s + 10] = a2_1.y, ds[s + 11] = a2_1.z;
    ds[s + 12] = a3.x, ds[s + 13] = a3.y, ds[s + 14] = a3.z;
    ds[s + 15] = double(level_new);
}
