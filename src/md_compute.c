/* md_compute.c - being written. */
#include "nb_host.h"
