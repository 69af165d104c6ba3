"""The part of glnbody.h the package calls, for cffi's ABI mode.

Declarations are copied from the public header (host/glnbody.h and
host/glnbody/*.h); cffi lays the structs out by the platform's C rules,
as the compiler did, so each struct here must match its header field for
field (a mismatch shows in the tests' comparisons with the program)."""

CDEF = r"""
typedef struct _IO_FILE FILE;

const char *nb_version(void);
void nb_version_numbers(int *major, int *minor, int *patch);

enum nb_status { NB_OK = 0, NB_ERR_ARGS, NB_ERR_IO, NB_ERR_PARSE, NB_ERR_NOMEM,
                 NB_ERR_GL, NB_ERR_LIMIT, NB_ERR_UNSUPPORTED, NB_ERR_NUMERIC };
struct nb_error { enum nb_status status; char message[1024]; };

enum nb_engine { NB_ENGINE_CPU, NB_ENGINE_COMPUTE, NB_ENGINE_FRAGMENT, NB_ENGINE_COUNT };
enum nb_status nb_engine_parse(const char *name, enum nb_engine *engine,
                               struct nb_error *err);
const char *nb_engine_name(enum nb_engine engine);
int nb_engine_needs_gl(enum nb_engine engine);

enum nb_precision { NB_PRECISION_A, NB_PRECISION_B, NB_PRECISION_C, NB_PRECISION_D,
                    NB_PRECISION_E, NB_PRECISION_F, NB_PRECISION_G, NB_PRECISION_H,
                    NB_PRECISION_COUNT };
enum nb_status nb_precision_parse(const char *option, const char *text,
                                  enum nb_precision *mode, struct nb_error *err);
const char *nb_precision_name(enum nb_precision mode);

struct nb_outfile { FILE *fp; char *path; char *tmp_path; int unnamed; int published;
                   long long flushed; long long hashed; uint64_t hash; };
enum nb_status nb_outfile_open(struct nb_outfile *f, const char *path, struct nb_error *err);
enum nb_status nb_outfile_commit(struct nb_outfile *f, struct nb_error *err);
void nb_outfile_abort(struct nb_outfile *f);

double nb_clock_seconds(void);

struct nb_particles { size_t n; int64_t *id; int *type; double *q; double *m; double *x;
                      double *v; };
enum nb_status nb_particles_alloc(struct nb_particles *p, size_t n, struct nb_error *err);
enum nb_status nb_particles_add_types(struct nb_particles *p, struct nb_error *err);
void nb_particles_free(struct nb_particles *p);
enum nb_status nb_particles_random_cube(struct nb_particles *p, size_t n, uint64_t seed,
                                        struct nb_error *err);
enum nb_status nb_snapshot_read(const char *path, struct nb_particles *p,
                                struct nb_error *err);
enum nb_status nb_snapshot_write(const char *path, const struct nb_particles *p,
                                 const char *comment, struct nb_error *err);

enum nb_shader_source { NB_SHADERS_AUTO, NB_SHADERS_SPIRV, NB_SHADERS_GLSL };
enum nb_gl_api { NB_GL_API_AUTO, NB_GL_API_GL, NB_GL_API_GLES };
struct nb_gl_options { int device; int debug; enum nb_shader_source shaders;
                       const char *shader_dir; enum nb_gl_api api;
                       int version_major, version_minor; };
void nb_gl_options_default(struct nb_gl_options *opt);
struct nb_gl;
enum nb_status nb_gl_create(struct nb_gl **gl, const struct nb_gl_options *opt,
                            struct nb_error *err);
void nb_gl_destroy(struct nb_gl *gl);
const char *nb_gl_renderer(const struct nb_gl *gl);

struct nb_forces;
enum nb_status nb_forces_create(struct nb_forces **f, struct nb_gl *gl,
                                enum nb_engine engine, struct nb_error *err);
void nb_forces_destroy(struct nb_forces *f);
const char *nb_forces_renderer(const struct nb_forces *f);
enum nb_status nb_forces_set_variant(struct nb_forces *f, const char *variant,
                                     struct nb_error *err);
enum nb_status nb_forces_set_precision(struct nb_forces *f, enum nb_precision mode,
                                       struct nb_error *err);
enum nb_status nb_forces_ga(struct nb_forces *f, size_t n, const double *x,
                            const double *m, double eps, double *acc, double *pot,
                            struct nb_error *err);
enum nb_status nb_forces_set_j(struct nb_forces *f, size_t n, const double *x,
                               const double *v, const double *m, struct nb_error *err);
enum nb_status nb_forces_gaj(struct nb_forces *f, double eps, size_t n_active,
                             const uint32_t *active, double *acc, double *jerk,
                             double *pot, struct nb_error *err);
const char *nb_forces_variant(const struct nb_forces *f);
double nb_forces_seconds(const struct nb_forces *f);

enum nb_positions { NB_POSITIONS_DS, NB_POSITIONS_FLOAT, NB_POSITIONS_FIXED64,
                    NB_POSITIONS_COUNT };
enum nb_status nb_positions_parse(const char *option, const char *text,
                                  enum nb_positions *format, struct nb_error *err);
const char *nb_positions_name(enum nb_positions format);
struct nb_hermite_params { double eta; double eps; double dt_max; int shared_dt;
                           int predict_on_device; enum nb_positions positions; };
void nb_hermite_params_default(struct nb_hermite_params *par);
struct nb_hermite;
enum nb_status nb_hermite_create(struct nb_hermite **h, struct nb_forces *f, size_t n,
                                 const double *m, const double *x, const double *v,
                                 const struct nb_hermite_params *par, struct nb_error *err);
enum nb_status nb_hermite_create_plummer(struct nb_hermite **h, struct nb_forces *f,
                                         size_t n, uint64_t seed,
                                         const struct nb_hermite_params *par,
                                         struct nb_error *err);
void nb_hermite_destroy(struct nb_hermite *h);
enum nb_status nb_hermite_integrate(struct nb_hermite *h, double t, struct nb_error *err);
double nb_hermite_time(const struct nb_hermite *h);
enum nb_status nb_hermite_state(struct nb_hermite *h, double *x, double *v,
                                struct nb_error *err);
const struct nb_particles *nb_hermite_particles(const struct nb_hermite *h);
void nb_hermite_get_params(const struct nb_hermite *h, struct nb_hermite_params *par);
enum nb_status nb_hermite_energy(struct nb_hermite *h, double *kinetic, double *potential,
                                 struct nb_error *err);
struct nb_hermite_stats { uint64_t block_steps; uint64_t particle_steps; double t_host;
                          double t_force; double t_comm; double t_reduce;
                          uint64_t split_blocks[3]; double t_model[4]; };
void nb_hermite_stats(const struct nb_hermite *h, struct nb_hermite_stats *st);

enum nb_md_law { NB_LAW_LJ, NB_LAW_LJC_CONSTANT, NB_LAW_LJC_LINEAR, NB_LAW_LJC_SIGMOIDAL,
                 NB_LAW_IONIC, NB_LAW_COUNT };
enum nb_status nb_md_law_parse(const char *text, enum nb_md_law *law, struct nb_error *err);
struct nb_md_types { int count; double mass[16]; double charge[16]; double eps[16][16];
                     double sigma[16][16]; double ionic[16][16][3]; };
struct nb_md_potential { enum nb_md_law law; struct nb_md_types types; double dielectric;
                         double sigmoid[4]; double cutoff; int shift; };
void nb_md_potential_default(struct nb_md_potential *pot, enum nb_md_law law, int count);
struct nb_md_box { double lo[3]; double hi[3]; int periodic[3]; };
void nb_md_ionic_default(struct nb_md_potential *pot);
enum nb_status nb_md_types_read(const char *path, struct nb_md_potential *pot,
                                struct nb_error *err);
enum nb_status nb_md_fcc(struct nb_particles *p, struct nb_md_box *box, int cells,
                         double rho, double temperature, uint64_t seed, struct nb_error *err);
enum nb_status nb_lammps_dump_read(const char *path, struct nb_particles *p,
                                   struct nb_md_box *box, const struct nb_md_potential *pot,
                                   struct nb_error *err);
enum nb_status nb_lammps_dump_write(FILE *fp, uint64_t step, const struct nb_particles *p,
                                    const struct nb_md_box *box, struct nb_error *err);
enum nb_status nb_extxyz_write(FILE *fp, double time, const struct nb_particles *p,
                               const struct nb_md_box *box, struct nb_error *err);

struct nb_md_params { enum nb_md_law law; int types; const char *coeffs; double cutoff;
                      int shift; int cell_list; double lo[3]; double hi[3];
                      int periodic[3]; double dt; enum nb_precision precision; };
void nb_md_params_default(struct nb_md_params *par);
struct nb_md_thermo { uint64_t step; double time; double temp; double pe, ke, etotal;
                      double press; double p[3]; double l[3]; double com[3]; };
struct nb_md;
enum nb_status nb_md_create(struct nb_md **md, struct nb_gl *gl, enum nb_engine engine,
                            size_t n, const int *type, const double *x, const double *v,
                            const struct nb_md_params *par, struct nb_error *err);
enum nb_status nb_md_create_fcc(struct nb_md **md, struct nb_gl *gl, enum nb_engine engine,
                                int cells, double rho, double temperature, uint64_t seed,
                                const struct nb_md_params *par, struct nb_error *err);
void nb_md_destroy(struct nb_md *md);
enum nb_status nb_md_step(struct nb_md *md, uint64_t count, struct nb_error *err);
uint64_t nb_md_step_count(const struct nb_md *md);
enum nb_status nb_md_get_thermo(struct nb_md *md, struct nb_md_thermo *th,
                                struct nb_error *err);
size_t nb_md_count(const struct nb_md *md);
enum nb_status nb_md_get_state(struct nb_md *md, double *x, double *v, struct nb_error *err);
int nb_md_uses_cell_lists(const struct nb_md *md);
const char *nb_md_renderer(const struct nb_md *md);

enum nb_render_color { NB_COLOR_SPEED, NB_COLOR_POTENTIAL, NB_COLOR_TYPE, NB_COLOR_COUNT };
struct nb_camera { double center[3]; double distance; double azimuth, elevation;
                   double fov; };
struct nb_render_options { int width, height; enum nb_render_color color;
                           struct nb_camera camera; double point_size;
                           double brightness; };
void nb_render_options_default(struct nb_render_options *opt);
struct nb_render;
enum nb_status nb_render_create(struct nb_render **r, struct nb_gl *gl,
                                const struct nb_render_options *opt, struct nb_error *err);
void nb_render_destroy(struct nb_render *r);
enum nb_status nb_render_set_options(struct nb_render *r, const struct nb_render_options *opt,
                                     struct nb_error *err);
enum nb_status nb_render_draw_hermite(struct nb_render *r, struct nb_hermite *h,
                                      struct nb_error *err);
enum nb_status nb_render_draw_md(struct nb_render *r, struct nb_md *md,
                                 struct nb_error *err);
enum nb_status nb_render_inspect_hermite(struct nb_render *r, struct nb_hermite *h,
                                         char *text, size_t size, struct nb_error *err);
enum nb_status nb_render_inspect_md(struct nb_render *r, struct nb_md *md, char *text,
                                    size_t size, struct nb_error *err);
struct nb_inspect_panel { int panels; char name[48]; char w_name[24]; int width, height;
                          size_t count; };
enum nb_status nb_hermite_inspect_panel(struct nb_hermite *h, int k,
                                        struct nb_inspect_panel *info, float *values,
                                        size_t room, struct nb_error *err);
enum nb_status nb_md_inspect_panel(struct nb_md *md, int k, struct nb_inspect_panel *info,
                                   float *values, size_t room, struct nb_error *err);
enum nb_status nb_render_pixels(struct nb_render *r, unsigned char *rgb, size_t size,
                                struct nb_error *err);

enum nb_checkpoint_kind { NB_CHECKPOINT_HERMITE = 1, NB_CHECKPOINT_MD = 2 };
enum nb_status nb_hermite_checkpoint(struct nb_hermite *h, const char *path,
                                     const void *app, size_t app_size,
                                     struct nb_error *err);
enum nb_status nb_hermite_restore(struct nb_hermite **h, struct nb_forces *f,
                                  const char *path, int predict_on_device,
                                  struct nb_error *err);
enum nb_status nb_checkpoint_app(const char *path, enum nb_checkpoint_kind kind,
                                 char **app, size_t *size, uint64_t *n,
                                 struct nb_error *err);
"""
