/* render_image.frag - the overlay's texels, blended by their alpha. */
NB_BINDING(0) uniform sampler2D image;
NB_VARYING(0) in vec2 uv;
layout(location = 0) out vec4 frag;

void main()
{
    frag = texture(image, uv);
}
