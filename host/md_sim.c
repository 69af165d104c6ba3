/* md_sim.c - being written. */
#include "nb_host.h"
