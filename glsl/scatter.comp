/* scatter.comp - writes a corrected block into the device-resident Hermite
 * state: element k of the block arrays goes to particle idx[k]. */
layout(local_size_x = 256) in;

layout(std430, binding = NB_BIND_STATE_X) writeonly buffer X0 { double x0[]; };
layout(std430, binding = NB_BIND_STATE_T0) writeonly buffer T0 { double t0[]; };
layout(std430, binding = NB_BIND_STATE_V) buffer V0 { vec4 v0[]; };
layout(std430, binding = NB_BIND_STATE_A) writeonly buffer A0 { vec4 a0[]; };
layout(std430, binding = NB_BIND_STATE_J) writeonly buffer J0 { vec4 j0[]; };
layout(std430, binding = NB_BIND_BLOCK_X) readonly buffer BX { double bx[]; };
layout(std430, binding = NB_BIND_BLOCK_T0) readonly buffer BT { double bt0[]; };
layout(std430, binding = NB_BIND_BLOCK_VAJ) readonly buffer BVAJ { vec4 bvaj[]; };   /* v, a, j per k */
layout(std430, binding = NB_BIND_ACTIVE) readonly buffer Index { int idx[]; };
#if defined(NB_GAJ_DS)     /* v's lo part, a fourth vec4 per k */
layout(std430, binding = NB_BIND_STATE_VLO) writeonly buffer VLo { vec4 v0lo[]; };
#define NB_VAJ 4
#else
#define NB_VAJ 3
#endif

NB_LOCATION(NB_LOC_N_ACTIVE) uniform int n_block;

void main()
{
    int k = int(gl_GlobalInvocationID.x);
    if (k >= n_block)
        return;
    int i = idx[k];
    x0[3 * i] = bx[3 * k];
    x0[3 * i + 1] = bx[3 * k + 1];
    x0[3 * i + 2] = bx[3 * k + 2];
    t0[i] = bt0[k];
    v0[i] = vec4(bvaj[NB_VAJ * k].xyz, v0[i].w);      /* the mass stays */
    a0[i] = bvaj[NB_VAJ * k + 1];
    j0[i] = bvaj[NB_VAJ * k + 2];
#if defined(NB_GAJ_DS)
    v0lo[i] = bvaj[NB_VAJ * k + 3];
#endif
}
