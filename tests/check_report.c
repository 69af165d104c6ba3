/* check_report.c - glnbody bench --report and glnbody report: a report
 * parses back (jansson) with its machine, software and rows; two reports
 * (OpenGL and OpenGL ES) print side by side with their ratio, and so
 * does one of the browser page (tools/web/); --plot
 * writes a PNG; a truncated report, a non-JSON file, JSON that is no
 * report and a report of another version each get one clear error; a
 * report that cannot be written leaves no file.  Also the API levels from
 * the command line: compare's default list skips compute on OpenGL 3.3
 * and says why, a compute backend named on 3.3 is an error.
 * Runs the real binary (GLNBODY_BIN) through cli_harness.h at small N;
 * skipped without GL. */
#include <check.h>
#include <jansson.h>

#include "cli_fixtures.h"

/* One small report: GA and GAJ on the CPU and both GPU pipelines. */
static const char *make_report(const char *name, const char *api)
{
    struct cli_run r;
    const char *path = fmt("%s/%s", g_dir, name);
    RUN(&r, "bench", "--report", path, "--kernel", "ga,gaj", "--backend",
        "cpu,compute,fragment", "--n", "61,256", "--runs", "5", "--warmup", "1", "--api", api,
        "--quiet");
    ck_assert_msg(r.status == 0, "bench --report: exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "GAJ") && strstr(r.out, "fragment"), "%s", r.out);
    cli_run_free(&r);
    return path;
}

static json_t *load(const char *path)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    ck_assert_msg(root != NULL, "%s: %s (line %d)", path, jerr.text, jerr.line);
    return root;
}

START_TEST(test_report_parses_back)
{
    const char *path = make_report("gl.json", "gl");
    json_t *root = load(path);
    const char *format, *api, *renderer, *vendor, *glsl, *command, *commit, *cpu, *kernel;
    int version, cores, es;
    json_t *rows, *limits;
    ck_assert_msg(json_unpack(root, "{s:s, s:i, s:{s:s, s:s}, s:{s:{s:s, s:i}, s:{s:s}, "
                              "s:{s:s, s:b, s:s, s:s, s:s, s:o}}, s:o}",
                              "format", &format, "version", &version,
                              "software", "command", &command, "commit", &commit,
                              "machine", "cpu", "model", &cpu, "logical_cores", &cores,
                              "os", "kernel", &kernel,
                              "gl", "api", &api, "es", &es, "renderer", &renderer,
                              "vendor", &vendor, "glsl_version", &glsl, "limits", &limits,
                              "rows", &rows) == 0, "report lacks a section");
    ck_assert_str_eq(format, "glnbody-report");
    ck_assert_int_eq(version, 1);
    ck_assert_int_eq(es, 0);
    ck_assert_ptr_nonnull(strstr(api, "OpenGL"));
    ck_assert_ptr_nonnull(strstr(command, "glnbody bench --report"));
    ck_assert_ptr_nonnull(strstr(command, "--kernel ga,gaj"));
    ck_assert(cores > 0 && commit[0] && cpu[0] && kernel[0] && vendor[0] && glsl[0]);
    ck_assert(json_integer_value(json_object_get(limits, "max_texture_size")) > 0);
    /* 2 kernels x 2 N x 3 backends, each with its numbers. */
    ck_assert_int_eq(json_array_size(rows), 12);
    size_t k;
    json_t *row;
    json_array_foreach(rows, k, row) {
        double mn, md, mx, rate, err;
        const char *unit, *backend;
        json_t *gflops;
        ck_assert_msg(json_unpack(row, "{s:s, s:{s:F, s:F, s:F}, s:F, s:s, s:o, s:{s:F}}",
                                  "backend", &backend, "seconds", "min", &mn, "median", &md,
                                  "max", &mx, "rate", &rate, "rate_unit", &unit,
                                  "gflops", &gflops, "error", "max", &err) == 0,
                      "row %zu malformed", k);
        ck_assert(mn > 0 && mn <= md && md <= mx && rate > 0);
        ck_assert_str_eq(unit, "interactions/s");
        ck_assert(json_number_value(gflops) > 0);
        /* check_gpu's bound: 1e-5 of the pair-term magnitudes. */
        ck_assert_msg(err >= 0 && err <= 1e-5, "row %zu (%s): error %g", k, backend, err);
    }
    json_decref(root);
}
END_TEST

