/* main.c - the glnbody program: dispatches to its commands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mpi_world.h"
#include "view.h"
#include "report.h"

/* A command this build left out (its packages were not found): it says
 * which, and what turns it on. */
#if !defined(NB_HAVE_VIEW) || !defined(NB_HAVE_REPORTS)
static int unavailable(const char *command, const char *needs)
{
    fprintf(stderr, "glnbody: %s is not in this build: it needs %s, which the build did "
            "not find; install what it names and run make again\n", command, needs);
    return 1;
}
#endif
#ifndef NB_HAVE_VIEW
int nb_cmd_view(int argc, char **argv)
{
    (void)argc, (void)argv;
    return unavailable("view", "GLFW, FreeType and fontconfig (pkg-config glfw3 freetype2 "
                       "fontconfig; Debian: libglfw3-dev libfreetype-dev libfontconfig-dev)");
}
#endif
#ifndef NB_HAVE_REPORTS
int nb_cmd_report(int argc, char **argv)
{
    (void)argc, (void)argv;
    return unavailable("report", "jansson (pkg-config jansson; Debian: libjansson-dev)");
}
#endif

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int gl;                     /* takes the options of every GL command */
} commands[] = {
    { "run", nb_cmd_run, "a Hermite block-step N-body simulation (Portegies Zwart et al. 2007)", 1 },
    { "md", nb_cmd_md, "molecular dynamics: LJ, LJC and ionic laws, velocity Verlet, "
      "cell lists (Elsen et al. 2006; ETH Zürich HPCSE I 2013; "
      "Boyarchenkov & Potashnikov 2009)", 1 },
    { "forces", nb_cmd_forces, "forces of a snapshot file (GA kernel) on one backend", 1 },
    { "bench", nb_cmd_bench, "interactions/s of the force kernels, per backend and variant", 1 },
    { "precision", nb_cmd_precision, "force error, offset and speed of every accumulation "
      "mode (Narumi et al.)", 1 },
    { "newton3", nb_cmd_newton3, "triangular (Newton's third law) MD kernels against the "
      "square loop (Boyarchenkov & Potashnikov 2009, Table 5)", 1 },
    { "compare", nb_cmd_compare, "every backend against the CPU reference on a random system", 1 },
    { "view", nb_cmd_view, "a window on a running simulation: run's or (view md) md's, "
      "from their options, drawn from the engine's GPU buffers", 0 },
    { "report", nb_cmd_report, "reports of bench --report side by side, machine against "
      "machine (and --plot)", 0 },
    { "shaders", nb_cmd_shaders, "list or emit the shader programs (used by the build)", 0 },
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* "  NAME       summary", the summary filled to 79 columns under itself. */
static void print_command(FILE *out, const char *name, const char *summary)
{
    enum { INDENT = 13, WIDTH = 79 };
    int column = fprintf(out, "  %-10s", name);
    while (*summary) {
        size_t word = strcspn(summary, " ");
        if (column + 1 + (int)word > WIDTH && column > INDENT)
            column = fprintf(out, "\n%*s", INDENT - 1, "") - 1;
        column += fprintf(out, " %.*s", (int)word, summary);
        summary += word;
        summary += strspn(summary, " ");
    }
    fputc('\n', out);
}

static void usage(FILE *out)
{
    fprintf(out, "usage: glnbody COMMAND [options]   (glnbody COMMAND --help,\n"
                 "       glnbody help COMMAND for its reference; glnbody --version)\n\n"
                 "Direct N-body forces on any GPU with OpenGL 3.3 or OpenGL ES 3.0:\n"
                 "fragment-shader streams everywhere, compute shaders from OpenGL 4.3\n"
                 "and ES 3.1, checked against a double-precision CPU code, and a\n"
                 "Hermite block-step integrator on top of them.\n\n"
                 "commands:\n");
    for (size_t k = 0; k < COMMAND_COUNT; k++)
        print_command(out, commands[k].name, commands[k].summary);
    print_command(out, "help", "the reference of a command (glnbody help COMMAND): "
                  "its section of the manual page glnbody(1)");
    fprintf(out, "\nenvironment: GLNBODY_SHADER_DIR (where glsl/ and spirv/ are),\n"
                 "  GLNBODY_SHADERS=spirv|glsl, GLNBODY_DEBUG=1 (GL debug output),\n"
                 "  GLNBODY_DISPATCH_PAIRS=P (pair terms a compute dispatch, default 2^35),\n"
                 "  GLNBODY_WAIT=poll|block (how the host waits for GPU results),\n"
                 "  GLNBODY_BLOCK_PIECES=1-8|auto (a block step's forces in pieces)\n");
    if (nb_mpi_built())
        fprintf(out, "\nOpen MPI: mpirun -np P glnbody run|forces ... shares the forces over P\n"
                 "  ranks, one GPU each (Harfst et al. 2007); rank 0 writes and reports\n");
}

/* glnbody help [COMMAND]: the command list, or the command's section of
 * the manual page. */
static int help(int argc, char **argv)
{
    if (argc == 0) {
        usage(stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "glnbody: help: one command at a time, not '%s' too "
                "(glnbody help lists the commands)\n", argv[1]);
        return 2;
    }
    for (size_t k = 0; k < COMMAND_COUNT; k++) {
        if (strcmp(argv[0], commands[k].name) != 0)
            continue;
        struct nb_error err = { 0 };
        if (nb_man_print_command(commands[k].name, commands[k].gl, stdout, &err) != NB_OK)
            return nb_cli_fail(&err);
        return 0;
    }
    fprintf(stderr, "glnbody: help: unknown command '%s' (glnbody help lists the "
            "commands)\n", argv[0]);
    return 2;
}

/* What the command printed may still sit in stdout's buffer, and a write
 * to a full disk or a closed pipe fails only when it is flushed: flush and
 * close here, as coreutils' close_stdout does, so that `glnbody compare >
 * /dev/full` fails.  A command that already failed has said why. */
static int finish_stdout(int status)
{
    int failed, error;

    errno = 0;
    failed = fflush(stdout) != 0;
    error = errno;
    failed |= ferror(stdout) != 0;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        error = errno;
    }
    if (!failed || status != 0)
        return status;
    fprintf(stderr, "glnbody: stdout: write error%s%s\n", error ? ": " : "",
            error ? strerror(error) : "");
    return 1;
}

