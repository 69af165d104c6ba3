/* render_lines.vert - the edges of a periodic box, as a line list. */
NB_LOCATION(0) uniform mat4 view_proj;
layout(location = 0) in vec3 corner;

void main()
{
    gl_Position = view_proj * vec4(corner, 1.0);
}
