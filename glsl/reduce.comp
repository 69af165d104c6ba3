/* reduce.comp - sums the per-slice partial results of a j-split kernel:
 * result[i] = sum over s of partial[s * n + i], in slice order. */
layout(local_size_x = 256) in;

layout(std430, binding = NB_BIND_PARTIAL) readonly buffer Partial { vec4 partial[]; };
layout(std430, binding = NB_BIND_OUT) writeonly buffer Results { vec4 result[]; };

NB_LOCATION(NB_LOC_N) uniform int n;
NB_LOCATION(NB_LOC_SLICES) uniform int slices;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= n)
        return;
    vec4 sum = vec4(0.0);
    for (int s = 0; s < slices; ++s)
        sum += partial[s * n + i];
    result[i] = sum;
}
