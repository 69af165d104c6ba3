/* render_points.vert - one point sprite per particle, read straight from
 * the engine's stream on the GPU: as vertex attributes (the compute
 * pipeline's buffers) or, with NB_RENDER_TEXTURE, fetched from the
 * fragment pipeline's position and velocity textures by gl_VertexID.
 * Colour: speed or potential on a ramp, or the type's colour; size: the
 * cube root of the mass (gravity) or the type's radius (MD). */
NB_LOCATION(0) uniform mat4 view_proj;
NB_LOCATION(1) uniform int color_mode;        /* 0 speed, 1 potential, 2 type */
NB_LOCATION(2) uniform vec2 value_range;      /* ramp from .x to .y */
NB_LOCATION(3) uniform int size_by_type;
NB_LOCATION(4) uniform float radius;          /* of the mean mass, of type 1 */
NB_LOCATION(5) uniform float mean_mass;
NB_LOCATION(6) uniform float pixels_per_unit; /* at unit clip w */
NB_LOCATION(7) uniform float brightness;
NB_LOCATION(8) uniform int has_vel;

#ifdef NB_RENDER_TEXTURE
NB_BINDING(0) uniform sampler2D pos_tex;
NB_BINDING(1) uniform sampler2D vel_tex;
#else
layout(location = 0) in vec4 pos_in;                /* x y z, m (gravity) */
#ifdef NB_RENDER_DVEL
layout(location = 1) in dvec4 vel_in;
#else
layout(location = 1) in vec4 vel_in;
#endif
#endif
layout(location = 2) in float value_in;             /* a potential */
layout(location = 3) in int type_in;                /* from 0 */

NB_VARYING(0) out vec3 color;

/* Types 1..8 (then again): the colours a viewer of ionic crystals expects
 * to tell apart: warm red, blue, green, yellow, violet, cyan, pink, grey. */
const vec3 type_colors[8] = vec3[8](
    vec3(1.00, 0.35, 0.20), vec3(0.25, 0.55, 1.00), vec3(0.30, 0.90, 0.35),
    vec3(1.00, 0.85, 0.20), vec3(0.75, 0.35, 1.00), vec3(0.20, 0.90, 0.90),
    vec3(1.00, 0.50, 0.75), vec3(0.80, 0.80, 0.80));

/* Dark blue, blue, white, orange, red. */
vec3 ramp(float t)
{
    const vec3 stops[5] = vec3[5](vec3(0.10, 0.15, 0.60), vec3(0.20, 0.50, 1.00),
                                  vec3(1.00, 1.00, 1.00), vec3(1.00, 0.65, 0.20),
                                  vec3(0.90, 0.15, 0.10));
    float s = clamp(t, 0.0, 1.0) * 4.0;
    int k = min(int(s), 3);
    return mix(stops[k], stops[k + 1], s - float(k));
}

void main()
{
#ifdef NB_RENDER_TEXTURE
    ivec2 texel = ivec2(gl_VertexID & (NB_STREAM_WIDTH - 1), gl_VertexID >> NB_STREAM_SHIFT);
    vec4 p = texelFetch(pos_tex, texel, 0);
    vec3 v = has_vel != 0 ? texelFetch(vel_tex, texel, 0).xyz : vec3(0.0);
#else
    vec4 p = pos_in;
    vec3 v = has_vel != 0 ? vec3(vel_in.xyz) : vec3(0.0);
#endif
    gl_Position = view_proj * vec4(p.xyz, 1.0);
    float t = 0.5;
    if (color_mode == 0)
        t = (length(v) - value_range.x) / (value_range.y - value_range.x);
    else if (color_mode == 1)
        t = (value_in - value_range.x) / (value_range.y - value_range.x);
    color = (color_mode == 2 ? type_colors[type_in & 7] : ramp(t)) * brightness;
    float r = size_by_type != 0 ? radius * (type_in == 0 ? 1.0 : 0.8)
                                : radius * pow(max(p.w, 0.0) / mean_mass, 1.0 / 3.0);
    float w = max(gl_Position.w, 1e-6);
    gl_PointSize = clamp(2.0 * r * pixels_per_unit / w, 2.0, 64.0);
}
