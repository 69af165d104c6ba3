/* progress.c - the progress of a long command on stderr.
 *
 * On a terminal: one bar redrawn in place with \r, at most PROGRESS_REDRAW_S
 * apart (the monotonic clock), always at start and at finish so that even a
 * fast run shows one, and ended with a newline by nb_progress_finish so that
 * no later line is garbled.  Not on a terminal: no control character at
 * all, one plain line per checkpoint (a log or thermo row, a table row),
 * unless the command prints that row on stdout and stdout is the very file
 * stderr is (2>&1): the line would only repeat it.  --quiet: nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define PROGRESS_REDRAW_S 0.25      /* at most four redraws a second */
#define PROGRESS_COLUMNS 80         /* when the terminal does not say */
#define PROGRESS_BAR_CELLS 10       /* the bar's cells; a fixed number, so that
                                       it stays put while the text changes */
#define PROGRESS_BAR_WIDE 30        /* ... on a terminal of at least */
#define PROGRESS_WIDE_COLUMNS 110   /* columns */

/* stdout and stderr are one file (2>&1, or both to the same file). */
static int same_file(int a, int b)
{
    struct stat sa, sb;

    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static int terminal_columns(void)
{
    struct winsize ws;

    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return PROGRESS_COLUMNS;
}

/* Seconds as a person reads them: "42 s", "3 min 05 s", "2 h 10 min". */
static void format_seconds(char *out, size_t size, double s)
{
    long whole = s < 3.6e7 ? lround(s) : 0;     /* (lround of a huge s is undefined) */

    if (!(s < 3.6e7))
        snprintf(out, size, "over 10000 h");
    else if (whole < 60)
        snprintf(out, size, "%ld s", whole);
    else if (whole < 3600)
        snprintf(out, size, "%ld min %02ld s", whole / 60, whole % 60);
    else
        snprintf(out, size, "%ld h %02ld min", whole / 3600, whole / 60 % 60);
}

/* A count or a time: whole numbers in full, others to five digits. */
static void format_amount(char *out, size_t size, double v)
{
    snprintf(out, size, "%.*g", v == floor(v) && fabs(v) < 1e15 ? 15 : 5, v);
}

/* done of total in 0..1 (nothing to do: all done). */
static double fraction_done(const struct nb_progress *p)
{
    return p->total > 0 ? fmin(fmax(p->done / p->total, 0.0), 1.0) : 1.0;
}

/* "t = 0.5 of 2 (25%), 1.2e+04 block steps/s, 3 s left": the text of both
 * the bar and the line.  The time left is what remains at the rate so far. */
static void format_status(const struct nb_progress *p, char *out, size_t size)
{
    double elapsed = nb_clock_seconds() - p->wall0, fraction = fraction_done(p);
    char done[32], total[32], rate[32] = "?", left[32] = "?";

    format_amount(done, sizeof done, p->done);
    format_amount(total, sizeof total, p->total);
    if (elapsed > 0 && p->count > 0)
        snprintf(rate, sizeof rate, "%.3g", p->count / elapsed);
    if (p->done > 0 && elapsed > 0)
        format_seconds(left, sizeof left, elapsed * fmax(p->total - p->done, 0.0) / p->done);
    snprintf(out, size, "%s %s of %s (%.0f%%), %s %s, %s left", p->done_name, done, total,
             100.0 * fraction, rate, p->rate_name, left);
}

/* "\rrun [#####.....] <status>", cut to the terminal's width (a line that
 * wrapped could not be redrawn in place) and padded over a longer previous
 * draw. */
static void draw_bar(struct nb_progress *p)
{
    char status[160], bar[PROGRESS_BAR_WIDE + 1];
    int columns = terminal_columns();
    int cells = columns >= PROGRESS_WIDE_COLUMNS ? PROGRESS_BAR_WIDE : PROGRESS_BAR_CELLS;
    int full = (int)(cells * fraction_done(p));
    int room = columns - 1 - (int)strlen(p->command) - cells - (int)strlen(" [] ");
    int written;

    format_status(p, status, sizeof status);
    memset(bar, '#', (size_t)full);
    memset(bar + full, '.', (size_t)(cells - full));
    bar[cells] = '\0';
    written = fprintf(stderr, "\r%s [%s] %.*s", p->command, bar, room > 0 ? room : 0,
                      status);
    written -= 1;                   /* the \r */
    if (written < p->shown)
        fprintf(stderr, "%*s", p->shown - written, "");
    p->shown = written > p->shown ? written : p->shown;
    fflush(stderr);
    p->drawn_at = nb_clock_seconds();
}

static void print_line(const struct nb_progress *p)
{
    char status[160];

    format_status(p, status, sizeof status);
    fprintf(stderr, "glnbody %s: %s\n", p->command, status);
    fflush(stderr);
}

void nb_progress_start(struct nb_progress *p, const char *command, const char *done_name,
                       const char *rate_name, double total, int flags)
{
    memset(p, 0, sizeof *p);
    p->command = command;
    p->done_name = done_name;
    p->rate_name = rate_name;
    p->total = total;
    p->wall0 = nb_clock_seconds();
    if (flags & NB_PROGRESS_QUIET)
        p->mode = NB_PROGRESS_OFF;
    else if (isatty(STDERR_FILENO))
        p->mode = NB_PROGRESS_BAR;
    else if ((flags & NB_PROGRESS_ROWS_ON_STDOUT) && same_file(STDOUT_FILENO, STDERR_FILENO))
        p->mode = NB_PROGRESS_OFF;
    else
        p->mode = NB_PROGRESS_LINES;
    if (p->mode == NB_PROGRESS_BAR)
        draw_bar(p);
}

void nb_progress_update(struct nb_progress *p, double done, double total, double count,
                        int checkpoint)
{
    p->done = done;
    p->total = total;
    p->count = count;
    if (p->mode == NB_PROGRESS_LINES && checkpoint)
        print_line(p);
    /* Also after a clear: rows faster than that hide the bar, not flicker with it. */
    if (p->mode == NB_PROGRESS_BAR && nb_clock_seconds() - p->drawn_at >= PROGRESS_REDRAW_S)
        draw_bar(p);
}

void nb_progress_clear(struct nb_progress *p)
{
    if (p->mode != NB_PROGRESS_BAR || !p->shown)
        return;
    fprintf(stderr, "\r%*s\r", p->shown, "");
    fflush(stderr);
    p->shown = 0;
}

void nb_progress_finish(struct nb_progress *p)
{
    if (p->mode != NB_PROGRESS_BAR)
        return;
    draw_bar(p);
    fputc('\n', stderr);
    fflush(stderr);
    p->mode = NB_PROGRESS_OFF;      /* finished once, even when called again */
}
