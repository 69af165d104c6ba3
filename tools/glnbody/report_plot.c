/* report_plot.c - glnbody report --plot FILE.png: interactions/s against N
 * on log-log axes, one line per machine and backend (its best variant and
 * precision at each N), drawn with cairo and written through nb_outfile
 * (the PNG appears whole or not at all).  The GA rows are drawn where any
 * report has them, else GAJ, else MD (atom-steps/s). */
#define _DEFAULT_SOURCE     /* M_PI */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define W 960
#define H 620
#define LEFT 90.0
#define RIGHT 24.0
#define TOP 48.0
#define BOTTOM 200.0        /* the axis label and the legend below it */
#define NB_MAX_SERIES 48

struct series {
    const struct nb_report *r;
    char backend[16];
};

struct frame {
    double x0, x1, y0, y1;      /* log10 ranges */
};

static double px(const struct frame *f, double n)
{
    return LEFT + (log10(n) - f->x0) / (f->x1 - f->x0) * (W - LEFT - RIGHT);
}

static double py(const struct frame *f, double rate)
{
    return H - BOTTOM - (log10(rate) - f->y0) / (f->y1 - f->y0) * (H - TOP - BOTTOM);
}

static const char *chosen_kernel(const struct nb_report *rs, size_t count)
{
    static const char *const order[] = { "GA", "GAJ", "MD" };
    for (int k = 0; k < 3; k++)
        for (size_t r = 0; r < count; r++)
            for (size_t i = 0; i < rs[r].count; i++)
                if (strcmp(rs[r].rows[i].kernel, order[k]) == 0)
                    return order[k];
    return NULL;
}

/* The best rate of series s at N, 0 if none. */
static double best_at(const struct series *s, const char *kernel, double n)
{
    double best = 0.0;
    for (size_t i = 0; i < s->r->count; i++) {
        const struct nb_report_row *w = &s->r->rows[i];
        if (w->n == n && w->rate > best && strcmp(w->kernel, kernel) == 0 &&
            strcmp(w->backend, s->backend) == 0)
            best = w->rate;
    }
    return best;
}

static size_t make_series(const struct nb_report *rs, size_t count, const char *kernel,
                          struct series *out, struct frame *f)
{
    size_t used = 0;
    double nmin = INFINITY, nmax = 0.0, rmin = INFINITY, rmax = 0.0;
    for (size_t r = 0; r < count; r++)
        for (size_t i = 0; i < rs[r].count; i++) {
            const struct nb_report_row *w = &rs[r].rows[i];
            if (strcmp(w->kernel, kernel) != 0 || w->rate <= 0.0 || w->n <= 0.0)
                continue;
            nmin = fmin(nmin, w->n); nmax = fmax(nmax, w->n);
            rmin = fmin(rmin, w->rate); rmax = fmax(rmax, w->rate);
            size_t s = 0;
            while (s < used && !(out[s].r == &rs[r] && strcmp(out[s].backend, w->backend) == 0))
                s++;
            if (s == used && used < NB_MAX_SERIES) {
                out[used].r = &rs[r];
                snprintf(out[used].backend, sizeof out[used].backend, "%s", w->backend);
                used++;
            }
        }
    f->x0 = floor(log10(nmin)); f->x1 = ceil(log10(nmax));
    f->y0 = floor(log10(rmin)); f->y1 = ceil(log10(rmax));
    if (f->x1 <= f->x0) f->x1 = f->x0 + 1;
    if (f->y1 <= f->y0) f->y1 = f->y0 + 1;
    return used;
}

static void axes(cairo_t *cr, const struct frame *f, const char *kernel)
{
    char text[64];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, LEFT, TOP, W - LEFT - RIGHT, H - TOP - BOTTOM);
    cairo_stroke(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    for (double e = f->x0; e <= f->x1; e++) {
        double x = px(f, pow(10, e));
        cairo_move_to(cr, x, H - BOTTOM); cairo_line_to(cr, x, H - BOTTOM + 5);
        cairo_stroke(cr);
        snprintf(text, sizeof text, "1e%.0f", e);
        cairo_move_to(cr, x - 12, H - BOTTOM + 18); cairo_show_text(cr, text);
    }
    for (double e = f->y0; e <= f->y1; e++) {
        double y = py(f, pow(10, e));
        cairo_move_to(cr, LEFT - 5, y); cairo_line_to(cr, LEFT, y);
        cairo_stroke(cr);
        snprintf(text, sizeof text, "1e%.0f", e);
        cairo_move_to(cr, LEFT - 40, y + 4); cairo_show_text(cr, text);
    }
    cairo_move_to(cr, LEFT + (W - LEFT - RIGHT) / 2 - 30, H - BOTTOM + 38);
    cairo_show_text(cr, "N (particles)");
    cairo_set_font_size(cr, 15);
    snprintf(text, sizeof text, "%s kernel: %s against N", kernel,
             strcmp(kernel, "MD") == 0 ? "atom-steps/s" : "interactions/s");
    cairo_move_to(cr, LEFT, TOP - 16);
    cairo_show_text(cr, text);
}

