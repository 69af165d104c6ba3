/* render_points.frag - a round sprite with a Gaussian fall-off, added to
 * what is there (additive blending: dense regions glow). */
NB_VARYING(0) in vec3 color;
layout(location = 0) out vec4 frag;

void main()
{
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(d, d);
    if (r2 > 1.0)
        discard;
    frag = vec4(color * exp(-3.0 * r2), 1.0);
}
