/* md_ic.c - being written. */
#include "nb_host.h"
