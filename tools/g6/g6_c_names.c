/* g6_c_names.c - the C names of the GRAPE-6 interface (g6_open, ...,
 * with g6gl.h's prototypes) over a library that exports only the Fortran
 * ones (g6_open_, ..., every argument by reference).  Sapporo2 is such a
 * library: its interfaces/sapporoG6lib.cpp defines only the underscore
 * names, and its test codes get the C names from wrappers written in a
 * C++ header.  tools/bench/sapporo2.sh links tools/g6/g6_bench.c with this
 * file and Sapporo2's library, so that the same benchmark, unchanged,
 * measures both libg6gl and Sapporo2.  Never linked with libg6gl, which
 * has both kinds of names itself.
 *
 * Sapporo2 declares g6calc_firsthalf_ void: the C name returns 0 after it,
 * as it cannot report a failure (Sapporo2 aborts instead). */

/* The Fortran names, with the return types Sapporo2 gives them. */
int g6_open_(int *cluster_id);
int g6_close_(int *cluster_id);
int g6_npipes_(void);
int g6_set_tunit_(double *tunit);
int g6_set_xunit_(double *xunit);
int g6_set_ti_(int *cluster_id, double *ti);
int g6_set_j_particle_(int *cluster_id, int *address, int *index, double *tj, double *dtj,
                       double *mass, double k18[3], double j6[3], double a2[3],
                       double v[3], double x[3]);
void g6calc_firsthalf_(int *cluster_id, int *nj, int *ni, int index[], double xi[][3],
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
int g6_read_neighbour_list_(int *cluster_id);
int g6_get_neighbour_list_(int *cluster_id, int *ipipe, int *maxlength, int *n_neighbours,
                           int neighbour_list[]);

/* The C names, as g6gl.h declares them (not included here: it declares
 * g6calc_firsthalf_ returning int). */
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
int g6_read_neighbour_list(int cluster_id);
int g6_get_neighbour_list(int cluster_id, int ipipe, int maxlength, int *n_neighbours,
                          int neighbour_list[]);

int g6_open(int cluster_id) { return g6_open_(&cluster_id); }
int g6_close(int cluster_id) { return g6_close_(&cluster_id); }
int g6_npipes(void) { return g6_npipes_(); }
int g6_set_tunit(double tunit) { return g6_set_tunit_(&tunit); }
int g6_set_xunit(double xunit) { return g6_set_xunit_(&xunit); }
int g6_set_ti(int cluster_id, double ti) { return g6_set_ti_(&cluster_id, &ti); }

int g6_set_j_particle(int cluster_id, int address, int index, double tj, double dtj,
                      double mass, double k18[3], double j6[3], double a2[3],
                      double v[3], double x[3])
{
    return g6_set_j_particle_(&cluster_id, &address, &index, &tj, &dtj, &mass, k18, j6, a2,
                              v, x);
}

int g6calc_firsthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                     double vi[][3], double aold[][3], double j6old[][3],
                     double phiold[], double eps2, double h2[])
{
    g6calc_firsthalf_(&cluster_id, &nj, &ni, index, xi, vi, aold, j6old, phiold, &eps2, h2);
    return 0;
}

int g6calc_lasthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                    double vi[][3], double eps2, double h2[], double acc[][3],
                    double jerk[][3], double pot[])
{
    return g6calc_lasthalf_(&cluster_id, &nj, &ni, index, xi, vi, &eps2, h2, acc, jerk, pot);
}

int g6calc_lasthalf2(int cluster_id, int nj, int ni, int index[], double xi[][3],
                     double vi[][3], double eps2, double h2[], double acc[][3],
                     double jerk[][3], double pot[], int nnbindex[])
{
    return g6calc_lasthalf2_(&cluster_id, &nj, &ni, index, xi, vi, &eps2, h2, acc, jerk, pot,
                             nnbindex);
}

int g6_initialize_jp_buffer(int cluster_id, int buf_size)
{
    return g6_initialize_jp_buffer_(&cluster_id, &buf_size);
}

int g6_flush_jp_buffer(int cluster_id) { return g6_flush_jp_buffer_(&cluster_id); }
int g6_reset(int cluster_id) { return g6_reset_(&cluster_id); }
int g6_read_neighbour_list(int cluster_id) { return g6_read_neighbour_list_(&cluster_id); }

int g6_get_neighbour_list(int cluster_id, int ipipe, int maxlength, int *n_neighbours,
                          int neighbour_list[])
{
    return g6_get_neighbour_list_(&cluster_id, &ipipe, &maxlength, n_neighbours,
                                  neighbour_list);
}
