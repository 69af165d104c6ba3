/* check_cli_text.c - the text users read: papers are cited by author and
 * year, never by our internal file names ("seed 000" .. "seed 004"), in
 * every command's help (`glnbody CMD --help`, `glnbody help CMD`), the
 * manual page, README.md and the output of the commands on small inputs;
 * `glnbody help CMD` prints the manual page's section for every command;
 * and each command's option list in --help equals the one in its section
 * of the manual page, so that the two cannot drift apart.
 * Runs the real binary (GLNBODY_BIN, default build/glnbody) from the project
 * root through cli_harness.h; the output cases need GL (tagged, skipped
 * without it). */
#include <check.h>
#include <ctype.h>

#include "cli_fixtures.h"

#define MAN_PAGE "tools/glnbody/glnbody.1"
#define GL_SECTION "Options of every GL command"
#define MAX_OPTIONS 64

static const char *const commands[] = { "run", "md", "forces", "bench", "precision",
                                        "newton3", "compare", "view", "shaders" };

/* Every command but shaders and view (whose window makes its context)
 * takes the options of every GL command. */
static int takes_gl_options(const char *command)
{
    return strcmp(command, "shaders") != 0 && strcmp(command, "view") != 0;
}

/* ---- "seed 0" in any case ----------------------------------------------- */

/* The first "seed 0" (any case) in text, or NULL. */
static const char *find_seed_file_name(const char *text)
{
    static const char needle[] = "seed 0";
    for (const char *p = text; *p; p++) {
        size_t k = 0;
        while (needle[k] && tolower((unsigned char)p[k]) == needle[k])
            k++;
        if (!needle[k])
            return p;
    }
    return NULL;
}

static void assert_no_seed_file_name(const char *what, const char *text)
{
    const char *hit = find_seed_file_name(text);
    ck_assert_msg(hit == NULL, "%s cites a seed file instead of a paper: \"%.60s\"",
                  what, hit ? hit : "");
}

static void assert_run_cites_papers(const char *what, const struct cli_run *r)
{
    assert_no_seed_file_name(fmt("stdout of %s", what), r->out);
    assert_no_seed_file_name(fmt("stderr of %s", what), r->err);
}

static char *read_project_file(const char *path)
{
    char *text = read_file(path);
    ck_assert_msg(text != NULL, "cannot read %s (run the suite from the project "
                  "root): %s", path, strerror(errno));
    return pool(text);
}

/* ---- option lists ----------------------------------------------------- */

struct option_list {
    char name[MAX_OPTIONS][64];
    int count;
};

static void option_list_add(struct option_list *l, const char *name, size_t len)
{
    ck_assert_int_lt(l->count, MAX_OPTIONS);
    ck_assert_uint_lt(len, sizeof l->name[0]);
    memcpy(l->name[l->count], name, len);
    l->name[l->count++][len] = '\0';
}

static int option_list_has(const struct option_list *l, const char *name)
{
    for (int k = 0; k < l->count; k++)
        if (strcmp(l->name[k], name) == 0)
            return 1;
    return 0;
}

/* The options of `glnbody CMD --help`: the lines "  --NAME ..." after
 * "options:". */
static void help_options(const char *help, struct option_list *l)
{
    const char *p = strstr(help, "\noptions:\n");
    ck_assert_msg(p != NULL, "no options: list in\n%s", help);
    for (p = strchr(p + 1, '\n') + 1; *p; p = strchr(p, '\n') + 1) {
        if (strncmp(p, "  --", 4) == 0)
            option_list_add(l, p + 2, strcspn(p + 2, " \n"));
        if (!strchr(p, '\n'))
            break;
    }
}

/* The option of a .TP tag line of the page ("\fB\-\-NAME\fR ..." or
 * ".B \-\-NAME"), with \- as -, or 0 if the line is no option. */
static int man_option(const char *line, char *name, size_t cap)
{
    if (strncmp(line, ".B ", 3) == 0)
        line += 3;
    else if (strncmp(line, "\\fB", 3) == 0)
        line += 3;
    else
        return 0;
    if (strncmp(line, "\\-\\-", 4) != 0)
        return 0;
    size_t len = 0;
    for (; *line && *line != ' ' && *line != '\n' && strncmp(line, "\\f", 2) != 0;
         line++) {
        if (strncmp(line, "\\-", 2) == 0)
            line++;
        ck_assert_uint_lt(len + 1, cap);
        name[len++] = *line;
    }
    name[len] = '\0';
    return 1;
}

