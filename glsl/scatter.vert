/* scatter.vert - scatter by drawing points, the classic stream-model way to
 * write where a kernel chooses: vertex k of the corrected block becomes a
 * one-texel point on the texel of its particle in the state textures. */
NB_LOCATION(NB_LOC_ROWS) uniform int rows;
NB_BINDING(NB_UNIT_INDEX) uniform isampler2D block_index;

NB_VARYING(0) flat out int k;

void main()
{
    k = gl_VertexID;
    int i = texelFetch(block_index, ivec2(k & (NB_STREAM_WIDTH - 1), k >> NB_STREAM_SHIFT), 0).x;
    vec2 texel = vec2(i & (NB_STREAM_WIDTH - 1), i >> NB_STREAM_SHIFT) + 0.5;
    gl_Position = vec4(texel / vec2(NB_STREAM_WIDTH, rows) * 2.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}
