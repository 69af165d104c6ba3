/* reduce.frag - sums the `replicas` copies of an i-stream that the
 * replicated GA kernel left stacked vertically in NB_TARGETS targets. */
layout(location = NB_LOC_ROWS) uniform int rows;
layout(location = NB_LOC_REPLICAS) uniform int replicas;
layout(binding = NB_UNIT_PREV) uniform sampler2D partial[NB_TARGETS];

layout(location = 0) out vec4 result[NB_TARGETS];

void main()
{
    ivec2 frag = ivec2(gl_FragCoord.xy);
    for (int k = 0; k < NB_TARGETS; ++k) {
        vec4 sum = vec4(0.0);
        for (int r = 0; r < replicas; ++r)
            sum += texelFetch(partial[k], frag + ivec2(0, r * rows), 0);
        result[k] = sum;
    }
}
