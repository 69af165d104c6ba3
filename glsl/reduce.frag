/* reduce.frag - sums the `replicas` copies of an i-stream that the
 * replicated GA kernel left stacked vertically in NB_TARGETS targets. */
NB_LOCATION(NB_LOC_ROWS) uniform int rows;
NB_LOCATION(NB_LOC_REPLICAS) uniform int replicas;
NB_BINDING(NB_UNIT_PREV) uniform sampler2D partial[NB_TARGETS];

layout(location = 0) out vec4 result[NB_TARGETS];

/* Target k's copies summed; k a constant, as sampler and output arrays
 * take only constant indices before GLSL 4.00 and ES 3.20. */
#define REDUCE(k)                                                            \
    {                                                                        \
        vec4 sum = vec4(0.0);                                                \
        for (int r = 0; r < replicas; ++r)                                   \
            sum += texelFetch(partial[k], frag + ivec2(0, r * rows), 0);     \
        result[k] = sum;                                                     \
    }

void main()
{
    ivec2 frag = ivec2(gl_FragCoord.xy);
    REDUCE(0)
#if NB_TARGETS > 1
    REDUCE(1)
#endif
#if NB_TARGETS > 2
    REDUCE(2)
#endif
#if NB_TARGETS > 3
    REDUCE(3)
#endif
}
