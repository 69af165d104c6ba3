/* md_force_cpu.c - being written. */
#include "nb_host.h"
