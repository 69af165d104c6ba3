/* g6gl.h - the GRAPE-6 interface of libg6gl: glnbody's OpenGL force
 * engine behind the calls that stellar-dynamics codes (phiGRAPE, ph4 of
 * AMUSE, Starlab's kira, NBODY4) make to GRAPE-6 (Makino et al. 2003) and
 * to Sapporo2 (Gaburov et al. 2009; Bedorf et al. 2015).  Link with
 * -lg6gl instead of -lg6 or -lsapporo (pkg-config g6gl).
 *
 * Semantics are Sapporo2's where it and the GRAPE-6 user's guide differ,
 * since existing codes are tested against it:
 *  - one j-memory whatever the cluster id; the id picks the EGL device
 *    (cluster id k: device k, as nb_gl_options.device) at g6_open;
 *  - g6_set_j_particle queues (a later put of an address replaces an
 *    earlier one); the queue goes to the GPU with the next
 *    g6calc_firsthalf.  The device predicts every address below nj to
 *    the time of g6_set_ti with x + v dt + a2 dt^2 + j6 dt^3 (Sapporo2's
 *    fourth-order predictor: k18 and dtj are accepted and not used);
 *  - eps2 is one value for every pair; the pairs whose j-index (the
 *    `index` of g6_set_j_particle) equals the i-particle's index[] are
 *    left out; the potential is -sum m / sqrt(r^2 + eps2);
 *  - g6calc_firsthalf starts the GPU and returns before the forces are
 *    done (its aold, j6old and phiold, each i-particle's last
 *    acceleration, jerk and potential, set mode H's range for it, as on
 *    GRAPE-6; NULL or 0: the range is found from a first result);
 *    g6calc_lasthalf waits and returns them; lasthalf2 also returns
 *    the index of each i-particle's nearest j-particle (unsoftened, self
 *    excluded; 0 where there is none, as in Sapporo2);
 *  - g6_read_neighbour_list finds, for the i-particles of the last block,
 *    the j-particles with r^2 < h2[i] (at most 256 each, Sapporo2's
 *    room; returns 1 when a list was longer); g6_get_neighbour_list
 *    copies one, ascending, and returns 1 when it has maxlength or more;
 *  - no-ops, which return 0 and do nothing (as in Sapporo2): g6_set_tunit,
 *    g6_set_xunit, g6_initialize_jp_buffer, g6_flush_jp_buffer, g6_reset
 *    and g6_reset_fofpga, and their Fortran names;
 *  - g6_open_special(ndev, list), Sapporo2's, opens list[0] (0 without a
 *    list): one device, as every cluster id shares one j-memory;
 *  - the Fortran names take a NULL cluster id as cluster 0, and ignore the
 *    arguments they do not use (tunit, xunit, dtj, k18, buf_size), which
 *    may be NULL too; another NULL scalar is refused (G6GL_ERROR).
 * The calls are those of Sapporo2's interfaces/sapporoG6lib.cpp but its
 * get_j_part_data (a read-back of one j-particle, Sapporo2's own).
 * A client may define the C names itself over the Fortran ones, as
 * Sapporo2's test codes do: the library never calls its own exported
 * names, and its C names are weak, so the client's definitions win both
 * with libg6gl.so and with libg6gl.a.
 * Where this library differs from both: every call returns an int status
 * (GRAPE-6's convention; Sapporo2 declares some void) and never aborts:
 * 0 is success, and a bad call (before g6_open, a j-address out of range,
 * ni above g6_npipes(), lasthalf without firsthalf or with another ni
 * than its firsthalf, a time, eps2 or coordinate that is not finite,
 * forces that come out not finite, a GL failure) prints
 * one line "g6gl: FUNCTION: cause" on stderr and returns G6GL_ERROR
 * (-1); Sapporo2 asserts on ni > npipes.
 *
 * Environment:
 *   GLNBODY_G6_PRECISION  A (default) .. H: glnbody's accumulation modes
 *                         (Narumi et al. Table 1, and H); A sums float
 *                         terms in float 64 at a time and adds those
 *                         sums as double-single pairs.  GRAPE-6's own
 *                         pipelines summed forces in 64-bit fixed point
 *                         (Makino et al. 2003): mode H does the same, exact
 *                         and independent of the order of the sums, each
 *                         i-particle's range set, as there, from its last
 *                         values (aold, j6old, phiold), else from a first
 *                         result, and the block computed again where a
 *                         sum leaves it: forces, jerks and potentials
 *                         within 6.3e-7 of the sum of |terms| at eps2 =
 *                         1e-8 and 1e-12 (N = 4096, llvmpipe), the float
 *                         pair term's own rounding.  Mode F rounds each
 *                         term to 2^-27 of a range set by a bound on the
 *                         block's sums.
 *   GLNBODY_G6_POSITIONS  ds (default), float or fixed64: how x_j - x_i and
 *                         v_j - v_i are formed in every mode but G (whose
 *                         pair terms are double).  ds: each position and
 *                         velocity a double-single pair of floats (as
 *                         Sapporo2; Gaburov, Harfst & Portegies Zwart
 *                         2009), ~48 bits of |x| in the difference however
 *                         close the pair.  float: rounded to float first,
 *                         fewer operations a pair, but a pair of
 *                         separation r errs by ~6e-8 |x| / r.  Largest
 *                         error of any particle, force and jerk, over the
 *                         sum of |pair terms| (mode A, N = 4096, llvmpipe,
 *                         tests/check_g6_accuracy): ds 3.7e-7 and 8e-7 on
 *                         every system tested; float 5e-6 and 1.2e-5 on a
 *                         uniform sphere, 5e-3 and 4e-3 with a binary of
 *                         separation 1e-5 at |x| = 1, 3e-2 and 7e-2 for a
 *                         pair 1e-4 apart at |x| = 54.  fixed64: GRAPE-6's
 *                         own format (Makino et al. 2003), int64 in units
 *                         of 2^-48, |x| up to 2^14 (clamped there), x_j -
 *                         x_i exact, velocities double-single; needs
 *                         GL_ARB_gpu_shader_int64 (no OpenGL ES); on the
 *                         same tests within 3.3e-7 and 7.3e-7.  The
 *                         library call is nb_forces_set_positions
 *                         (glnbody.h).
 *   GLNBODY_G6_JMAX       the most j-addresses (default 4194304).
 *   GLNBODY_G6_NPIPES     the block size g6_npipes reports (default the
 *                         engine's, 16384; at most that).
 *   GLNBODY_G6_STATS=1    g6_close prints the blocks, the wall seconds
 *                         spent in the calls and the device seconds of
 *                         the force passes (GL timer queries) on stderr.
 *                         It reads the clock around every call, which
 *                         costs g6_set_j_particle more than its own work:
 *                         time a code without it.
 * The Fortran names (g6_open_, ...) take every argument by reference. */
