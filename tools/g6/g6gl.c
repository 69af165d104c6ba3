/* g6gl.c - libg6gl: the GRAPE-6 interface (g6gl.h) on glnbody's public
 * API alone (glnbody.h: a context, a compute force engine and its
 * j-memory block steps).  The interface is global, as GRAPE-6's was: one
 * open device per process. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g6gl.h"
#include "glnbody.h"

#define DEFAULT_JMAX 4194304
#define NEIGHBOUR_ROOM 256          /* Sapporo2's NGB_PB */

static struct {
    struct nb_gl *gl;
    struct nb_forces *f;
    int npipes;
    size_t jmax, capacity;
    double ti;
    int started;                /* a firsthalf awaits its lasthalf */
    int started_ni;             /* of that block */
    int want_nearest;           /* the caller's last lasthalf was lasthalf2 */
    unsigned flags;             /* of the block started */
    int finished_ni;            /* i-particles of the last finished block, -1: none */
    int listed_ni;              /* of the last g6_read_neighbour_list, -1: none */
    uint32_t *count;
    int32_t *list;
    int32_t *nearest;
    /* The block's aold, jold and phiold (3, 3 and 1 a pipe, from old_j and
     * old_phi on), kept for a block that runs again in lasthalf; only
     * where the mode uses them (use_old: mode H). */
    double *old, *old_j, *old_phi;
    int use_old;
    /* GLNBODY_G6_STATS: wall seconds in the calls, the device seconds of
     * the blocks (GL timer queries), blocks and i-particles, reported on
     * stderr by g6_close. */
    int stats;
    double wall_set_j, wall_first, wall_last, device;
    long blocks, particles;
    struct nb_error put_error;  /* a refused g6_set_j_particle's */
} g6 = { .finished_ni = -1, .listed_ni = -1 };

/* One line on stderr; the status every failing call returns. */
static int fail(const char *func, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "g6gl: %s: ", func);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return G6GL_ERROR;
}

static int fail_nb(const char *func, const struct nb_error *e)
{
    return fail(func, "%s", e->message);
}

static int need_open(const char *func)
{
    return g6.f ? 0 : fail(func, "the device is not open (call g6_open first)");
}

static long env_long(const char *name, long fallback)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return fallback;
    long v = strtol(s, &end, 10);
    return *end || v <= 0 ? -1 : v;
}

/* GLNBODY_G6_PRECISION: A..H (either case), A when unset. */
static int env_precision(enum nb_precision *mode)
{
    const char *s = getenv("GLNBODY_G6_PRECISION");
    *mode = NB_PRECISION_A;
    if (!s || !*s)
        return 0;
    char c = (char)(s[0] & ~0x20);
    if (s[1] || c < 'A' || c >= 'A' + NB_PRECISION_COUNT)
        return fail("g6_open", "GLNBODY_G6_PRECISION=%s: not one of A..H", s);
    *mode = (enum nb_precision)(c - 'A');
    return 0;
}

/* GLNBODY_G6_POSITIONS: ds (default), float or fixed64. */
static int env_positions(enum nb_positions *format)
{
    const char *s = getenv("GLNBODY_G6_POSITIONS");
    struct nb_error e = { 0 };
    *format = NB_POSITIONS_DS;
    if (!s || !*s || nb_positions_parse("GLNBODY_G6_POSITIONS", s, format, &e) == NB_OK)
        return 0;
    return fail("g6_open", "GLNBODY_G6_POSITIONS=%s: not ds, float or fixed64", s);
}

static void release(void)
{
    nb_forces_destroy(g6.f);
    nb_gl_destroy(g6.gl);
    free(g6.count);
    free(g6.list);
    free(g6.nearest);
    free(g6.old);
    g6.old = NULL;
    g6.f = NULL;
    g6.gl = NULL;
    g6.count = NULL;
    g6.list = NULL;
    g6.nearest = NULL;
}

