/* loop_uniform_probe.h - whether the current context's driver runs a
 * compute kernel with a stale value of a uniform that bounds a loop.
 * Zink in Mesa 22.3 does: once another program has run in between, a
 * kernel looping `k < n` sees the first n it ever had, whatever
 * glUniform1i (and glGetUniformiv) say since.  The kernels of the
 * precision and triangular suites take every loop bound from uniforms,
 * so on such a driver they fail for the driver's reason; those suites
 * skip, naming it.  The probe is three small programs of its own, none of
 * the library's code.  Header-only; the suite defines
 * NB_SUITE_LOOP_UNIFORM_PROBE before including gl_suite.h. */
#ifndef NB_TEST_LOOP_UNIFORM_PROBE_H
#define NB_TEST_LOOP_UNIFORM_PROBE_H

#include <epoxy/gl.h>

#define LOOP_PROBE_HEAD                                                       \
    "#version 430\nlayout(local_size_x = 64) in;\n"                           \
    "layout(location = 1) uniform int n;\n"                                   \
    "layout(location = 2) uniform vec4 law;\n"                                \
    "layout(std430, binding = 0) readonly buffer P { vec4 pos[]; };\n"

static const char *const loop_probe_sources[2] = {
    /* stores n after a loop bounded by it */
    LOOP_PROBE_HEAD
    "layout(std430, binding = 1) writeonly buffer O { int o[]; };\n"
    "void main() { float acc = 0.0;\n"
    "  for (int k = 0; k < n; k++) acc += dot(pos[k], law);\n"
    "  if (gl_GlobalInvocationID.x == 0u) o[0] = acc > -1.0 ? n : -n; }\n",
    /* another program of the same uniforms */
    LOOP_PROBE_HEAD
    "layout(std430, binding = 1) writeonly buffer O { vec4 o[]; };\n"
    "void main() { int i = int(gl_GlobalInvocationID.x); vec4 acc = vec4(0.0);\n"
    "  for (int k = 0; k < n; k++) acc += pos[k] * law;\n"
    "  if (i < n) o[i] = acc; }\n",
};

static GLuint loop_probe_program(const char *src)
{
    GLuint s = glCreateShader(GL_COMPUTE_SHADER), p = glCreateProgram();
    GLint ok = 0;
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    glAttachShader(p, s);
    glLinkProgram(p);
    glDeleteShader(s);
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

/* 1 where the first program, run for n = 1, 2, 3 with the other program
 * between its runs, stores an n other than the one set; 0 where it stores
 * each, or where the context has no compute shaders (GL below 4.3).
 * *seen gets the first wrong value. */
static int loop_uniform_stale(int *seen)
{
    static float pos[4 * 4] = { 0.5f, 0.25f, 0.125f, 1.0f, 0.5f, 0.25f, 0.125f, 1.0f,
                                0.5f, 0.25f, 0.125f, 1.0f, 0.5f, 0.25f, 0.125f, 1.0f };
    GLuint prog[2], buf[2];
    int stale = 0;
    if (!epoxy_is_desktop_gl() || epoxy_gl_version() < 43)
        return 0;
    prog[0] = loop_probe_program(loop_probe_sources[0]);
    prog[1] = loop_probe_program(loop_probe_sources[1]);
    glGenBuffers(2, buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[0]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof pos, pos, GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[1]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 64, NULL, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf[0]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    for (int n = 1; prog[0] && prog[1] && n <= 3 && !stale; n++)
        for (int round = 0; round < 2 && !stale; round++)
            for (int p = 0; p < 2; p++) {
                int got = 0;
                glUseProgram(prog[p]);
                glUniform1i(1, n);
                glUniform4f(2, 1.0f, 1.0f, 1.0f, 0.0f);
                glDispatchCompute(1, 1, 1);
                glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
                if (p != 0)
                    continue;
                glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof got, &got);
                if (got != n) {
                    *seen = got;
                    stale = n;
                }
            }
    glUseProgram(0);
    glDeleteBuffers(2, buf);
    glDeleteProgram(prog[0]);
    glDeleteProgram(prog[1]);
    while (glGetError() != GL_NO_ERROR) {
    }
    return stale;
}

#endif
