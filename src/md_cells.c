/* md_cells.c - cell lists on the compute pipeline (glsl/md_cells.comp),
 * rebuilt on the device from the float positions before each force pass:
 * hash each particle to its cell, scan the counts, place, sort and gather
 * the particles cell by cell.  One build serves the compute MD engine
 * (md_compute.c) and the precision kernels' cell-list path
 * (md_precision.c), so that both walk the same cells. */
#include <math.h>

#include "gl_internal.h"

/* Dispatch limit: 65535 work groups along x. */
#define MD_CELLS_MAX ((size_t)65535 * NB_GL_MD_GROUP)

enum nb_status nb_gl_md_cells_geometry(struct nb_gl_md_cells *g, const struct nb_md_system *sys,
                                       const char *who, struct nb_error *err)
{
    const struct nb_md_box *box = sys->box;
    double rc = sys->pot->cutoff;
    g->n = sys->n;
    g->total = 1;
    for (int a = 0; a < 3; a++) {
        double len = box->hi[a] - box->lo[a];
        g->periodic[a] = box->periodic[a] != 0;
        g->lo[a] = (float)box->lo[a];
        g->cells[a] = 1;
        if (sys->cell_list) {
            double k = floor(len / rc);
            g->cells[a] = k < 1 ? 1 : k > 65535 ? 65535 : (int)k;
        }
        g->inv[a] = (float)(g->cells[a] / len);
        g->total *= (size_t)g->cells[a];
    }
    if (g->total > MD_CELLS_MAX)
        return nb_error_set(err, NB_ERR_LIMIT, "%s: %zu cells exceed the dispatch limit "
                            "of %zu; use a larger cutoff or fewer cells", who, g->total,
                            MD_CELLS_MAX);
    return NB_OK;
}

static void clear_ints(GLuint buf, size_t count)
{
    const GLint zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32I, 0, (GLsizeiptr)(4 * count),
                         GL_RED_INTEGER, GL_INT, &zero);
}

static const char *const cell_passes[] = {
    "md_cell_hash", "md_cell_scan", "md_cell_place", "md_cell_sort", "md_cell_gather"
};

enum nb_status nb_gl_md_cells_programs(struct nb_gl *gl, struct nb_error *err)
{
    GLuint prog;
    for (size_t k = 0; k < sizeof cell_passes / sizeof *cell_passes; k++)
        if (nb_gl_program(gl, cell_passes[k], &prog, err) != NB_OK)
            return err->status;
    return NB_OK;
}

/* Hash, scan, place, sort, gather (md_cells.comp).  Each pass is given
 * only the uniforms it uses: SPIR-V programs drop the others, and setting
 * a dropped location is an error. */
void nb_gl_md_cells_build(struct nb_gl *gl, const struct nb_gl_md_cells *g, GLuint count,
                          GLuint fill)
{
    int n = (int)g->n, cells = (int)g->total;
    clear_ints(count, g->total);
    clear_ints(fill, g->total);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    nb_gl_use_program(gl, cell_passes[0]);
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), n);
    glUniform3f(nb_gl_loc(NB_LOC_MD_LO), g->lo[0], g->lo[1], g->lo[2]);
    glUniform3f(nb_gl_loc(NB_LOC_MD_CELL_INV), g->inv[0], g->inv[1], g->inv[2]);
    glUniform3i(nb_gl_loc(NB_LOC_MD_CELLS), g->cells[0], g->cells[1], g->cells[2]);
    nb_gl_dispatch(g->n, NB_GL_MD_GROUP);
    nb_gl_use_program(gl, cell_passes[1]);
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), cells);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    nb_gl_use_program(gl, cell_passes[2]);
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), n);
    nb_gl_dispatch(g->n, NB_GL_MD_GROUP);
    nb_gl_use_program(gl, cell_passes[3]);
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), cells);
    nb_gl_dispatch(g->total, NB_GL_MD_GROUP);
    nb_gl_use_program(gl, cell_passes[4]);
    glUniform1i(nb_gl_loc(NB_LOC_MD_COUNT), n);
    nb_gl_dispatch(g->n, NB_GL_MD_GROUP);
}

void nb_gl_md_cells_set_uniforms(const struct nb_gl_md_cells *g, uint64_t active)
{
    if (active >> NB_LOC_MD_CELLS & 1)
        glUniform3i(nb_gl_loc(NB_LOC_MD_CELLS), g->cells[0], g->cells[1], g->cells[2]);
    if (active >> NB_LOC_MD_PERIODIC & 1)
        glUniform3i(nb_gl_loc(NB_LOC_MD_PERIODIC), g->periodic[0], g->periodic[1], g->periodic[2]);
}