static int open_device(int cluster_id)
{
    const char *func = "g6_open";
    struct nb_error e = { 0 };
    struct nb_gl_options opt;
    enum nb_precision mode;
    enum nb_positions positions;
    if (g6.f)
        return 0;               /* already open: Sapporo2 re-opens silently too */
    if (cluster_id < 0)
        return fail(func, "cluster id %d: must be >= 0 (it picks the EGL device)",
                    cluster_id);
    int devices = nb_gl_device_count();
    if (cluster_id > 0 && cluster_id >= devices)
        return fail(func, "cluster id %d: this machine has %d EGL device%s", cluster_id,
                    devices, devices == 1 ? "" : "s");
    long jmax = env_long("GLNBODY_G6_JMAX", DEFAULT_JMAX);
    long npipes = env_long("GLNBODY_G6_NPIPES", 0);
    if (jmax < 0)
        return fail(func, "GLNBODY_G6_JMAX=%s: not a positive count",
                    getenv("GLNBODY_G6_JMAX"));
    if (npipes < 0)
        return fail(func, "GLNBODY_G6_NPIPES=%s: not a positive count",
                    getenv("GLNBODY_G6_NPIPES"));
    if (env_precision(&mode) != 0 || env_positions(&positions) != 0)
        return G6GL_ERROR;
    nb_gl_options_default(&opt);
    opt.device = devices > 0 ? cluster_id : -1;
    if (nb_gl_create(&g6.gl, &opt, &e) != NB_OK ||
        nb_forces_create(&g6.f, g6.gl, NB_ENGINE_COMPUTE, &e) != NB_OK ||
        nb_forces_set_precision(g6.f, mode, &e) != NB_OK ||
        nb_forces_set_positions(g6.f, positions, &e) != NB_OK) {
        release();
        return fail_nb(func, &e);
    }
    size_t size = nb_forces_block_size(g6.f);
    g6.npipes = (int)(npipes > 0 && (size_t)npipes < size ? (size_t)npipes : size);
    g6.jmax = (size_t)jmax;
    g6.use_old = mode == NB_PRECISION_H;
    g6.capacity = 0;
    g6.started = 0;
    g6.finished_ni = g6.listed_ni = -1;
    g6.stats = getenv("GLNBODY_G6_STATS") && *getenv("GLNBODY_G6_STATS") &&
               strcmp(getenv("GLNBODY_G6_STATS"), "0") != 0;
    g6.wall_set_j = g6.wall_first = g6.wall_last = g6.device = 0;
    g6.blocks = g6.particles = 0;
    g6.count = calloc((size_t)g6.npipes, sizeof *g6.count);
    g6.list = calloc((size_t)g6.npipes * NEIGHBOUR_ROOM, sizeof *g6.list);
    g6.nearest = calloc((size_t)g6.npipes, sizeof *g6.nearest);
    g6.old = calloc(7 * (size_t)g6.npipes, sizeof *g6.old);
    g6.old_j = g6.old ? g6.old + 3 * (size_t)g6.npipes : NULL;
    g6.old_phi = g6.old ? g6.old + 6 * (size_t)g6.npipes : NULL;
    if (!g6.count || !g6.list || !g6.nearest || !g6.old) {
        release();
        return fail(func, "out of memory");
    }
    return 0;
}

static int close_device(int cluster_id)
{
    (void)cluster_id;
    if (need_open("g6_close"))
        return G6GL_ERROR;
    if (g6.stats)
        fprintf(stderr, "g6gl: %ld blocks, %ld i-particles: wall seconds in "
                "g6_set_j_particle %.4f, g6calc_firsthalf %.4f, g6calc_lasthalf %.4f; "
                "device seconds %.4f\n", g6.blocks, g6.particles, g6.wall_set_j,
                g6.wall_first, g6.wall_last, g6.device);
    release();
    return 0;
}

