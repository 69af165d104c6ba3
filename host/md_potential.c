/* md_potential.c - being written. */
#include "nb_host.h"
