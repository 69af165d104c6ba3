/* render_image.vert - a rectangle (two triangles from gl_VertexID 0..5)
 * at rect = (x0, y0, x1, y1) in clip coordinates, for overlays. */
NB_LOCATION(0) uniform vec4 rect;
NB_VARYING(0) out vec2 uv;

void main()
{
    const vec2 corners[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1),
                                    vec2(1, 0), vec2(1, 1), vec2(0, 1));
    vec2 c = corners[gl_VertexID];
    uv = vec2(c.x, 1.0 - c.y);      /* the image's rows are top first */
    gl_Position = vec4(mix(rect.xy, rect.zw, c), 0.0, 1.0);
}