static int npipes(void)
{
    return g6.f ? g6.npipes : fail("g6_npipes", "the device is not open (call g6_open "
                                   "first)");
}

static int set_ti(int cluster_id, double ti)
{
    (void)cluster_id;
    if (need_open("g6_set_ti"))
        return G6GL_ERROR;
    if (!isfinite(ti))      /* refused here, not at the next firsthalf */
        return fail("g6_set_ti", "ti = %g: not finite", ti);
    g6.ti = ti;
    return 0;
}

/* Room for address: the j-memory doubles up to GLNBODY_G6_JMAX. */
static int make_room(const char *func, size_t address)
{
    if (address < g6.capacity)
        return 0;
    struct nb_error e = { 0 };  /* 1 KB cleared: only when it grows */
    size_t want = g6.capacity ? 2 * g6.capacity : 1024;
    while (want <= address)
        want *= 2;
    want = want > g6.jmax ? g6.jmax : want;
    if (nb_forces_jmem_reserve(g6.f, want, &e) != NB_OK)
        return fail_nb(func, &e);
    g6.capacity = want;
    return 0;
}

/* g6_set_j_particle with every test named, make_room and the clock of
 * GLNBODY_G6_STATS: the calls that the quick path below passes on. */
static __attribute__((noinline)) int
set_j_checked(int address, int index, double tj, double mass, double j6[3], double a2[3],
              double v[3], double x[3])
{
    const char *func = "g6_set_j_particle";
    if (need_open(func))
        return G6GL_ERROR;
    if (address < 0 || (size_t)address >= g6.jmax)
        return fail(func, "j-address %d out of range 0..%zu (GLNBODY_G6_JMAX)", address,
                    g6.jmax - 1);
    if (!j6 || !a2 || !v || !x)
        return fail(func, "a coefficient array is NULL");
    if ((size_t)address >= g6.capacity && make_room(func, (size_t)address))
        return G6GL_ERROR;
    double w = g6.stats ? nb_clock_seconds() : 0;
    /* the library checks it (finite, mass >= 0) and queues it until the
     * next firsthalf */
    if (nb_forces_jmem_put_one(g6.f, (uint32_t)address, index, tj, mass, x, v, a2, j6,
                               &g6.put_error) != NB_OK)
        return fail(func, "address %d: %s", address, g6.put_error.message);
    if (g6.stats)
        g6.wall_set_j += nb_clock_seconds() - w;
    return 0;
}

/* The quick path, one call a corrected particle: an address the j-memory
 * holds and no clock to read go straight to the library (its refusal into
 * g6's record: no 1 KB of stack a call), the rest to set_j_checked. */
static int set_j_particle(int cluster_id, int address, int index, double tj, double dtj,
                          double mass, double k18[3], double j6[3], double a2[3],
                          double v[3], double x[3])
{
    (void)cluster_id, (void)dtj, (void)k18;
    if (!g6.f || g6.stats || address < 0 || (size_t)address >= g6.capacity || !j6 || !a2 ||
        !v || !x)
        return set_j_checked(address, index, tj, mass, j6, a2, v, x);
    if (nb_forces_jmem_put_one(g6.f, (uint32_t)address, index, tj, mass, x, v, a2, j6,
                               &g6.put_error) != NB_OK)
        return fail("g6_set_j_particle", "address %d: %s", address, g6.put_error.message);
    return 0;
}

static int check_block(const char *func, int nj, int ni)
{
    if (need_open(func))
        return G6GL_ERROR;
    if (ni < 0 || ni > g6.npipes)
        return fail(func, "ni = %d: must be 0..g6_npipes() = %d (split the block)", ni,
                    g6.npipes);
    if (nj < 0 || (size_t)nj > g6.jmax)
        return fail(func, "nj = %d: must be 0..%zu (GLNBODY_G6_JMAX)", nj, g6.jmax);
    return 0;
}

