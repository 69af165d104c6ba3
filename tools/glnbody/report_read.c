/* report_read.c - a report read back and checked: JSON at all (jansson's
 * line and column where not), not cut short, a glnbody report, of the
 * version this program reads, with rows of the expected types.  Each
 * problem is one message naming the file. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static enum nb_status bad(struct nb_error *err, const char *path, const char *what)
{
    return nb_error_set(err, NB_ERR_PARSE, "%s: %s", path, what);
}

/* The machine's label: the GL renderer and API, or the CPU model. */
static void make_label(json_t *root, char *label, size_t size)
{
    const char *renderer = NULL, *api = NULL, *cpu = NULL;
    json_unpack(root, "{s:{s?{s?s, s?s}}}", "machine", "gl", "renderer", &renderer,
                "api", &api);
    json_unpack(root, "{s:{s?{s?s}}}", "machine", "cpu", "model", &cpu);
    if (renderer && api)
        snprintf(label, size, "%s, %s", renderer, api);
    else
        snprintf(label, size, "%s (CPU only)", cpu ? cpu : "unknown machine");
}

static enum nb_status read_rows(json_t *rows, const char *path, struct nb_report *r,
                                struct nb_error *err)
{
    size_t count = json_array_size(rows);
    r->rows = calloc(count ? count : 1, sizeof *r->rows);
    if (!r->rows)
        return nb_error_set(err, NB_ERR_NOMEM, "out of host memory");
    for (size_t k = 0; k < count; k++) {
        const char *kernel, *backend, *variant, *precision;
        json_int_t n;
        json_t *median, *rate, *gflops, *error;
        json_error_t jerr;
        if (json_unpack_ex(json_array_get(rows, k), &jerr, 0,
                           "{s:s, s:s, s:s, s:s, s:I, s:{s:o}, s:o, s:o, s:{s:o}}",
                           "kernel", &kernel, "backend", &backend, "variant", &variant,
                           "precision", &precision, "n", &n, "seconds", "median", &median,
                           "rate", &rate, "gflops", &gflops, "error", "max", &error) != 0)
            return nb_error_set(err, NB_ERR_PARSE, "%s: row %zu is malformed: %s", path,
                                k + 1, jerr.text);
        struct nb_report_row *w = &r->rows[r->count++];
        snprintf(w->kernel, sizeof w->kernel, "%s", kernel);
        snprintf(w->backend, sizeof w->backend, "%s", backend);
        snprintf(w->variant, sizeof w->variant, "%s", variant);
        snprintf(w->precision, sizeof w->precision, "%s", precision);
        w->n = (double)n;
        w->median = json_is_number(median) ? json_number_value(median) : 0.0;
        w->rate = json_is_number(rate) ? json_number_value(rate) : 0.0;
        w->gflops = json_is_number(gflops) ? json_number_value(gflops) : 0.0;
        w->error = json_is_number(error) ? json_number_value(error) : -1.0;
    }
    return NB_OK;
}

enum nb_status nb_report_read(const char *path, struct nb_report *r, struct nb_error *err)
{
    json_error_t jerr;
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return nb_error_set(err, NB_ERR_IO, "%s: cannot open the report", path);
    json_t *root = json_loadf(fp, JSON_REJECT_DUPLICATES, &jerr);
    fclose(fp);
    if (!root) {
        char what[512];
        if (json_error_code(&jerr) == json_error_premature_end_of_input)
            snprintf(what, sizeof what, "the report is cut short (JSON ends at line %d, "
                     "column %d): a truncated file?", jerr.line, jerr.column);
        else
            snprintf(what, sizeof what, "not a glnbody report: not JSON (line %d, column "
                     "%d: %s)", jerr.line, jerr.column, jerr.text);
        return bad(err, path, what);
    }
    const char *format = NULL;
    json_t *version = NULL, *rows = NULL;
    enum nb_status st = NB_OK;
    json_unpack(root, "{s?s, s?o, s?o}", "format", &format, "version", &version,
                "rows", &rows);
    if (!json_is_object(root) || !format || strcmp(format, NB_REPORT_FORMAT) != 0)
        st = bad(err, path, "JSON, but not a glnbody report (no \"format\": \""
                 NB_REPORT_FORMAT "\"; glnbody bench --report writes one)");
    else if (!json_is_integer(version) || json_integer_value(version) != NB_REPORT_VERSION)
        st = nb_error_set(err, NB_ERR_PARSE, "%s: a glnbody report of version %s%lld; this "
                          "glnbody reads version %d (make it again with this glnbody's "
                          "bench --report)", path, json_is_integer(version) ? "" : "?",
                          json_is_integer(version) ? (long long)json_integer_value(version)
                                                   : 0LL, NB_REPORT_VERSION);
    else if (!json_is_array(rows))
        st = bad(err, path, "malformed report: no \"rows\" array");
    if (st == NB_OK) {
        make_label(root, r->label, sizeof r->label);
        st = read_rows(rows, path, r, err);
    }
    json_decref(root);
    if (st != NB_OK)
        nb_report_free(r);
    return st;
}

void nb_report_free(struct nb_report *r)
{
    free(r->rows);
    r->rows = NULL;
    r->count = 0;
}
