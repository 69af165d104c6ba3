/* report_read.c - a report read back and checked: JSON at all (jansson's
 * line and column where not), not cut short, a glnbody report, of the
 * version this program reads, with rows of the expected types.  Each
 * problem is one message naming the file. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "report.h"

static enum nb_status bad(struct nb_error *err, const char *path, const char *what)
{
    return nb_error_set(err, NB_ERR_PARSE, "%s: %s", path, what);
}

/* A string of the report as it is shown: bytes outside printable ASCII
 * become '?' (a report is data, and must not drive the terminal). */
static void shown(char *out, size_t size, const char *text)
{
    size_t k = 0;
    for (; text[k] && k + 1 < size; k++) {
        unsigned char c = (unsigned char)text[k];
        out[k] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
    }
    out[k] = '\0';
}

/* The machine's label: the GL renderer and API, or the CPU model. */
static void make_label(json_t *root, char *label, size_t size)
{
    const char *renderer = NULL, *api = NULL, *cpu = NULL;
    json_unpack(root, "{s:{s?{s?s, s?s}}}", "machine", "gl", "renderer", &renderer,
                "api", &api);
    json_unpack(root, "{s:{s?{s?s}}}", "machine", "cpu", "model", &cpu);
    char text[512];
    if (renderer && api)
        snprintf(text, sizeof text, "%s, %s", renderer, api);
    else
        snprintf(text, sizeof text, "%s (CPU only)", cpu ? cpu : "unknown machine");
    shown(label, size, text);
}

/* A measured value of row k: a finite number above 0 (or, with
 * may_be_null, JSON null: not measured, stored as nan). */
static enum nb_status row_number(json_t *value, const char *name, int may_be_null,
                                 const char *path, size_t k, double *out,
                                 struct nb_error *err)
{
    double v = json_is_number(value) ? json_number_value(value) : NAN;
    if (may_be_null && json_is_null(value)) {
        *out = NAN;
        return NB_OK;
    }
    char what[32];
    if (json_is_number(value))
        snprintf(what, sizeof what, "%g", v);
    else
        snprintf(what, sizeof what, "%s", !value ? "missing" : json_is_null(value) ? "null"
                 : json_is_string(value) ? "a string" : "another type");
    if (!(isfinite(v) && v > 0.0) && !(may_be_null && v == 0.0))
        return nb_error_set(err, NB_ERR_PARSE, "%s: row %zu: \"%s\" must be a finite "
                            "number above 0, not %s", path, k + 1, name, what);
    *out = v;
    return NB_OK;
}

/* The names of a row, shown safely; the kernel must be one this program
 * tables. */
static enum nb_status row_names(struct nb_report_row *w, const char *kernel,
                                const char *backend, const char *variant,
                                const char *precision, const char *path, size_t k,
                                struct nb_error *err)
{
    shown(w->kernel, sizeof w->kernel, kernel);
    shown(w->backend, sizeof w->backend, backend);
    shown(w->variant, sizeof w->variant, variant);
    shown(w->precision, sizeof w->precision, precision);
    if (strcmp(kernel, "GA") && strcmp(kernel, "GAJ") && strcmp(kernel, "MD"))
        return nb_error_set(err, NB_ERR_PARSE, "%s: row %zu: unknown kernel '%s' (GA, "
                            "GAJ or MD)", path, k + 1, w->kernel);
    return NB_OK;
}

static enum nb_status read_rows(json_t *rows, const char *path, struct nb_report *r,
                                struct nb_error *err)
{
    size_t count = json_array_size(rows);
    if (count == 0)
        return bad(err, path, "malformed report: \"rows\" is empty (no measurement)");
    r->rows = calloc(count, sizeof *r->rows);
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
        if (row_names(w, kernel, backend, variant, precision, path, k, err) != NB_OK)
            return err->status;
        if (n < 1)
            return nb_error_set(err, NB_ERR_PARSE, "%s: row %zu: \"n\" must be 1 or "
                                "more, not %lld", path, k + 1, (long long)n);
        w->n = (double)n;
        if (row_number(median, "seconds.median", 0, path, k, &w->median, err) != NB_OK ||
            row_number(rate, "rate", 0, path, k, &w->rate, err) != NB_OK ||
            row_number(gflops, "gflops", 1, path, k, &w->gflops, err) != NB_OK ||
            row_number(error, "error.max", 1, path, k, &w->error, err) != NB_OK)
            return err->status;
    }
    return NB_OK;
}

/* A report is a few kilobytes; this bounds what a wrong file can take. */
#define REPORT_MAX_BYTES (64u << 20)

/* The whole file (NUL-terminated, *size bytes), or NULL with the reason:
 * a directory, too large, or binary (a NUL byte, which JSON never has). */
static char *slurp(const char *path, size_t *size, struct nb_error *err)
{
    FILE *fp = fopen(path, "rb");
    struct stat info;
    if (!fp) {
        nb_error_set(err, NB_ERR_IO, "%s: cannot open the report", path);
        return NULL;
    }
    if (fstat(fileno(fp), &info) == 0 && S_ISDIR(info.st_mode)) {
        fclose(fp);
        nb_error_set(err, NB_ERR_IO, "%s: is a directory, not a report", path);
        return NULL;
    }
    char *data = malloc(REPORT_MAX_BYTES + 2);
    size_t got = data ? fread(data, 1, REPORT_MAX_BYTES + 1, fp) : 0;
    int failed = data && ferror(fp);
    fclose(fp);
    const char *nul = data ? memchr(data, '\0', got) : NULL;
    if (!data)
        nb_error_set(err, NB_ERR_NOMEM, "out of host memory for the report %s", path);
    else if (failed)
        nb_error_set(err, NB_ERR_IO, "%s: read error", path);
    else if (nul)
        nb_error_set(err, NB_ERR_PARSE, "%s: not a glnbody report: not JSON (a NUL byte at "
                     "offset %zu: a binary file)", path, (size_t)(nul - data));
    else if (got > REPORT_MAX_BYTES)
        nb_error_set(err, NB_ERR_PARSE, "%s: not a glnbody report: larger than the limit "
                     "of %u bytes", path, REPORT_MAX_BYTES);
    if (err->status != NB_OK) {
        free(data);
        return NULL;
    }
    data[got] = '\0';
    *size = got;
    return data;
}

enum nb_status nb_report_read(const char *path, struct nb_report *r, struct nb_error *err)
{
    json_error_t jerr;
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    size_t size = 0;
    char *text = slurp(path, &size, err);
    if (!text)
        return err->status;
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    free(text);
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
    else if (!json_is_integer(version))
        st = nb_error_set(err, NB_ERR_PARSE, "%s: malformed report: \"version\" is %s, "
                          "not an integer (this glnbody reads version %d)", path,
                          !version ? "missing" : json_is_string(version) ? "a string"
                          : "of another type", NB_REPORT_VERSION);
    else if (json_integer_value(version) != NB_REPORT_VERSION)
        st = nb_error_set(err, NB_ERR_PARSE, "%s: a glnbody report of version %lld; this "
                          "glnbody reads version %d (make it again with this glnbody's "
                          "bench --report)", path, (long long)json_integer_value(version),
                          NB_REPORT_VERSION);
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