/* The options listed under .TP in the page's subsection `title`. */
static void man_options(const char *page, const char *title, struct option_list *l)
{
    const char *heading = fmt(".SS \"%s\"\n", title);
    const char *p = strstr(page, heading);
    ck_assert_msg(p != NULL, "%s has no section %s", MAN_PAGE, heading);
    int after_tp = 0;
    for (p = strchr(p, '\n') + 1; *p && strncmp(p, ".SS", 3) != 0 &&
         strncmp(p, ".SH", 3) != 0; p = strchr(p, '\n') + 1) {
        char name[64];
        if (after_tp && man_option(p, name, sizeof name))
            option_list_add(l, name, strlen(name));
        after_tp = strncmp(p, ".TP\n", 4) == 0;
        if (!strchr(p, '\n'))
            break;
    }
}

/* Every name of a that b lacks, one a line. */
static const char *missing_from(const struct option_list *a, const struct option_list *b)
{
    const char *text = "";
    for (int k = 0; k < a->count; k++)
        if (!option_list_has(b, a->name[k]))
            text = fmt("%s %s", text, a->name[k]);
    return text;
}

/* ---- help ------------------------------------------------------------- */

START_TEST(test_help_cites_papers)
{
    const char *command = commands[_i];
    struct cli_run r;
    RUN(&r, command, "--help");
    assert_success(&r);
    assert_run_cites_papers(fmt("glnbody %s --help", command), &r);
    cli_run_free(&r);
    RUN(&r, "--help");
    assert_success(&r);
    assert_run_cites_papers("glnbody --help", &r);
    cli_run_free(&r);
}
END_TEST

/* glnbody help CMD: the page's section, as plain text, no seed file names. */
START_TEST(test_help_command)
{
    const char *command = commands[_i];
    struct cli_run r;
    RUN(&r, "help", command);
    assert_success(&r);
    const char *title = fmt("glnbody %s\n", command);
    ck_assert_msg(strncmp(r.out, title, strlen(title)) == 0, "help %s does not start "
                  "with its title:\n%s", command, r.out);
    ck_assert_msg(strchr(r.out, '\\') == NULL, "help %s left a roff escape:\n%s",
                  command, r.out);
    ck_assert_msg(has_option(r.out, "--help"), "help %s lacks --help:\n%s", command,
                  r.out);
    ck_assert_msg(!takes_gl_options(command) || strstr(r.out, GL_SECTION),
                  "help %s lacks the options of every GL command:\n%s", command, r.out);
    assert_run_cites_papers(fmt("glnbody help %s", command), &r);
    cli_run_free(&r);
}
END_TEST

/* The options of --help are those of the page's section (and, for a GL
 * command, those of every GL command). */
START_TEST(test_help_options_match_man_page)
{
    const char *command = commands[_i];
    const char *page = read_project_file(MAN_PAGE);
    struct option_list from_help = { .count = 0 }, from_man = { .count = 0 };
    struct cli_run r;
    RUN(&r, command, "--help");
    assert_success(&r);
    help_options(r.out, &from_help);
    cli_run_free(&r);
    man_options(page, fmt("glnbody %s", command), &from_man);
    if (takes_gl_options(command))
        man_options(page, GL_SECTION, &from_man);
    ck_assert_msg(from_help.count >= 2, "glnbody %s --help lists %d options",
                  command, from_help.count);
    const char *only_help = missing_from(&from_help, &from_man);
    const char *only_man = missing_from(&from_man, &from_help);
    ck_assert_msg(*only_help == '\0' && *only_man == '\0', "glnbody %s: options in "
                  "--help only:%s; in %s only:%s", command, only_help, MAN_PAGE, only_man);
}
END_TEST

START_TEST(test_help_lists_commands)
{
    struct cli_run r;
    RUN(&r, "help");
    assert_success(&r);
    for (int k = 0; k < COUNT(commands); k++)
        ck_assert_msg(strstr(r.out, fmt("\n  %s ", commands[k])) != NULL,
                      "glnbody help does not list %s:\n%s", commands[k], r.out);
    ck_assert_msg(strstr(r.out, "\n  help ") != NULL, "glnbody help does not list "
                  "itself:\n%s", r.out);
    cli_run_free(&r);
}
END_TEST

/* glnbody help refuses an unknown command and a second one: exit 2, one
 * message naming it. */
