/* md_files.c - being written. */
#include "nb_host.h"