START_TEST(test_two_reports_side_by_side)
{
    struct cli_run r;
    const char *a = make_report("gl.json", "gl"), *b = make_report("es.json", "gles");
    const char *png = fmt("%s/rates.png", g_dir);
    RUN(&r, "report", a, b, "--plot", png);
    ck_assert_msg(r.status == 0, "report: exit %d: %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "[1] "));
    ck_assert_ptr_nonnull(strstr(r.out, "[2] "));
    ck_assert_ptr_nonnull(strstr(r.out, "OpenGL ES 3."));
    ck_assert_ptr_nonnull(strstr(r.out, "core"));
    /* Every kernel and N a line, both machines on it. */
    char **lines;
    char *text = xstrdup(r.out);
    size_t count = split_lines(text, &lines), rows = 0;
    for (size_t i = 0; i < count; i++)
        if (strncmp(lines[i], "GA ", 3) == 0 || strncmp(lines[i], "GAJ ", 4) == 0) {
            rows++;
            ck_assert_msg(strchr(strchr(lines[i], '|') + 1, '|'), "one machine: %s", lines[i]);
        }
    ck_assert_int_eq(rows, 4);
    char *image = read_file(png);
    ck_assert_ptr_nonnull(image);
    ck_assert(memcmp(image, "\x89PNG", 4) == 0);
    free(image);
    free(lines);
    free(text);
    cli_run_free(&r);
}
END_TEST

/* A report as the browser page writes it (tools/web/page.js): its machine
 * is the browser's (no os, no EGL; the CPU unknown), its seconds wall
 * time; it reads beside a native one, each row under its machine. */
static const char browser_report[] =
    "{\"format\": \"glnbody-report\", \"version\": 1, \"created\": \"2026-11-28T16:00:00Z\",\n"
    " \"software\": {\"name\": \"glnbody\", \"version\": \"0.12.0\", \"commit\": \"unknown\",\n"
    "  \"command\": \"glnbody web page: benchmark this device\"},\n"
    " \"machine\": {\"cpu\": {\"model\": \"unknown (a browser does not tell)\",\n"
    "  \"logical_cores\": 8}, \"browser\": {\"user_agent\": \"Mozilla/5.0\",\n"
    "  \"hardware_concurrency\": 8}, \"gl\": {\"api\": \"WebGL 2 (OpenGL ES 3.0)\",\n"
    "  \"es\": true, \"vendor\": \"Qualcomm\", \"renderer\": \"Adreno (TM) 740\"}},\n"
    " \"input\": {\"softening\": 0.01, \"seed\": 1, \"runs\": 5, \"warmup\": 1},\n"
    " \"rows\": [{\"kernel\": \"GA\", \"backend\": \"fragment\", \"variant\": \"4x4-r4-p1\",\n"
    "  \"precision\": \"A\", \"n\": 256, \"runs\": 5, \"seconds\": {\"min\": 0.001,\n"
    "  \"median\": 0.002, \"max\": 0.003}, \"rate\": 32768000, \"rate_unit\": "
    "\"interactions/s\",\n  \"gflops\": 0.65536, \"error\": {\"max\": 3e-07, \"acc\": 3e-07, "
    "\"pot\": 1e-07,\n  \"jerk\": null, \"sampled_particles\": 256}}],\n"
    " \"skipped\": []}\n";

START_TEST(test_browser_report_beside_native)
{
    struct cli_run r;
    const char *native = make_report("gl.json", "gl");
    const char *web = fmt("%s/web.json", g_dir);
    write_file(web, browser_report);
    RUN(&r, "report", native, web);
    ck_assert_msg(r.status == 0, "report: exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "[2] Adreno (TM) 740, WebGL 2 (OpenGL ES 3.0)"), "%s", r.out);
    const char *ga = strstr(r.out, "\nGA           256 |");
    ck_assert_msg(ga, "no GA row at N = 256: %s", r.out);
    const char *end = strchr(ga + 1, '\n');
    const char *second = strchr(strchr(ga, '|') + 1, '|');
    ck_assert_msg(second && second < end && strstr(second, "3.277e+07") &&
                  strstr(second, "4x4-r4-p1") < end, "the browser's row: %.*s",
                  (int)(end - ga), ga);
    cli_run_free(&r);
}
END_TEST

/* Each bad file: exit 1, one line naming the file and what is wrong. */
START_TEST(test_bad_reports)
{
    const char *good = make_report("gl.json", "gl");
    char *text = read_file(good);
    ck_assert_ptr_nonnull(text);
    const char *cut = fmt("%s/cut.json", g_dir), *plain = fmt("%s/plain.json", g_dir);
    const char *other = fmt("%s/other.json", g_dir), *v2 = fmt("%s/v2.json", g_dir);
    text[strlen(text) / 2] = '\0';
    write_file(cut, text);
    write_file(plain, "N interactions/s\n1024 1e9\n");
    write_file(other, "{\"rows\": []}\n");
    write_file(v2, "{\"format\": \"glnbody-report\", \"version\": 2, \"rows\": []}\n");
    free(text);
    const char *files[] = { cut, plain, other, v2 };
    const char *why[] = { "cut short", "not JSON", "not a glnbody report", "version 2" };
    for (int k = 0; k < 4; k++) {
        struct cli_run r;
        RUN(&r, "report", good, files[k]);
        ck_assert_msg(r.status == 1, "%s: exit %d", files[k], r.status);
        ck_assert_msg(strstr(r.err, files[k]) && strstr(r.err, why[k]), "%s: %s", files[k],
                      r.err);
        ck_assert_msg(strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "more than one "
                      "line: %s", r.err);
        ck_assert_str_eq(r.out, "");
        cli_run_free(&r);
    }
}
END_TEST

/* A report that cannot be written fails before any measuring. */
START_TEST(test_report_unwritable)
{
    struct cli_run r;
    const char *path = fmt("%s/no/such/dir/r.json", g_dir);
    RUN(&r, "bench", "--report", path, "--n", "8", "--quiet");
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "r.json"));
    ck_assert_str_eq(r.out, "");
    ck_assert(!path_exists(path));
    cli_run_free(&r);
    RUN(&r, "bench", "--report", fmt("%s/r.json", g_dir), "--kernel", "xyz");
    ck_assert_int_eq(r.status, 2);
    ck_assert(!path_exists(fmt("%s/r.json", g_dir)));
    cli_run_free(&r);
}
END_TEST

