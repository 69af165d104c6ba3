/* render_lines.frag - one colour for every line. */
NB_LOCATION(1) uniform vec4 line_color;
layout(location = 0) out vec4 frag;

void main()
{
    frag = line_color;
}
