/* positions.c - the names of the position formats (enum nb_positions of
 * glnbody.h), shared by libg6gl's block steps and the Hermite runs, and
 * by the engines that report them. */
#include <string.h>

#include "nb_host.h"

enum nb_status nb_positions_parse(const char *option, const char *text,
                                  enum nb_positions *format, struct nb_error *err)
{
    for (int k = 0; k < NB_POSITIONS_COUNT; k++)
        if (text && strcmp(text, nb_positions_name((enum nb_positions)k)) == 0) {
            *format = (enum nb_positions)k;
            return NB_OK;
        }
    return nb_error_set(err, NB_ERR_ARGS, "%s: unknown position format '%s' (ds: "
                        "double-single, float: rounded to float, fixed64: 64-bit fixed "
                        "point)", option, text ? text : "");
}

const char *nb_positions_name(enum nb_positions format)
{
    static const char *const names[] = { "ds", "float", "fixed64" };
    return (unsigned)format < NB_POSITIONS_COUNT ? names[format] : "?";
}