/* OpenGL 3.3 (held there with --gl-version): compare's default list says
 * why compute is skipped; compute named is an error. */
START_TEST(test_levels_from_the_command_line)
{
    struct cli_run r;
    RUN(&r, "compare", "--n", "61", "--gl-version", "3.3");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "compute   skipped: compute needs OpenGL 4.3 or OpenGL ES "
                         "3.1; this context is OpenGL 3.3 ("), "%s", r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "fragment "));
    ck_assert_ptr_nonnull(strstr(r.err, "OpenGL 3.3 core"));
    cli_run_free(&r);
    RUN(&r, "compare", "--n", "61", "--gl-version", "3.3", "--backends", "compute");
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "compute needs OpenGL 4.3 or OpenGL ES 3.1"));
    cli_run_free(&r);
    RUN(&r, "compare", "--n", "8", "--gl-version", "2.1");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--gl-version"));
    cli_run_free(&r);
    RUN(&r, "compare", "--n", "8", "--api", "vulkan");
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--api"));
    cli_run_free(&r);
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase(s, "report");
    tcase_set_tags(tc, NB_TEST_GL_TAG);
    tcase_add_test(tc, test_report_parses_back);
    tcase_add_test(tc, test_two_reports_side_by_side);
    tcase_add_test(tc, test_browser_report_beside_native);
    tcase_add_test(tc, test_bad_reports);
    tcase_add_test(tc, test_report_unwritable);
    tcase_add_test(tc, test_levels_from_the_command_line);
    return s;
}

int main(void)
{
    return cli_harness_main("check_report", report_suite, 1);
}
