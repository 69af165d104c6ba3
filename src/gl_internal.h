/* gl_internal.h - state shared by the files of the GL layer (not public). */
#ifndef NB_GL_INTERNAL_H
#define NB_GL_INTERNAL_H

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include "nb_config.h"
#include "nb_gl.h"

/* A program built once and kept for the life of the context. */
struct nb_gl_cached_program {
    const char *name;       /* the catalogue's string */
    GLuint program;
};

struct nb_gl {
    EGLDisplay display;
    EGLContext context;
    char renderer[512];
    int nvidia;
    int use_spirv;          /* shaders come from spirv/ */
    char *shader_dir;
    struct nb_gl_cached_program *programs;
    size_t program_count;
};

/* What the automatic variant choice needs of a pipeline. */
struct nb_gl_tunable {
    void *state;
    const char *const *candidates;      /* variant names, NULL-terminated */
    enum nb_status (*set_variant)(void *state, const char *name,
                                  struct nb_error *err);
    /* One evaluation, timed; its seconds come back through seconds(). */
    enum nb_status (*run)(void *state, float eps2, struct nb_error *err);
    double (*seconds)(void *state);
    double probe_limit;                 /* seconds; see nb_gl_evaluate */
};

/* Whether a pipeline chooses its variant itself ("auto"), and for which
 * particle count it last chose. */
struct nb_gl_choice {
    int automatic;
    size_t chosen_for;
};

/* One evaluation of n particles.  Under "auto", when n is new: one
 * evaluation with the current variant; if it took longer than probe_limit
 * it stands (probing would cost more than it saves), otherwise every
 * candidate runs once to build its program and once timed, and the fastest
 * is set and evaluated. */
enum nb_status nb_gl_evaluate(const struct nb_gl_tunable *t, struct nb_gl_choice *choice,
                              size_t n, float eps2, struct nb_error *err);

/* Converts n particles to (x, y, z, m) float quadruples. */
void nb_gl_pack_particles(float *dst, size_t n, const double *x, const double *m);

/* Deletes every cached program (the context must be current). */
void nb_gl_programs_release(struct nb_gl *gl);

#endif
