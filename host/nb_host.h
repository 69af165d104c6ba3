/* nb_host.h - the host layer of glnbody: everything on the CPU, one
 * header a concept, all included here.
 *
 *   nb_base.h     errors, particles, random numbers, output files, clock
 *   nb_files.h    the text reader and snapshot files
 *   nb_forces.h   CPU reference forces, accuracy, the force-backend vtable
 *   nb_hermite.h  Plummer spheres, Hermite block steps, diagnostics
 *   nb_md.h       MD force laws, coefficients, boxes, CPU forces
 *   nb_md_run.h   MD engines, velocity Verlet runs, lattices and files
 *
 * No OpenGL type appears here; the GPU backends live in src/ behind the
 * same vtables.  Every public symbol starts with nb_.
 */
#ifndef NB_HOST_H
#define NB_HOST_H

#include "nb_base.h"
#include "nb_files.h"
#include "nb_forces.h"
#include "nb_hermite.h"
#include "nb_md.h"
#include "nb_md_run.h"

#endif