static const struct {
    const char *args[4];
    const char *names;
} refused_help[] = {
    { { "help", "frobnicate", NULL }, "unknown command 'frobnicate'" },
    { { "help", "run", "md", NULL }, "not 'md' too" },
};

START_TEST(test_help_refused)
{
    struct cli_run r;
    cli_run_in(&r, NULL, NULL, refused_help[_i].args);
    const char *needles[] = { refused_help[_i].names, NULL };
    assert_failure(&r, 2, needles);
    cli_run_free(&r);
}
END_TEST

/* man -l renders every command's section (MANPAGER=cat, no terminal). */
START_TEST(test_man_renders_every_command)
{
    const char *env[] = { "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100", "LC_ALL=C.UTF-8",
                          NULL };
    const char *const args[] = { "-l", MAN_PAGE, NULL };
    const char *saved = g_bin;
    g_bin = "/usr/bin/man";
    ck_assert_msg(access(g_bin, X_OK) == 0, "%s is missing (apt-get install man-db)",
                  g_bin);
    struct cli_run r;
    cli_run_in(&r, NULL, env, args);
    g_bin = saved;
    ck_assert_msg(r.status == 0, "man -l %s: exit %d: %s", MAN_PAGE, r.status, r.err);
    ck_assert_msg(*r.err == '\0', "man -l %s warns: %s", MAN_PAGE, r.err);
    for (int k = 0; k < COUNT(commands); k++)
        ck_assert_msg(strstr(r.out, fmt("glnbody %s\n", commands[k])) != NULL,
                      "man -l shows no section glnbody %s", commands[k]);
    assert_no_seed_file_name("man -l " MAN_PAGE, r.out);
    cli_run_free(&r);
}
END_TEST

START_TEST(test_man_page_cites_papers)
{
    assert_no_seed_file_name(MAN_PAGE, read_project_file(MAN_PAGE));
}
END_TEST

START_TEST(test_readme_cites_papers)
{
    assert_no_seed_file_name("README.md", read_project_file("README.md"));
}
END_TEST

/* ---- output of the commands on small inputs ----------------------------- */

/* The command lines whose output is checked: small, so fast on llvmpipe. */
static const char *const small_runs[][12] = {
    { "run", "--n", "64", "--t-end", "0.0625", NULL },
    { "md", "--cells", "2", "--steps", "5", "--cutoff", "1.5", "--shift", NULL },
    { "compare", "--n", "256", NULL },
    { "bench", "--n", "256", "--runs", "5", "--warmup", "1", NULL },
    { "precision", "--n", "256", "--runs", "1", "--warmup", "0", NULL },
    { "precision", "--ic", "lj16", "--n", "256", "--runs", "1", "--warmup", "0",
      "--modes", "AH", NULL },
    { "newton3", "--cells", "1", "--runs", "1", "--warmup", "0", NULL },
};

START_TEST(test_output_cites_papers)
{
    const char *const *args = small_runs[_i];
    const char *what = "glnbody";
    for (const char *const *a = args; *a; a++)
        what = fmt("%s %s", what, *a);
    struct cli_run r;
    cli_run_in(&r, NULL, NULL, args);
    ck_assert_msg(r.status == 0, "%s: exit %d: %s", what, r.status, r.err);
    ck_assert_msg(*r.out != '\0', "%s printed nothing", what);
    assert_run_cites_papers(what, &r);
    cli_run_free(&r);
}
END_TEST

static Suite *cli_text_suite(void)
{
    Suite *s = suite_create("cli_text");
    TCase *help = tcase(s, "help");
    tcase_add_loop_test(help, test_help_cites_papers, 0, COUNT(commands));
    tcase_add_loop_test(help, test_help_command, 0, COUNT(commands));
    tcase_add_loop_test(help, test_help_options_match_man_page, 0, COUNT(commands));
    tcase_add_test(help, test_help_lists_commands);
    tcase_add_loop_test(help, test_help_refused, 0, COUNT(refused_help));
    tcase_add_test(help, test_man_renders_every_command);
    tcase_add_test(help, test_man_page_cites_papers);
    tcase_add_test(help, test_readme_cites_papers);
    TCase *output = tcase(s, "output");
    tcase_add_loop_test(output, test_output_cites_papers, 0, COUNT(small_runs));
    tcase_set_tags(output, NB_TEST_GL_TAG);
    return s;
}

int main(void)
{
    return cli_harness_main("check_cli_text", cli_text_suite, 1);
}
