/* web.h - what the page's C files share (tools/web/): the context, the
 * error report, and the statistics the page shows. */
#ifndef NB_WEB_H
#define NB_WEB_H

#include "glnbody.h"

/* The largest N the page accepts (the fragment engine's streams and a
 * phone's memory). */
#define WEB_MAX_N 65536

/* web_stat(k): the live run's numbers. */
enum web_stat {
    WEB_STAT_TIME,          /* model time */
    WEB_STAT_DE,            /* (E - E0) / |E0| at the last energy */
    WEB_STAT_RATE,          /* interactions/s over wall time integrating */
    WEB_STAT_FORCE_RATE,    /* interactions/s over the GAJ passes' seconds */
    WEB_STAT_BLOCKS,
    WEB_STAT_STEPS,
    WEB_STAT_COUNT
};

/* The page's context (web_view.c), made by web_init; NULL before. */
struct nb_gl *web_gl(void);
int web_init(void);

/* Prints "glnbody-web: error: WHAT: MESSAGE" on stderr (the browser's
 * console), keeps it for web_error() and returns 1. */
int web_fail(const char *what, const struct nb_error *err);
int web_fail_text(const char *fmt, ...);

#endif