#ifndef G6GL_H
#define G6GL_H

#ifdef __cplusplus
extern "C" {
#endif

#define G6GL_ERROR (-1)

int g6_open(int cluster_id);
int g6_close(int cluster_id);
int g6_npipes(void);
int g6_set_tunit(double tunit);
int g6_set_xunit(double xunit);
int g6_set_ti(int cluster_id, double ti);
int g6_set_j_particle(int cluster_id, int address, int index, double tj, double dtj,
                      double mass, double k18[3], double j6[3], double a2[3],
                      double v[3], double x[3]);
int g6calc_firsthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                     double vi[][3], double aold[][3], double j6old[][3],
                     double phiold[], double eps2, double h2[]);
int g6calc_lasthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                    double vi[][3], double eps2, double h2[], double acc[][3],
                    double jerk[][3], double pot[]);
int g6calc_lasthalf2(int cluster_id, int nj, int ni, int index[], double xi[][3],
                     double vi[][3], double eps2, double h2[], double acc[][3],
                     double jerk[][3], double pot[], int nnbindex[]);
int g6_initialize_jp_buffer(int cluster_id, int buf_size);
int g6_flush_jp_buffer(int cluster_id);
int g6_reset(int cluster_id);
int g6_reset_fofpga(int cluster_id);
int g6_open_special(int ndev, int *list);
int g6_read_neighbour_list(int cluster_id);
int g6_get_neighbour_list(int cluster_id, int ipipe, int maxlength, int *n_neighbours,
                          int neighbour_list[]);

/* The same with every argument by reference (Fortran). */
int g6_open_(int *cluster_id);
int g6_close_(int *cluster_id);
int g6_npipes_(void);
int g6_set_tunit_(double *tunit);
int g6_set_xunit_(double *xunit);
int g6_set_ti_(int *cluster_id, double *ti);
int g6_set_j_particle_(int *cluster_id, int *address, int *index, double *tj, double *dtj,
                       double *mass, double k18[3], double j6[3], double a2[3],
                       double v[3], double x[3]);
int g6calc_firsthalf_(int *cluster_id, int *nj, int *ni, int index[], double xi[][3],
                      double vi[][3], double aold[][3], double j6old[][3],
                      double phiold[], double *eps2, double h2[]);
int g6calc_lasthalf_(int *cluster_id, int *nj, int *ni, int index[], double xi[][3],
                     double vi[][3], double *eps2, double h2[], double acc[][3],
                     double jerk[][3], double pot[]);
int g6calc_lasthalf2_(int *cluster_id, int *nj, int *ni, int index[], double xi[][3],
                      double vi[][3], double *eps2, double h2[], double acc[][3],
                      double jerk[][3], double pot[], int nnbindex[]);
int g6_initialize_jp_buffer_(int *cluster_id, int *buf_size);
int g6_flush_jp_buffer_(int *cluster_id);
int g6_reset_(int *cluster_id);
int g6_reset_fofpga_(int *cluster_id);
int g6_read_neighbour_list_(int *cluster_id);
int g6_get_neighbour_list_(int *cluster_id, int *ipipe, int *maxlength, int *n_neighbours,
                           int neighbour_list[]);

#ifdef __cplusplus
}
#endif

#endif
