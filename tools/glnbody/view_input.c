/* view_input.c - the viewer's mouse and keys: orbit (left drag), pan
 * (right drag, or shift and left drag), zoom (wheel), and the keys that
 * `h` lists. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>

#include "view_internal.h"

#define PI 3.14159265358979323846

static const char keys_help[] =
    "glnbody view keys:\n"
    "  left drag         orbit the camera about its centre\n"
    "  right drag        pan (also shift + left drag)\n"
    "  wheel             zoom\n"
    "  space             pause / go on\n"
    "  n or .            one frame's worth of steps (while paused)\n"
    "  + or =            faster: twice the time (md: steps) per frame\n"
    "  -                 slower: half the time (md: steps) per frame\n"
    "  c                 cycle the colours: speed, potential (md), type\n"
    "  i                 the texture inspector: the last force pass's render\n"
    "                    targets (fragment) or output buffers (compute)\n"
    "  r                 reset the camera\n"
    "  h                 this list\n"
    "  q or Esc          quit\n";

static struct view *view_of(GLFWwindow *w)
{
    return glfwGetWindowUserPointer(w);
}

/* The camera as drawn (a fitted one made explicit), changed by change. */
static void change_camera(struct view *v, void (*change)(struct nb_camera *, double, double,
                                                         int), double dx, double dy)
{
    struct nb_render_options o;
    struct nb_error err;
    nb_render_get_options(v->render, &o);
    if (o.camera.distance == 0)
        return;                     /* nothing drawn yet */
    change(&o.camera, dx, dy, o.height);
    nb_render_set_options(v->render, &o, &err);
}

static void orbit(struct nb_camera *c, double dx, double dy, int height)
{
    (void)height;
    c->azimuth = fmod(c->azimuth - 0.3 * dx, 360.0);
    c->elevation = fmax(-89.0, fmin(89.0, c->elevation + 0.3 * dy));
}

/* Moves the centre in the view plane by the mouse's pixels at the
 * centre's depth. */
static void pan(struct nb_camera *c, double dx, double dy, int height)
{
    double az = c->azimuth * PI / 180, el = c->elevation * PI / 180;
    double right[3] = { cos(az), 0, -sin(az) };
    double up[3] = { -sin(el) * sin(az), cos(el), -sin(el) * cos(az) };
    double scale = 2 * c->distance * tan(0.5 * c->fov * PI / 180) / height;
    for (int a = 0; a < 3; a++)
        c->center[a] += scale * (-dx * right[a] + dy * up[a]);
}

static void zoom(struct nb_camera *c, double dx, double dy, int height)
{
    (void)dx;
    (void)height;
    c->distance *= pow(0.9, dy);
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    struct view *v = view_of(w);
    if (action == GLFW_RELEASE) {
        v->dragging = 0;
        return;
    }
    glfwGetCursorPos(w, &v->last_x, &v->last_y);
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        v->dragging = (mods & GLFW_MOD_SHIFT) ? 2 : 1;
    else if (button == GLFW_MOUSE_BUTTON_RIGHT)
        v->dragging = 2;
}

static void on_cursor(GLFWwindow *w, double x, double y)
{
    struct view *v = view_of(w);
    double dx = x - v->last_x, dy = y - v->last_y;
    v->last_x = x;
    v->last_y = y;
    if (v->dragging)
        change_camera(v, v->dragging == 1 ? orbit : pan, dx, dy);
}

static void on_scroll(GLFWwindow *w, double dx, double dy)
{
    change_camera(view_of(w), zoom, dx, dy);
}

static void cycle_color(struct view *v)
{
    struct nb_render_options o;
    struct nb_error err;
    nb_render_get_options(v->render, &o);
    o.color = (enum nb_render_color)((o.color + 1) % NB_COLOR_COUNT);
    if (o.color == NB_COLOR_POTENTIAL && !v->md)    /* a Hermite run has none */
        o.color = NB_COLOR_TYPE;
    nb_render_set_options(v->render, &o, &err);
}

/* Back to the first camera, in the window's present size. */
static void reset_camera(struct view *v)
{
    struct nb_render_options o;
    struct nb_error err;
    nb_render_get_options(v->render, &o);
    o.camera = v->home.camera;
    nb_render_set_options(v->render, &o, &err);
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    struct view *v = view_of(w);
    (void)scancode;
    (void)mods;
    if (action == GLFW_RELEASE)
        return;
    switch (key) {
    case GLFW_KEY_SPACE: v->paused = !v->paused; break;
    case GLFW_KEY_N: case GLFW_KEY_PERIOD: v->step_once = 1; break;
    case GLFW_KEY_EQUAL: case GLFW_KEY_KP_ADD: v->speed = fmin(v->speed * 2, 1 << 20); break;
    case GLFW_KEY_MINUS: case GLFW_KEY_KP_SUBTRACT:
        v->speed = fmax(v->speed / 2, 1.0 / (1 << 20));
        break;
    case GLFW_KEY_C: cycle_color(v); break;
    case GLFW_KEY_I: v->inspect = !v->inspect; break;
    case GLFW_KEY_R: reset_camera(v); break;
    case GLFW_KEY_H:
        fputs(keys_help, stdout);
        fflush(stdout);
        break;
    case GLFW_KEY_Q: case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
    default: break;
    }
}

void view_input_attach(struct view *v)
{
    glfwSetWindowUserPointer(v->window, v);
    glfwSetKeyCallback(v->window, on_key);
    glfwSetMouseButtonCallback(v->window, on_button);
    glfwSetCursorPosCallback(v->window, on_cursor);
    glfwSetScrollCallback(v->window, on_scroll);
}
