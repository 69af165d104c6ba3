/* fullscreen.vert - one triangle that covers the viewport, so that every
 * texel of the render targets runs the fragment kernel once. */
void main()
{
    vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
