/* render_inspect.frag - the texture inspector: one quantity of a force
 * pass's results (a render target, or an output buffer read as storage)
 * as a false-colour image of log10 of its magnitude, texel for texel, or
 * the colour bar of that scale. */
NB_LOCATION(1) uniform int source;        /* 0 texture, 1 buffer, 2 colour bar */
NB_LOCATION(2) uniform int channel;       /* 0 |xyz|, 1 |w| */
NB_LOCATION(3) uniform vec2 decades;      /* log10 at the ends of the scale */
NB_LOCATION(4) uniform ivec2 size;        /* texels shown across and down */
NB_LOCATION(5) uniform int stride;        /* buffer: vec4s an element */
NB_LOCATION(6) uniform int offset;
NB_LOCATION(7) uniform int count;         /* elements (texels) */
NB_LOCATION(8) uniform int texture_width; /* texels a row of the target */
NB_BINDING(0) uniform sampler2D target;
/* The compute pipeline's buffers, where the level has storage buffers
 * (the stream path alone runs below it, with render targets only). */
#if (NB_GLSL_ES && __VERSION__ >= 310) || (!NB_GLSL_ES && __VERSION__ >= 430)
#define NB_INSPECT_BUFFERS
layout(std430, binding = 0) readonly buffer Results { vec4 results[]; };
#endif

NB_VARYING(0) in vec2 uv;
layout(location = 0) out vec4 frag;

/* Black, violet, orange, yellow, white: magnitude reads as brightness. */
vec3 scale(float t)
{
    const vec3 stops[5] = vec3[5](vec3(0.0, 0.0, 0.05), vec3(0.35, 0.05, 0.55),
                                  vec3(0.90, 0.30, 0.20), vec3(1.00, 0.85, 0.20),
                                  vec3(1.00, 1.00, 1.00));
    float s = clamp(t, 0.0, 1.0) * 4.0;
    int k = min(int(s), 3);
    return mix(stops[k], stops[k + 1], s - float(k));
}

void main()
{
    if (source == 2) {
        frag = vec4(scale(uv.x), 1.0);
        return;
    }
    /* Element i (a texel in row order, or a buffer element) at row i / w
     * and column i % w of the image, w = size.x: long thin targets are
     * wrapped into a near-square. */
    ivec2 p = min(ivec2(uv * vec2(size)), size - 1);
    int i = p.y * size.x + p.x;
    if (i >= count) {
        frag = vec4(0.15, 0.15, 0.15, 1.0);         /* past the last element */
        return;
    }
#ifdef NB_INSPECT_BUFFERS
    vec4 v = source == 0 ? texelFetch(target, ivec2(i % texture_width, i / texture_width), 0)
                         : results[i * stride + offset];
#else
    vec4 v = texelFetch(target, ivec2(i % texture_width, i / texture_width), 0);
#endif
    float m = channel == 0 ? length(v.xyz) : abs(v.w);
    if (isnan(m) || isinf(m))
        frag = vec4(0.0, 1.0, 0.0, 1.0);            /* a non-finite value: green */
    else if (m == 0.0)
        frag = vec4(0.0, 0.0, 0.0, 1.0);
    else
        frag = vec4(scale((log(m) / log(10.0) - decades.x) / (decades.y - decades.x)), 1.0);
}
