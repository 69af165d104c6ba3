/* predict.comp - the j-set predicted to time t (predict_one.glsl), an
 * invocation a particle; with NB_PREDICT_DSTATE and `ahead`, to the block
 * state's next block time instead (block_state.glsl). */
layout(local_size_x = 256) in;

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_TIME) uniform double t;
#if defined(NB_PREDICT_DSTATE)
NB_LOCATION(NB_LOC_AHEAD) uniform int ahead;
#endif

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= n)
        return;
#if defined(NB_PREDICT_DSTATE)
    predict_particle(i, ahead != 0 ? next_t : t);
#else
    predict_particle(i, t);
#endif
}
