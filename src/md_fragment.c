/* md_fragment.c - being written. */
#include "nb_host.h"
