/* gather.frag - gathers the active block from the j-textures into the
 * i-textures of gaj.frag, on the device: fragment k reads the index of
 * the k-th active particle and fetches its position and velocity (w of
 * the position carries the index, -1 for padding). */
NB_BINDING(NB_UNIT_POS) uniform sampler2D pos;
NB_BINDING(NB_UNIT_VEL) uniform sampler2D vel;
NB_BINDING(NB_UNIT_INDEX) uniform isampler2D active_index;

layout(location = 0) out vec4 ipos;
layout(location = 1) out vec4 ivel;
#if defined(NB_GAJ_DS)     /* the lo parts too */
NB_BINDING(NB_UNIT_JXLO) uniform sampler2D jxlo;
NB_BINDING(NB_UNIT_JVLO) uniform sampler2D jvlo;
layout(location = 2) out vec4 ixlo;
layout(location = 3) out vec4 ivlo;
#endif

void main()
{
    ivec2 at = ivec2(gl_FragCoord.xy);
    int i = texelFetch(active_index, at, 0).x;
    if (i < 0) {
        ipos = vec4(vec3(NB_PAD_COORD), -1.0);
        ivel = vec4(0.0);
#if defined(NB_GAJ_DS)
        ixlo = ivlo = vec4(0.0);
#endif
        return;
    }
    ivec2 src = ivec2(i & (NB_STREAM_WIDTH - 1), i >> NB_STREAM_SHIFT);
    ipos = vec4(texelFetch(pos, src, 0).xyz, float(i));
    ivel = texelFetch(vel, src, 0);
#if defined(NB_GAJ_DS)
    ixlo = texelFetch(jxlo, src, 0);
    ivlo = texelFetch(jvlo, src, 0);
#endif
}
