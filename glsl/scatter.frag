/* scatter.frag - writes block entry k (five state texels, laid out like
 * the state textures) into the particle's texel of every state target. */
#if defined(NB_GAJ_DS)      /* a sixth: v's lo part */
#define NB_TARGETS NB_STATE_TARGETS_DS
#else
#define NB_TARGETS NB_STATE_TARGETS
#endif
NB_BINDING(NB_UNIT_BLOCK) uniform sampler2D block[NB_TARGETS];

NB_VARYING(0) flat in int k;
layout(location = 0) out vec4 state[NB_TARGETS];

void main()
{
    ivec2 at = ivec2(k & (NB_STREAM_WIDTH - 1), k >> NB_STREAM_SHIFT);
    state[0] = texelFetch(block[0], at, 0);
    state[1] = texelFetch(block[1], at, 0);
    state[2] = texelFetch(block[2], at, 0);
    state[3] = texelFetch(block[3], at, 0);
    state[4] = texelFetch(block[4], at, 0);
#if defined(NB_GAJ_DS)
    state[5] = texelFetch(block[5], at, 0);
#endif
}
