/* report_machine.c - the machine and software sections of a report: what
 * a reader needs to know which hardware, driver, API level and build made
 * the numbers. */
#define _DEFAULT_SOURCE         /* uname's struct, sysconf's processor count */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "report.h"

/* Baked in by the Makefile from `git describe` at build time. */
#ifndef NB_GIT_COMMIT
#define NB_GIT_COMMIT "unknown"
#endif

/* The value of "key : value" (cpuinfo) or key=value (os-release) lines,
 * quotes removed; "" where the file or key is missing. */
static void file_value(const char *path, const char *key, char sep, char *out, size_t size)
{
    char line[512];
    size_t len = strlen(key);
    FILE *fp = fopen(path, "r");
    out[0] = '\0';
    while (fp && fgets(line, sizeof line, fp)) {
        if (strncmp(line, key, len) != 0)
            continue;
        char *p = line + len;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != sep)
            continue;
        p++;
        while (*p == ' ' || *p == '"')
            p++;
        p[strcspn(p, "\"\n")] = '\0';
        snprintf(out, size, "%s", p);
        break;
    }
    if (fp)
        fclose(fp);
}

static json_t *cpu_section(void)
{
    char model[256];
    file_value("/proc/cpuinfo", "model name", ':', model, sizeof model);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return json_pack("{s:s, s:i}", "model", model[0] ? model : "unknown",
                     "logical_cores", (json_int_t)(cores > 0 ? cores : 0));
}

static json_t *os_section(void)
{
    char name[256];
    struct utsname u;
    file_value("/etc/os-release", "PRETTY_NAME", '=', name, sizeof name);
    if (uname(&u) != 0)
        memset(&u, 0, sizeof u);
    return json_pack("{s:s, s:s, s:s, s:s}", "name", name[0] ? name : "unknown",
                     "kernel", u.sysname, "kernel_release", u.release, "machine", u.machine);
}

static json_t *gl_section(struct nb_gl *gl, struct nb_error *err)
{
    struct nb_gl_info i;
    if (nb_gl_info(gl, &i, err) != NB_OK)
        return NULL;
    json_t *limits = json_pack(
        "{s:i, s:i, s:i, s:i, s:[i,i,i], s:i, s:i}",
        "max_texture_size", (json_int_t)i.max_texture_size,
        "max_draw_buffers", (json_int_t)i.max_draw_buffers,
        "max_color_attachments", (json_int_t)i.max_color_attachments,
        "max_compute_work_group_invocations", (json_int_t)i.max_work_group_invocations,
        "max_compute_work_group_size", (json_int_t)i.max_work_group_size[0],
        (json_int_t)i.max_work_group_size[1], (json_int_t)i.max_work_group_size[2],
        "max_compute_shared_memory_size", (json_int_t)i.max_shared_memory,
        "max_compute_shader_storage_blocks", (json_int_t)i.max_compute_storage_blocks);
    char used[16], obtained[16];
    snprintf(used, sizeof used, "%d.%d", i.major, i.minor);
    snprintf(obtained, sizeof obtained, "%d.%d", i.obtained_major, i.obtained_minor);
    return json_pack("{s:s, s:b, s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:s}, s:o, "
                     "s:{s:b, s:b, s:b, s:b}, s:s}",
                     "api", i.api, "es", i.es, "version_used", used,
                     "version_obtained", obtained, "vendor", i.vendor,
                     "renderer", i.renderer, "version", i.version, "glsl_version", i.glsl,
                     "egl", "vendor", i.egl_vendor, "version", i.egl_version,
                     "device", i.egl_device[0] ? i.egl_device : "unknown",
                     "limits", limits,
                     "features", "compute", i.compute, "spirv_shaders", i.spirv,
                     "fp64", i.fp64, "int64", i.int64,
                     "renderer_line", nb_gl_renderer(gl));
}

json_t *nb_report_machine(struct nb_gl *gl, struct nb_error *err)
{
    json_t *m = json_pack("{s:o, s:o}", "cpu", cpu_section(), "os", os_section());
    if (!m) {
        nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    if (!gl)
        return m;
    json_t *g = gl_section(gl, err);
    if (!g || json_object_set_new(m, "gl", g) != 0) {
        json_decref(m);
        if (err && err->status == NB_OK)
            nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    return m;
}

json_t *nb_report_software(int argc, char **argv, struct nb_error *err)
{
    /* The command as typed (arguments with a space or quote get quotes). */
    size_t size = 32;
    for (int k = 0; k < argc; k++)
        size += 2 * strlen(argv[k]) + 3;
    char *command = malloc(size), *p = command;
    if (!command) {
        nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    p += sprintf(p, "glnbody bench");
    for (int k = 0; k < argc; k++) {
        int quote = argv[k][strcspn(argv[k], " \t'\"")] != '\0' || !argv[k][0];
        *p++ = ' ';
        if (quote)
            *p++ = '\'';
        for (const char *c = argv[k]; *c; c++)
            *p++ = *c == '\'' ? '"' : *c;
        if (quote)
            *p++ = '\'';
    }
    *p = '\0';
    json_t *s = json_pack("{s:s, s:s, s:s, s:s}", "name", "glnbody", "version", nb_version(),
                          "commit", NB_GIT_COMMIT, "command", command);
    free(command);
    if (!s)
        nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    return s;
}
