/* man_text.c - the man page, glnbody.1, as plain text: `glnbody help CMD`
 * prints its section ".SS "glnbody CMD"", so that the program's reference
 * and the manual are one text.
 *
 * The page is found as the shaders are (src/shader_dir.c): an installed
 * copy, <dir>/../share/man/man1/glnbody.1 where <dir> holds the running
 * executable, else the build tree's tools/glnbody/glnbody.1 (NB_SHADER_DIR
 * is the build tree's root).
 *
 * The formatter knows the man(7) macros the page uses: .SS/.SH (a section
 * ends there), .PP, .TP, .IP, .RS/.RE, .nf/.fi, .br, .B, .I and the
 * alternating-font pairs (.BR, .RI, ...), and the escapes listed in
 * escapes[] below; fonts become plain text, filled to 79 columns. */
#define _DEFAULT_SOURCE     /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define WIDTH 79            /* the longest line filled text makes */
#define TAG_INDENT 2        /* a .TP tag, an .IP bullet */
#define BODY_INDENT 8       /* the text under a .TP tag */
#define IP_WIDTH 4          /* an .IP item's text after its tag, by default */
#define LINE_MAX_CHARS 4096 /* a line of the page, after escapes */

/* ---- where the page is ------------------------------------------------- */

static int readable(const char *path)
{
    return access(path, R_OK) == 0;
}

/* The installed page beside the running executable, or "" if unknown. */
static void installed_page(char *path, size_t cap)
{
    char exe[PATH_MAX];
    path[0] = '\0';
    if (realpath("/proc/self/exe", exe)) {
        *strrchr(exe, '/') = '\0';
        snprintf(path, cap, "%s/../share/man/man1/glnbody.1", exe);
    }
}

static void build_tree_page(char *path, size_t cap)
{
    snprintf(path, cap, "%s/tools/glnbody/glnbody.1", NB_SHADER_DIR);
}

const char *nb_man_page_path(void)
{
    static char path[PATH_MAX + 64];
    installed_page(path, sizeof path);
    if (!path[0] || !readable(path))
        build_tree_page(path, sizeof path);
    return path;
}

/* ---- escapes ------------------------------------------------------------ */

static const struct {
    const char *escape, *text;
} escapes[] = {
    /* characters */
    { "\\-", "-" },          { "\\(lq", "\"" },         { "\\(rq", "\"" },
    { "\\(aq", "'" },        { "\\(bu", "-" },          { "\\(mu", "\xc3\x97" },
    { "\\(em", "\xe2\x80\x94" }, { "\\(en", "\xe2\x80\x93" }, { "\\(<=", "<=" },
    { "\\(>=", ">=" },       { "\\(ti", "~" },          { "\\['e]", "\xc3\xa9" },
    { "\\[:u]", "\xc3\xbc" }, { "\\[:o]", "\xc3\xb6" }, { "\\e", "\\" },
    /* fonts, spaces and break points */
    { "\\fB", "" },          { "\\fI", "" },            { "\\fR", "" },
    { "\\fP", "" },          { "\\&", "" },             { "\\ ", " " },
    { "\\~", " " },          { "\\^", "" },             { "\\|", "" },
    { "\\:", "" },
};

/* in with every known escape replaced by its text, into out (size cap). */
static void unescape(const char *in, char *out, size_t cap)
{
    size_t len = 0;
    while (*in && len + 4 < cap) {
        size_t k = 0, count = sizeof escapes / sizeof escapes[0];
        if (*in == '\\')
            while (k < count && strncmp(in, escapes[k].escape,
                                        strlen(escapes[k].escape)) != 0)
                k++;
        if (*in == '\\' && k < count) {
            size_t n = strlen(escapes[k].text);
            memcpy(out + len, escapes[k].text, n);
            len += n;
            in += strlen(escapes[k].escape);
        } else {
            out[len++] = *in++;
        }
    }
    out[len] = '\0';
}

/* ---- filling ------------------------------------------------------------ */

struct page {
    FILE *out;
    int indent;         /* of the lines to come */
    int base;           /* .RS adds 4 to every indent */
    int column;         /* 0: at the start of a line */
    int fill;           /* 0 between .nf and .fi */
    int tag_next;       /* the next text line is a .TP tag */
};

static void end_line(struct page *p)
{
    if (p->column > 0)
        fputc('\n', p->out);
    p->column = 0;
}

static void blank_line(struct page *p)
{
    end_line(p);
    fputc('\n', p->out);
}

static int utf8_length(const char *s, size_t n)
{
    int chars = 0;
    for (size_t k = 0; k < n; k++)
        chars += ((unsigned char)s[k] & 0xc0) != 0x80;
    return chars;
}

static void put_word(struct page *p, const char *word, size_t n)
{
    int width = utf8_length(word, n);
    if (p->column > 0 && p->column + 1 + width > WIDTH)
        end_line(p);
    if (p->column == 0) {
        int indent = p->base + p->indent;
        fprintf(p->out, "%*s", indent, "");
        p->column = indent;
    } else {
        fputc(' ', p->out);
        p->column++;
    }
    fwrite(word, 1, n, p->out);
    p->column += width;
}

/* Text of the page (escapes already replaced), filled or as it is. */
static void put_text(struct page *p, const char *text)
{
    if (!p->fill) {
        fprintf(p->out, "%*s%s\n", p->base + p->indent, "", text);
        return;
    }
    while (*text) {
        while (*text == ' ' || *text == '\t')
            text++;
        size_t n = strcspn(text, " \t");
        if (n > 0)
            put_word(p, text, n);
        text += n;
    }
    if (p->tag_next) {
        /* A tag is a line of its own; the text under it is indented. */
        end_line(p);
        p->tag_next = 0;
        p->indent = BODY_INDENT;
    }
}