/* glnbody --version: the library's version and the optional features
 * this program was built with. */
static int version(void)
{
    printf("glnbody %s\n", nb_version());
    printf("features: mpi %s, view %s, reports %s, plots %s\n", nb_mpi_built() ? "on" : "off",
#ifdef NB_HAVE_VIEW
           "on",
#else
           "off",
#endif
#ifdef NB_HAVE_REPORTS
           "on",
#else
           "off",
#endif
#ifdef NB_HAVE_PLOTS
           "on"
#else
           "off"
#endif
    );
    return 0;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "glnbody: --version takes no argument, not '%s'\n", argv[2]);
            return 2;
        }
        return version();
    }
    if (strcmp(argv[1], "help") == 0)
        return help(argc - 2, argv + 2);
    for (size_t k = 0; k < COMMAND_COUNT; k++)
        if (strcmp(argv[1], commands[k].name) == 0) {
            struct nb_error err = { 0 };
            if (nb_mpi_check_command(argv[1], &err) != NB_OK)
                return nb_cli_fail(&err);
            return commands[k].run(argc - 2, argv + 2);
        }
    fprintf(stderr, "glnbody: unknown command '%s' (see glnbody --help)\n", argv[1]);
    return 2;
}

int main(int argc, char **argv)
{
    nb_mpi_init(&argc, &argv);
    nb_gl_cli_default_device = nb_mpi_device();
    nb_cli_rank = nb_mpi_ranks() > 1 ? nb_mpi_rank() : -1;
    nb_cli_context_made = nb_mpi_say_devices;
    return nb_mpi_finish(finish_stdout(dispatch(argc, argv)));
}