static int start(const char *func, int nj, int ni, int index[], double xi[][3],
                 double vi[][3], double eps2, double h2[], unsigned flags)
{
    struct nb_error e = { 0 };
    if (make_room(func, nj > 0 ? (size_t)nj - 1 : 0))
        return G6GL_ERROR;
    if (ni > 0 && (!index || !xi || !vi))
        return fail(func, "index, xi or vi is NULL");
    if (g6.stats)               /* the device seconds it reports */
        flags |= NB_BLOCK_TIMED;
    if ((g6.use_old &&
         nb_forces_block_hint(g6.f, (size_t)ni, g6.old, g6.old_j, g6.old_phi, &e) != NB_OK) ||
        nb_forces_block_start(g6.f, (size_t)nj, g6.ti, eps2, (size_t)ni,
                              (const int32_t *)index, ni ? &xi[0][0] : NULL,
                              ni ? &vi[0][0] : NULL, h2, flags, &e) != NB_OK)
        return fail_nb(func, &e);
    g6.started = 1;
    g6.started_ni = ni;
    g6.flags = flags;
    g6.finished_ni = g6.listed_ni = -1;
    return 0;
}

static int firsthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                     double vi[][3], double aold[][3], double j6old[][3], double phiold[],
                     double eps2, double h2[])
{
    const char *func = "g6calc_firsthalf";
    (void)cluster_id;
    if (check_block(func, nj, ni))
        return G6GL_ERROR;
    /* mode H sets each i-particle's range from them, as GRAPE-6 did;
     * none given (NULL) leaves the bound's */
    size_t count = ni > 0 && g6.use_old ? (size_t)ni : 0;
    memset(g6.old, 0, 7 * count * sizeof *g6.old);
    if (aold && count)
        memcpy(g6.old, aold, 3 * count * sizeof *g6.old);
    if (j6old && count)
        memcpy(g6.old_j, j6old, 3 * count * sizeof *g6.old);
    if (phiold && count)
        memcpy(g6.old_phi, phiold, count * sizeof *g6.old);
    double w = g6.stats ? nb_clock_seconds() : 0;
    int r = start(func, nj, ni, index, xi, vi, eps2, h2,
                  g6.want_nearest ? NB_BLOCK_NEAREST : 0u);
    if (g6.stats)
        g6.wall_first += nb_clock_seconds() - w;
    return r;
}

/* The first i-particle with a result that is not finite, -1 if none. */
static int first_not_finite(int ni, double acc[][3], double jerk[][3], double pot[])
{
    for (int k = 0; k < ni; k++) {
        double sum = pot[k];
        for (int c = 0; c < 3; c++)
            sum += acc[k][c] + jerk[k][c];
        if (sum - sum != 0.0 && !(isfinite(pot[k]) && isfinite(acc[k][0]) &&
                                  isfinite(acc[k][1]) && isfinite(acc[k][2]) &&
                                  isfinite(jerk[k][0]) && isfinite(jerk[k][1]) &&
                                  isfinite(jerk[k][2])))
            return k;
    }
    return -1;
}

