/* web_error.c - the page's one error report: the console line the CI test
 * and a reader see, and the same text for the page to show. */
#include <emscripten/emscripten.h>
#include <stdarg.h>
#include <stdio.h>

#include "web.h"

static char last[600];

int web_fail(const char *what, const struct nb_error *err)
{
    return web_fail_text("%s: %s", what, err->message[0] ? err->message : "failed");
}

int web_fail_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last, sizeof last, fmt, ap);
    va_end(ap);
    fprintf(stderr, "glnbody-web: error: %s\n", last);
    return 1;
}

EMSCRIPTEN_KEEPALIVE const char *web_error(void)
{
    return last;
}
