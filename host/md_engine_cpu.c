/* md_engine_cpu.c - being written. */
#include "nb_host.h"