static int finish(const char *func, int nj, int ni, int index[], double xi[][3],
                  double vi[][3], double eps2, double h2[], double acc[][3],
                  double jerk[][3], double pot[], int nnbindex[])
{
    struct nb_error e = { 0 };
    if (check_block(func, nj, ni))
        return G6GL_ERROR;
    if (!g6.started)
        return fail(func, "no block was started (call g6calc_firsthalf first)");
    if (ni != g6.started_ni)    /* the results would overrun the caller's arrays */
        return fail(func, "ni = %d: the block started by g6calc_firsthalf has %d", ni,
                    g6.started_ni);
    if (ni > 0 && (!acc || !jerk || !pot || (nnbindex && !index)))
        return fail(func, "acc, jerk or pot is NULL");
    double w = g6.stats ? nb_clock_seconds() : 0;
    g6.want_nearest = nnbindex != NULL;
    if (nnbindex && !(g6.flags & NB_BLOCK_NEAREST)) {
        /* firsthalf guessed from the last block that nobody wanted the
         * nearest neighbours: this once, the block runs again with them */
        if (nb_forces_block_finish(g6.f, NULL, NULL, NULL, NULL, NULL, &e) != NB_OK)
            return fail_nb(func, &e);
        g6.started = 0;
        if (start(func, nj, ni, index, xi, vi, eps2, h2, NB_BLOCK_NEAREST))
            return G6GL_ERROR;
    }
    g6.started = 0;
    if (nb_forces_block_finish(g6.f, ni ? &acc[0][0] : NULL, ni ? &jerk[0][0] : NULL, pot,
                               nnbindex ? g6.nearest : NULL, NULL, &e) != NB_OK)
        return fail_nb(func, &e);
    for (int k = 0; nnbindex && k < ni; k++)
        nnbindex[k] = g6.nearest[k] < 0 ? 0 : g6.nearest[k];
    int bad = first_not_finite(ni, acc, jerk, pot);
    if (bad >= 0)
        return fail(func, "i-particle %d: a force, jerk or potential is not finite (the "
                    "j-particles predicted to ti = %g overflow?)", bad, g6.ti);
    g6.finished_ni = ni;
    if (g6.stats) {
        g6.wall_last += nb_clock_seconds() - w;
        g6.device += nb_forces_seconds(g6.f);
        g6.blocks++;
        g6.particles += ni;
    }
    return 0;
}

static int lasthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                    double vi[][3], double eps2, double h2[], double acc[][3],
                    double jerk[][3], double pot[])
{
    (void)cluster_id;
    return finish("g6calc_lasthalf", nj, ni, index, xi, vi, eps2, h2, acc, jerk, pot,
                  NULL);
}

static int lasthalf2(int cluster_id, int nj, int ni, int index[], double xi[][3],
                     double vi[][3], double eps2, double h2[], double acc[][3],
                     double jerk[][3], double pot[], int nnbindex[])
{
    (void)cluster_id;
    if (ni > 0 && !nnbindex)
        return fail("g6calc_lasthalf2", "nnbindex is NULL");
    return finish("g6calc_lasthalf2", nj, ni, index, xi, vi, eps2, h2, acc, jerk, pot,
                  nnbindex);
}

static int read_neighbour_list(int cluster_id)
{
    const char *func = "g6_read_neighbour_list";
    struct nb_error e = { 0 };
    (void)cluster_id;
    if (need_open(func))
        return G6GL_ERROR;
    if (g6.finished_ni < 0)
        return fail(func, "no block was finished (g6calc_firsthalf, g6calc_lasthalf)");
    if (nb_forces_block_neighbours(g6.f, NEIGHBOUR_ROOM, g6.count, g6.list, &e) != NB_OK)
        return fail_nb(func, &e);
    g6.listed_ni = g6.finished_ni;
    for (int k = 0; k < g6.listed_ni; k++)
        if (g6.count[k] >= NEIGHBOUR_ROOM)
            return 1;
    return 0;
}

static int get_neighbour_list(int cluster_id, int ipipe, int maxlength, int *n_neighbours,
                              int neighbour_list[])
{
    const char *func = "g6_get_neighbour_list";
    (void)cluster_id;
    if (need_open(func))
        return G6GL_ERROR;
    if (g6.listed_ni < 0)
        return fail(func, "no neighbour list was read (g6_read_neighbour_list)");
    if (ipipe < 0 || ipipe >= g6.listed_ni)
        return fail(func, "ipipe %d: the last block had %d i-particles", ipipe,
                    g6.listed_ni);
    if (maxlength < 0 || !n_neighbours || (maxlength > 0 && !neighbour_list))
        return fail(func, "maxlength %d, n_neighbours or neighbour_list NULL", maxlength);
    int count = (int)g6.count[ipipe];
    int copy = count < maxlength ? count : maxlength;
    copy = copy < NEIGHBOUR_ROOM ? copy : NEIGHBOUR_ROOM;
    if (copy > 0)               /* maxlength 0 may come with no list */
        memcpy(neighbour_list, g6.list + (size_t)ipipe * NEIGHBOUR_ROOM,
               (size_t)copy * sizeof *neighbour_list);
    *n_neighbours = count;
    return count >= maxlength || count > NEIGHBOUR_ROOM;
}