static void draw(cairo_t *cr, const struct series *s, size_t used, const char *kernel,
                 const struct frame *f)
{
    static const double colour[][3] = {
        { 0.12, 0.47, 0.71 }, { 0.84, 0.15, 0.16 }, { 0.17, 0.63, 0.17 }, { 0.58, 0.40, 0.74 },
        { 1.00, 0.50, 0.05 }, { 0.55, 0.34, 0.29 }, { 0.89, 0.47, 0.76 }, { 0.5, 0.5, 0.5 } };
    for (size_t k = 0; k < used; k++) {
        const double *c = colour[k % 8];
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_set_line_width(cr, 2.0);
        double dash[2] = { 6.0, 4.0 };
        cairo_set_dash(cr, dash, strcmp(s[k].backend, "fragment") == 0 ? 2 : 0, 0);
        int started = 0, points = 0;
        double xs[64], ys[64];
        /* The N of this series, ascending. */
        double last = 0.0;
        for (;;) {
            double next = INFINITY;
            for (size_t i = 0; i < s[k].r->count; i++) {
                const struct nb_report_row *w = &s[k].r->rows[i];
                if (w->n > last && w->n < next && strcmp(w->kernel, kernel) == 0 &&
                    strcmp(w->backend, s[k].backend) == 0 && w->rate > 0.0)
                    next = w->n;
            }
            if (!isfinite(next))
                break;
            double x = px(f, next), y = py(f, best_at(&s[k], kernel, next));
            if (started)
                cairo_line_to(cr, x, y);
            else
                cairo_move_to(cr, x, y);
            started = 1;
            last = next;
            if (points < 64)
                xs[points] = x, ys[points++] = y;
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        for (int k2 = 0; k2 < points; k2++) {     /* a mark at each measured N */
            cairo_new_sub_path(cr);
            cairo_arc(cr, xs[k2], ys[k2], 3.0, 0.0, 2.0 * M_PI);
        }
        cairo_fill(cr);
        /* The legend, below the axes. */
        double ly = H - BOTTOM + 60 + 16.0 * (double)(k % 8), lx = LEFT + 440.0 * (double)(k / 8);
        cairo_move_to(cr, lx, ly - 4); cairo_line_to(cr, lx + 24, ly - 4);
        cairo_stroke(cr);
        char text[256];
        snprintf(text, sizeof text, "%.56s: %s", s[k].r->label, s[k].backend);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_set_font_size(cr, 11);
        cairo_move_to(cr, lx + 30, ly); cairo_show_text(cr, text);
    }
}

static cairo_status_t write_png(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
                                                      : CAIRO_STATUS_WRITE_ERROR;
}

enum nb_status nb_report_plot(const char *path, const struct nb_report *reports,
                              size_t count, struct nb_error *err)
{
    const char *kernel = chosen_kernel(reports, count);
    if (!kernel)
        return nb_error_set(err, NB_ERR_ARGS, "report --plot: the reports have no rows");
    struct series s[NB_MAX_SERIES];
    struct frame f;
    size_t used = make_series(reports, count, kernel, s, &f);
    struct nb_outfile out = { 0 };
    if (nb_outfile_open(&out, path, err) != NB_OK)
        return err->status;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    axes(cr, &f, kernel);
    draw(cr, s, used, kernel, &f);
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_write_to_png_stream(surface, write_png, out.fp);
    cairo_surface_destroy(surface);
    cairo_debug_reset_static_data();    /* cairo's font caches: nothing kept */
    if (cs != CAIRO_STATUS_SUCCESS) {
        nb_outfile_abort(&out);
        return nb_error_set(err, NB_ERR_IO, "%s: cannot write the plot: %s", path,
                            cairo_status_to_string(cs));
    }
    return nb_outfile_commit(&out, err);
}
