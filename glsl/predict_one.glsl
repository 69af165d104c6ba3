/* predict_one.glsl - the Hermite predictor on the device (seed 001
 * section 6: keep the particles on the GPU and send only the corrected
 * block), for predict.comp and for find_block.comp's pass that runs ahead:
 *
 *   x_p = x0 + v dt + a dt^2/2 + j dt^3/6,   v_p = v + a dt + j dt^2/2
 *
 * with dt = t - t0 per particle.  Times and the base positions are double
 * (t ~ 1000 with dt ~ 1e-4 would lose most digits in float); the small
 * increments are float.  Writes the j-set of the GAJ kernel.  With
 * NB_PREDICT_DSTATE, v, a and jerk come from the device corrector's double
 * state (correct.comp), rounded to float as the host's packing rounds
 * them.  With NB_GAJ_DS the predicted x and v, formed in double, are
 * split into double-single pairs (hi = float(x), lo = float(x - hi)): the
 * hi parts to pos and vel, the lo parts to jlo; the state's velocities
 * are then hi in v0 and lo in v0lo. */
layout(std430, binding = NB_BIND_STATE_X) readonly buffer X0 { double x0[]; };
layout(std430, binding = NB_BIND_STATE_T0) readonly buffer T0 { double t0[]; };
layout(std430, binding = NB_BIND_STATE_V) readonly buffer V0 { vec4 v0[]; };    /* v, m */
#if defined(NB_PREDICT_DSTATE)  /* the device corrector's double v, a, jerk */
layout(std430, binding = NB_BIND_DSTATE) readonly buffer DS { double ds[]; };
#else
layout(std430, binding = NB_BIND_STATE_A) readonly buffer A0 { vec4 a0[]; };
layout(std430, binding = NB_BIND_STATE_J) readonly buffer J0 { vec4 j0[]; };
#endif
layout(std430, binding = NB_BIND_POS) writeonly buffer Positions { vec4 pos[]; };
layout(std430, binding = NB_BIND_VEL) writeonly buffer Velocities { vec4 vel[]; };
#if defined(NB_GAJ_DS)
layout(std430, binding = NB_BIND_JLO) writeonly buffer Low { vec4 jlo[]; };
#if !defined(NB_PREDICT_DSTATE)
layout(std430, binding = NB_BIND_STATE_VLO) readonly buffer VLo { vec4 v0lo[]; };
#endif

/* x as a double-single pair into hi and lo. */
void nb_split(dvec3 x, out vec3 hi, out vec3 lo)
{
    hi = vec3(x);
    lo = vec3(x - dvec3(hi));
}
#endif

/* Particle i of the j-set at time t. */
void predict_particle(int i, double t)
{
    float dt = float(t - t0[i]);
#if defined(NB_PREDICT_DSTATE)
    int s = 16 * i;
    vec3 v = vec3(dvec3(ds[s], ds[s + 1], ds[s + 2]));
    vec3 a = vec3(dvec3(ds[s + 3], ds[s + 4], ds[s + 5]));
    vec3 j = vec3(dvec3(ds[s + 6], ds[s + 7], ds[s + 8]));
#else
    vec3 v = v0[i].xyz, a = a0[i].xyz, j = j0[i].xyz;
#endif
    vec3 dx = dt * (v + dt * (0.5 * a + (dt / 6.0) * j));
    dvec3 x = dvec3(x0[3 * i], x0[3 * i + 1], x0[3 * i + 2]) + dvec3(dx);
#if defined(NB_GAJ_DS)
#if defined(NB_PREDICT_DSTATE)
    dvec3 vd = dvec3(ds[s], ds[s + 1], ds[s + 2]);
#else
    dvec3 vd = dvec3(v0[i].xyz) + dvec3(v0lo[i].xyz);
#endif
    vec3 xh, xl, vh, vl;
    nb_split(x, xh, xl);
    nb_split(vd + dvec3(dt * (a + (0.5 * dt) * j)), vh, vl);
    pos[i] = vec4(xh, v0[i].w);
    vel[i] = vec4(vh, 0.0);
    jlo[2 * i] = vec4(xl, 0.0);
    jlo[2 * i + 1] = vec4(vl, 0.0);
#else
    pos[i] = vec4(vec3(x), v0[i].w);
    vel[i] = vec4(v + dt * (a + (0.5 * dt) * j), 0.0);
#endif
}
