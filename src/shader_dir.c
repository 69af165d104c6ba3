/* shader_dir.c - where the shaders (glsl/ and spirv/) are by default.
 *
 *   1. $GLNBODY_SHADER_DIR, when set and not empty;
 *   2. an installed copy: <dir>/../share/glnbody, where <dir> holds the file
 *      this code runs from (libglnbody.so, or the executable it is linked
 *      into statically), when that directory holds glsl/;
 *   3. the build tree the library was compiled in (NB_SHADER_DIR), for
 *      ./glnbody and the test suites run in place.
 *
 * dladdr() on an object of this file names the file the code was loaded
 * from; an executable is named by its argv[0], so one found through PATH
 * is read from /proc/self/exe instead. */
#define _GNU_SOURCE     /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gl_internal.h"

static pthread_once_t found_once = PTHREAD_ONCE_INIT;
static char installed[PATH_MAX];        /* the installed copy, or "" */
static char candidate[PATH_MAX + 32];   /* where it was looked for, or "" */

static int readable(const char *dir, const char *file)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return access(path, R_OK) == 0;
}

/* The real path of the file this code runs from, or 0. */
static int running_file(char *path)
{
    Dl_info info;
    if (dladdr(installed, &info) && info.dli_fname && strchr(info.dli_fname, '/') &&
        realpath(info.dli_fname, path))
        return 1;
    return realpath("/proc/self/exe", path) != NULL;
}

static void find_installed(void)
{
    char file[PATH_MAX];
    if (!running_file(file))
        return;
    *strrchr(file, '/') = '\0';
    snprintf(candidate, sizeof candidate, "%s/../share/glnbody", file);
    if (readable(candidate, "glsl/nb_config.h") && !realpath(candidate, installed))
        installed[0] = '\0';
}

const char *nb_gl_shader_dir_default(void)
{
    const char *dir = getenv("GLNBODY_SHADER_DIR");
    if (dir && *dir)
        return dir;
    pthread_once(&found_once, find_installed);
    return installed[0] ? installed : NB_SHADER_DIR;
}

enum nb_status nb_gl_shader_dir_check(const char *dir, int spirv, struct nb_error *err)
{
    const char *need = spirv ? "spirv" : "glsl/nb_config.h";
    if (readable(dir, need))
        return NB_OK;
    pthread_once(&found_once, find_installed);
    return nb_error_set(err, NB_ERR_IO, "no shaders in %s (%s/%s is missing); the "
                        "shader directory is $GLNBODY_SHADER_DIR when set, else "
                        "%s when it holds glsl/, else the build tree %s; set "
                        "GLNBODY_SHADER_DIR to the directory that holds glsl/ "
                        "and spirv/", dir, dir, need,
                        candidate[0] ? candidate : "<library>/../share/glnbody",
                        NB_SHADER_DIR);
}

int nb_gl_shader_dir_has_spirv(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/spirv", dir);
    DIR *d = opendir(path);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        found = len > 4 && strcmp(e->d_name + len - 4, ".spv") == 0;
    }
    if (d)
        closedir(d);
    return found;
}
