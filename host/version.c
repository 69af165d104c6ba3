/* version.c - the library's version at run time, so that a program linked
 * against a shared library can tell which one it got (the NB_VERSION_*
 * macros say only which header it was compiled with). */
#include "nb_host.h"

#define NB_STR(x) #x
#define NB_XSTR(x) NB_STR(x)

const char *nb_version(void)
{
    return NB_XSTR(NB_VERSION_MAJOR) "." NB_XSTR(NB_VERSION_MINOR) "."
           NB_XSTR(NB_VERSION_PATCH);
}

void nb_version_numbers(int *major, int *minor, int *patch)
{
    if (major)
        *major = NB_VERSION_MAJOR;
    if (minor)
        *minor = NB_VERSION_MINOR;
    if (patch)
        *patch = NB_VERSION_PATCH;
}