/* ---- macros ------------------------------------------------------------- */

/* The arguments of a macro line, quotes removed, joined by `joint`. */
static void macro_arguments(const char *args, const char *joint, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    while (*args) {
        while (*args == ' ')
            args++;
        if (!*args)
            break;
        const char *end;
        if (*args == '"') {
            end = strchr(++args, '"');
            if (!end)
                end = args + strlen(args);
        } else {
            end = args + strcspn(args, " ");
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%.*s", len ? joint : "",
                                (int)(end - args), args);
        if (len >= cap)
            break;
        args = *end == '"' ? end + 1 : end;
    }
}

/* .IP TAG WIDTH: TAG at TAG_INDENT, the item's text WIDTH further in. */
static void put_item(struct page *p, const char *args)
{
    char text[LINE_MAX_CHARS];
    macro_arguments(args, " ", text, sizeof text);
    int width = IP_WIDTH;
    char *last = strrchr(text, ' ');
    if (last) {
        width = atoi(last + 1);
        *last = '\0';
    }
    end_line(p);
    p->indent = TAG_INDENT;
    put_text(p, text);
    p->indent = TAG_INDENT + width;
    for (int target = p->base + p->indent - 1; p->column < target; p->column++)
        fputc(' ', p->out);         /* put_word adds the last space */
}

/* Handles one macro line of the section; font and paragraph macros only. */
static void put_macro(struct page *p, const char *name, const char *args)
{
    char text[LINE_MAX_CHARS];
    if (strcmp(name, "PP") == 0 || strcmp(name, "LP") == 0 || strcmp(name, "P") == 0) {
        blank_line(p);
        p->indent = 0;
    } else if (strcmp(name, "TP") == 0) {
        if (p->indent == 0)
            blank_line(p);      /* a list after a paragraph */
        end_line(p);
        p->indent = TAG_INDENT;
        p->tag_next = 1;
    } else if (strcmp(name, "IP") == 0) {
        put_item(p, args);
    } else if (strcmp(name, "RS") == 0) {
        end_line(p);
        p->base += 4;
    } else if (strcmp(name, "RE") == 0) {
        end_line(p);
        p->base = p->base >= 4 ? p->base - 4 : 0;
    } else if (strcmp(name, "nf") == 0) {
        end_line(p);
        p->fill = 0;
    } else if (strcmp(name, "fi") == 0) {
        p->fill = 1;
    } else if (strcmp(name, "br") == 0) {
        end_line(p);
    } else if (strcmp(name, "B") == 0 || strcmp(name, "I") == 0) {
        macro_arguments(args, " ", text, sizeof text);
        put_text(p, text);
    } else if (strlen(name) == 2 && strchr("BIR", name[0]) && strchr("BIR", name[1])) {
        macro_arguments(args, "", text, sizeof text);
        put_text(p, text);
    }
}

/* One line of the section: a macro, a comment or text. */
static void put_line(struct page *p, const char *line)
{
    char text[LINE_MAX_CHARS];
    if (strncmp(line, ".\\\"", 3) == 0)
        return;
    unescape(line, text, sizeof text);
    if (line[0] != '.' && line[0] != '\'') {
        put_text(p, text);
        return;
    }
    char name[8] = "";
    size_t n = strcspn(text + 1, " ");
    if (n < sizeof name)
        memcpy(name, text + 1, n), name[n] = '\0';
    put_macro(p, name, text + 1 + n);
}

/* ---- sections ----------------------------------------------------------- */

static int is_section(const char *line)
{
    return strncmp(line, ".SH", 3) == 0 || strncmp(line, ".SS", 3) == 0;
}

/* Whether line starts the subsection called title. */
static int is_subsection(const char *line, const char *title)
{
    char want[256];
    snprintf(want, sizeof want, ".SS \"%s\"", title);
    return strncmp(line, want, strlen(want)) == 0;
}

/* Prints the subsection `title` of the page at path; 0 if it has none. */
static int print_subsection(FILE *page_file, const char *title, FILE *out)
{
    char line[LINE_MAX_CHARS];
    struct page p = { .out = out, .fill = 1 };
    int inside = 0, found = 0;
    rewind(page_file);
    while (fgets(line, sizeof line, page_file)) {
        line[strcspn(line, "\n")] = '\0';
        if (inside && is_section(line))
            break;
        if (inside) {
            put_line(&p, line);
        } else if (is_subsection(line, title)) {
            fprintf(out, "%s\n\n", title);
            inside = found = 1;
        }
    }
    end_line(&p);
    return found;
}

enum nb_status nb_man_print_command(const char *command, int gl_options, FILE *out,
                                    struct nb_error *err)
{
    const char *path = nb_man_page_path();
    FILE *fp = fopen(path, "r");
    if (!fp) {
        char installed[PATH_MAX + 64];
        installed_page(installed, sizeof installed);
        return nb_error_set(err, NB_ERR_IO, "help: no manual page: neither %s nor %s "
                            "can be read (make install puts it in "
                            "PREFIX/share/man/man1)", installed[0] ? installed :
                            "<bindir>/../share/man/man1/glnbody.1", path);
    }
    char title[128];
    snprintf(title, sizeof title, "glnbody %s", command);
    int found = print_subsection(fp, title, out);
    if (found && gl_options) {
        fputc('\n', out);
        print_subsection(fp, NB_MAN_GL_OPTIONS, out);
    }
    fclose(fp);
    if (!found)
        return nb_error_set(err, NB_ERR_IO, "help: the manual page %s has no section "
                            "\"%s\"", path, title);
    return NB_OK;
}