/* ---- the names a client calls ----
 * Each name calls the static implementation above, never another
 * exported name: a client may define the C names itself over the Fortran
 * ones (int g6_open(int id) { return g6_open_(&id); }, as Sapporo2's test
 * codes do in a header), and the dynamic linker binds every call of an
 * exported name to the client's definition first, so a Fortran name
 * calling g6_open would call back into the client's wrapper.  The C names
 * are weak, so that such a client also links with libg6gl.a, its own
 * definitions winning. */
#define G6_WEAK __attribute__((weak))

G6_WEAK int g6_open(int cluster_id) { return open_device(cluster_id); }
G6_WEAK int g6_close(int cluster_id) { return close_device(cluster_id); }
G6_WEAK int g6_npipes(void) { return npipes(); }
G6_WEAK int g6_set_tunit(double tunit) { return (void)tunit, 0; }
G6_WEAK int g6_set_xunit(double xunit) { return (void)xunit, 0; }
G6_WEAK int g6_set_ti(int cluster_id, double ti) { return set_ti(cluster_id, ti); }

G6_WEAK int g6_set_j_particle(int cluster_id, int address, int index, double tj, double dtj,
                              double mass, double k18[3], double j6[3], double a2[3],
                              double v[3], double x[3])
{
    return set_j_particle(cluster_id, address, index, tj, dtj, mass, k18, j6, a2, v, x);
}

G6_WEAK int g6calc_firsthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                             double vi[][3], double aold[][3], double j6old[][3],
                             double phiold[], double eps2, double h2[])
{
    return firsthalf(cluster_id, nj, ni, index, xi, vi, aold, j6old, phiold, eps2, h2);
}

G6_WEAK int g6calc_lasthalf(int cluster_id, int nj, int ni, int index[], double xi[][3],
                            double vi[][3], double eps2, double h2[], double acc[][3],
                            double jerk[][3], double pot[])
{
    return lasthalf(cluster_id, nj, ni, index, xi, vi, eps2, h2, acc, jerk, pot);
}

G6_WEAK int g6calc_lasthalf2(int cluster_id, int nj, int ni, int index[], double xi[][3],
                             double vi[][3], double eps2, double h2[], double acc[][3],
                             double jerk[][3], double pot[], int nnbindex[])
{
    return lasthalf2(cluster_id, nj, ni, index, xi, vi, eps2, h2, acc, jerk, pot, nnbindex);
}

G6_WEAK int g6_initialize_jp_buffer(int cluster_id, int buf_size)
{
    return (void)cluster_id, (void)buf_size, 0;
}

G6_WEAK int g6_flush_jp_buffer(int cluster_id) { return (void)cluster_id, 0; }
G6_WEAK int g6_reset(int cluster_id) { return (void)cluster_id, 0; }
G6_WEAK int g6_reset_fofpga(int cluster_id) { return (void)cluster_id, 0; }
G6_WEAK int g6_read_neighbour_list(int cluster_id) { return read_neighbour_list(cluster_id); }

G6_WEAK int g6_get_neighbour_list(int cluster_id, int ipipe, int maxlength,
                                  int *n_neighbours, int neighbour_list[])
{
    return get_neighbour_list(cluster_id, ipipe, maxlength, n_neighbours, neighbour_list);
}

/* Sapporo2's: ndev devices in list; one is used, the first (device 0
 * where there is no list). */
