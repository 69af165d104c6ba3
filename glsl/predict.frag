/* predict.frag - the Hermite predictor as a fragment program over the
 * device-resident state (the stream counterpart of predict.comp): one
 * fragment per particle writes its predicted position and velocity into
 * the two j-textures the GAJ kernel reads.  Textures hold no doubles, so
 * positions and times travel as float hi/lo pairs (x = hi + lo: about 48
 * bits), which keeps dt = t - t0 exact to ~1e-14 up to t = 8192.  With
 * NB_GAJ_DS the predicted x and v stay double-single: hi + lo by two-sum
 * of the state's hi and its lo plus the increment, the lo parts to two
 * more targets; v's lo part is a sixth state texture. */
NB_LOCATION(NB_LOC_TIME_HI) uniform float t_hi;
NB_LOCATION(NB_LOC_TIME_LO) uniform float t_lo;
NB_BINDING(NB_UNIT_STATE) uniform sampler2D state[5];   /* x_hi+m, x_lo, v+t0_hi, a+t0_lo, j */

layout(location = 0) out vec4 pos;
layout(location = 1) out vec4 vel;
#if defined(NB_GAJ_DS)
NB_BINDING(NB_UNIT_STATE_VLO) uniform sampler2D state_vlo;
layout(location = 2) out vec4 xlo;
layout(location = 3) out vec4 vlo;

/* hi + lo = h + l exactly (Knuth's two-sum, any magnitudes). */
void split_sum(vec3 h, vec3 l, out vec3 hi, out vec3 lo)
{
    precise vec3 s = NB_EXACT(h + l);
    precise vec3 z = NB_EXACT(s - h);
    hi = s;
    lo = (h - (s - z)) + (l - z);
}
#endif

void main()
{
    ivec2 at = ivec2(gl_FragCoord.xy);
    vec4 xh = texelFetch(state[0], at, 0), xl = texelFetch(state[1], at, 0);
    vec4 v = texelFetch(state[2], at, 0), a = texelFetch(state[3], at, 0);
    vec3 j = texelFetch(state[4], at, 0).xyz;
    float dt = (t_hi - v.w) + (t_lo - a.w);
    vec3 dx = dt * (v.xyz + dt * (0.5 * a.xyz + (dt / 6.0) * j));
#if defined(NB_GAJ_DS)
    vec3 xhi, xlow, vhi, vlow;
    split_sum(xh.xyz, xl.xyz + dx, xhi, xlow);
    split_sum(v.xyz, texelFetch(state_vlo, at, 0).xyz + dt * (a.xyz + (0.5 * dt) * j), vhi,
              vlow);
    pos = vec4(xhi, xh.w);
    vel = vec4(vhi, 0.0);
    xlo = vec4(xlow, 0.0);
    vlo = vec4(vlow, 0.0);
#else
    pos = vec4(xh.xyz + (xl.xyz + dx), xh.w);
    vel = vec4(v.xyz + dt * (a.xyz + (0.5 * dt) * j), 0.0);
#endif
}