G6_WEAK int g6_open_special(int ndev, int *list)
{
    return open_device(ndev > 0 && list ? list[0] : 0);
}

/* ---- the Fortran names: every argument by reference ----
 * A NULL cluster id means cluster 0, and the arguments that are not used
 * (tunit, xunit, dtj, k18, buf_size) may be NULL, as Sapporo2 allows; any
 * other NULL scalar is refused with a message. */
static int cluster(const int *id)
{
    return id ? *id : 0;
}

int g6_open_(int *id) { return open_device(cluster(id)); }
int g6_close_(int *id) { return close_device(cluster(id)); }
int g6_npipes_(void) { return npipes(); }
int g6_set_tunit_(double *t) { return (void)t, 0; }
int g6_set_xunit_(double *x) { return (void)x, 0; }

int g6_set_ti_(int *id, double *ti)
{
    if (!ti)
        return fail("g6_set_ti", "ti is a NULL pointer");
    return set_ti(cluster(id), *ti);
}

int g6_set_j_particle_(int *id, int *address, int *index, double *tj, double *dtj,
                       double *mass, double k18[3], double j6[3], double a2[3],
                       double v[3], double x[3])
{
    const char *func = "g6_set_j_particle";
    if (!address || !index || !tj || !mass)
        return fail(func, "address, index, tj or mass is a NULL pointer");
    return set_j_particle(cluster(id), *address, *index, *tj, dtj ? *dtj : 0.0, *mass, k18, j6,
                          a2, v, x);
}

int g6calc_firsthalf_(int *id, int *nj, int *ni, int index[], double xi[][3],
                      double vi[][3], double aold[][3], double j6old[][3], double phiold[],
                      double *eps2, double h2[])
{
    const char *func = "g6calc_firsthalf";
    if (!nj || !ni || !eps2)
        return fail(func, "nj, ni or eps2 is a NULL pointer");
    return firsthalf(cluster(id), *nj, *ni, index, xi, vi, aold, j6old, phiold, *eps2, h2);
}

int g6calc_lasthalf_(int *id, int *nj, int *ni, int index[], double xi[][3], double vi[][3],
                     double *eps2, double h2[], double acc[][3], double jerk[][3],
                     double pot[])
{
    const char *func = "g6calc_lasthalf";
    if (!nj || !ni || !eps2)
        return fail(func, "nj, ni or eps2 is a NULL pointer");
    return lasthalf(cluster(id), *nj, *ni, index, xi, vi, *eps2, h2, acc, jerk, pot);
}

int g6calc_lasthalf2_(int *id, int *nj, int *ni, int index[], double xi[][3],
                      double vi[][3], double *eps2, double h2[], double acc[][3],
                      double jerk[][3], double pot[], int nnbindex[])
{
    const char *func = "g6calc_lasthalf2";
    if (!nj || !ni || !eps2)
        return fail(func, "nj, ni or eps2 is a NULL pointer");
    return lasthalf2(cluster(id), *nj, *ni, index, xi, vi, *eps2, h2, acc, jerk, pot,
                     nnbindex);
}

int g6_initialize_jp_buffer_(int *id, int *size) { return (void)id, (void)size, 0; }
int g6_flush_jp_buffer_(int *id) { return (void)id, 0; }
int g6_reset_(int *id) { return (void)id, 0; }
int g6_reset_fofpga_(int *id) { return (void)id, 0; }
int g6_read_neighbour_list_(int *id) { return read_neighbour_list(cluster(id)); }

int g6_get_neighbour_list_(int *id, int *ipipe, int *maxlength, int *n_neighbours,
                           int neighbour_list[])
{
    const char *func = "g6_get_neighbour_list";
    if (!ipipe || !maxlength)
        return fail(func, "ipipe or maxlength is a NULL pointer");
    return get_neighbour_list(cluster(id), *ipipe, *maxlength, n_neighbours, neighbour_list);
}
