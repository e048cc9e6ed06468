/* test_plot.c - the sweep plots and tables (interp/plot.c) on synthetic
 * sweeps: two problem sizes given out of order, processor counts 1 to 1024,
 * one point, all times 0, no point, more labels than the palette has
 * colours, labels with XML specials, control characters and malformed
 * UTF-8. The SVG is checked as text (the curves, the bar segments, the
 * legends, the axis ticks, the escaping, no NaN) and, when python3 is
 * there, parsed as XML; the tables for their columns and speedups, the JSON
 * parsed by python3. Non-finite times and bad processor counts must be
 * refused with nothing written. */
#include <config.h>

#define _XOPEN_SOURCE 700
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "plot.h"
#include "tap.h"

static void skip(const char *what, const char *why)
{
    tap_n++;
    printf("ok %d - %s # SKIP %s\n", tap_n, what, why);
}

/* ---- helpers ---- */

static char dir[256];
static int have_python;

static void path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

typedef int (*Writer)(FILE *, const Sweep *);

/* Writes s with w into the file `name` of the temporary directory; the
 * writer's result in *rc, the file's text returned (to be freed). */
static char *write_to(Writer w, const Sweep *s, const char *name, int *rc)
{
    char f[512];
    path(f, sizeof f, name);
    FILE *out = fopen(f, "w");
    if (!out) {
        *rc = -2;
        return NULL;
    }
    *rc = w(out, s);
    fclose(out);
    return tap_slurp(f);
}

static int count(const char *text, const char *word)
{
    int n = 0;
    for (const char *s = text; s && (s = strstr(s, word)); s += strlen(word))
        n++;
    return n;
}

/* Case-blind: "nan", "NaN", "inf", "Infinity" are all caught. */
static int has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *s = text; s && *s; s++)
        if (strncasecmp(s, word, n) == 0)
            return 1;
    return 0;
}

/* python3 on a file: the script exits 0 when the file is as expected. */
static void python_check(const char *script, const char *name, const char *what)
{
    if (!have_python) {
        skip(what, "python3 not found");
        return;
    }
    char f[512], cmd[4096];
    path(f, sizeof f, name);
    snprintf(cmd, sizeof cmd, "python3 -c '%s' '%s' 2>&1", script, f);
    int st = system(cmd);
    check(st == 0, what);
}

#define PARSE_XML "import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])"
#define SVG_ROOT                                                                              \
    "import sys,xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); "              \
    "sys.exit(0 if r.tag==\"{http://www.w3.org/2000/svg}svg\" and r.get(\"viewBox\") and "    \
    "r.get(\"width\") and r.get(\"height\") and r.get(\"version\")==\"1.1\" else 1)"

/* The number of rows of each part that should become a bar segment. */
static int nonzero_parts(const Sweep *s)
{
    int n = 0;
    for (int i = 0; i < s->n; i++)
        for (int k = 0; k < SWEEP_NPART; k++)
            n += s->pt[i].part[k] > 0;
    return n;
}

/* The x coordinates of the first polyline's points increase. */
static int first_curve_sorted(const char *svg)
{
    const char *p = strstr(svg, "<polyline");
    p = p ? strstr(p, "points=\"") : NULL;
    if (!p)
        return 0;
    p += strlen("points=\"");
    double last = -1;
    while (*p && *p != '"') {
        char *end;
        double x = strtod(p, &end);
        if (end == p || *end != ',' || x <= last)
            return 0;
        last = x;
        strtod(end + 1, &end);
        p = end;
        while (*p == ' ')
            p++;
    }
    return 1;
}

/* CSV fields of each line, quotes respected; -1 when lines differ. */
static int csv_columns(const char *csv)
{
    int cols = -1, n = 1, quoted = 0;
    for (const char *p = csv; *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == ',' && !quoted)
            n++;
        else if (*p == '\n' && !quoted) {
            if (cols >= 0 && n != cols)
                return -1;
            cols = n;
            n = 1;
        }
    }
    return cols;
}

/* ---- the sweeps ---- */

/* Two problem sizes, the points out of order; the parts of n=512 on 1
 * processor have no communication and no waiting. */
static const SweepPoint two_sizes[] = {
    {4, "n=256", 0.30, {0.20, 0.05, 0.02, 0.02}},
    {1, "n=512", 4.00, {4.00, 0, 0.00, 0}},
    {1, "n=256", 1.00, {0.98, 0.00, 0.02, 0}},
    {8, "n=512", 0.60, {0.50, 0.05, 0.02, 0.01}},
    {2, "n=256", 0.55, {0.49, 0.03, 0.02, 0.01}},
    {2, "n=512", 2.10, {2.00, 0.05, 0.02, 0.01}},
    {8, "n=256", 0.20, {0.10, 0.06, 0.02, 0.02}},
    {4, "n=512", 1.10, {1.00, 0.05, 0.02, 0.01}},
};

static void test_two_sizes(void)
{
    SweepPoint copy[8];
    memcpy(copy, two_sizes, sizeof copy);
    Sweep s = {"examples/laplace.f90", "ipsc860", NULL, copy, 8};
    int rc;
    char *svg = write_to(sweep_svg, &s, "two.svg", &rc);
    check(rc == 0 && svg, "two sizes: sweep_svg returns 0");
    python_check(PARSE_XML, "two.svg", "two sizes: the SVG is well-formed XML");
    python_check(SVG_ROOT, "two.svg",
                 "two sizes: the root is svg in the SVG namespace, with size and viewBox");
    check(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL,
          "two sizes: the svg element carries the namespace");
    check(count(svg, "<polyline") == 2, "two sizes: one polyline per label");
    check(count(svg, "<rect") == nonzero_parts(&s) && count(svg, "<rect class=\"seg\"") ==
              nonzero_parts(&s), "two sizes: one rect per nonzero part of a point");
    check(count(svg, "class=\"total\"") == 8, "two sizes: a total mark on each bar");
    check(count(svg, ">n=256</text>") == 2 && count(svg, ">n=512</text>") == 2,
          "two sizes: each label in the legend and under its bars");
    int parts = 1;
    for (int k = 0; k < SWEEP_NPART; k++) {
        char t[64];
        snprintf(t, sizeof t, "class=\"legend\">%s</text>", sweep_part_name[k]);
        parts = parts && count(svg, t) == 1;
    }
    check(parts, "two sizes: the four parts in the bars' legend");
    check(strstr(svg, "laplace.f90") && strstr(svg, "ipsc860"),
          "two sizes: the program and the SAG in the heading");
    check(strstr(svg, "processors (logarithmic)") != NULL,
          "two sizes: counts 1 to 8 span more than a factor 4: a logarithmic axis");
    check(first_curve_sorted(svg), "two sizes: the curve's points ordered by processors");
    check(memcmp(copy, two_sizes, sizeof copy) == 0, "two sizes: the caller's array is not sorted");
    check(!has_word(svg, "nan") && !has_word(svg, "inf"), "two sizes: no NaN or infinity");
    check(strstr(svg, " s</text>") != NULL, "two sizes: time labels in seconds");
    free(svg);
}

/* 1 to 1024 processors: a logarithmic axis with a tick at each power. */
static void test_log_axis(void)
{
    SweepPoint p[11];
    for (int i = 0; i < 11; i++) {
        double t = 0.002 / (1 << i) + 1e-5 * i;
        p[10 - i] = (SweepPoint){1 << i, "", t, {t * 0.8, t * 0.1, t * 0.05, t * 0.05}};
    }
    Sweep s = {"lfk1.f90", "ipsc860", "LFK 1 on the iPSC/860", p, 11};
    int rc;
    char *svg = write_to(sweep_svg, &s, "log.svg", &rc);
    check(rc == 0 && svg, "1..1024: sweep_svg returns 0");
    python_check(PARSE_XML, "log.svg", "1..1024: well-formed XML");
    check(strstr(svg, "processors (logarithmic)") != NULL, "1..1024: the axis is logarithmic");
    int ticks = 1;
    for (int i = 0; i <= 10; i++) {
        char t[64];
        snprintf(t, sizeof t, "font-size=\"11\" text-anchor=\"middle\">%d</text>", 1 << i);
        ticks = ticks && strstr(svg, t);
    }
    check(ticks, "1..1024: a tick label at each power of two");
    check(count(svg, "<polyline") == 1 && strstr(svg, ">predicted time</text>"),
          "1..1024: one curve, with a legend though it has no label");
    check(strstr(svg, " ms</text>") != NULL, "1..1024: times of 2 ms labelled in ms");
    check(strstr(svg, "LFK 1 on the iPSC/860") != NULL, "1..1024: the title given");
    check(first_curve_sorted(svg), "1..1024: the points ordered by processors");
    check(!has_word(svg, "nan") && !has_word(svg, "inf"), "1..1024: no NaN or infinity");
    free(svg);

    /* 8, 4, 2: a factor 4, so linear */
    Sweep lin = {"lfk1.f90", "ipsc860", NULL, p + 7, 3};
    svg = write_to(sweep_svg, &lin, "lin.svg", &rc);
    check(rc == 0 && !strstr(svg, "logarithmic") &&
              strstr(svg, "font-size=\"11\" text-anchor=\"middle\">6</text>"),
          "2..8: a linear axis, with nice steps (a tick at 6)");
    free(svg);
}

static void test_edges(void)
{
    int rc;
    SweepPoint one = {4, "n=64", 0.5, {0.3, 0.1, 0.05, 0.05}};
    Sweep s1 = {"a.f90", "ipsc860", NULL, &one, 1};
    char *svg = write_to(sweep_svg, &s1, "one.svg", &rc);
    check(rc == 0, "one point: sweep_svg returns 0");
    python_check(PARSE_XML, "one.svg", "one point: well-formed XML");
    check(count(svg, "<polyline") == 1 && count(svg, "<rect") == 4 && count(svg, "<circle") == 2,
          "one point: one curve, a marker and its legend's, four segments");
    check(!has_word(svg, "nan") && !has_word(svg, "inf"), "one point: no NaN or infinity");
    free(svg);

    SweepPoint zero[3] = {{1, "", 0, {0}}, {2, "", 0, {0}}, {4, "", 0, {0}}};
    Sweep s0 = {"z.f90", "ipsc860", NULL, zero, 3};
    svg = write_to(sweep_svg, &s0, "zero.svg", &rc);
    check(rc == 0, "all times 0: sweep_svg returns 0");
    python_check(PARSE_XML, "zero.svg", "all times 0: well-formed XML");
    check(count(svg, "<rect") == 0 && count(svg, "class=\"total\"") == 0 &&
              strstr(svg, ">1.0 s</text>"),
          "all times 0: no segment, no mark, an axis to 1 s");
    check(!has_word(svg, "nan") && !has_word(svg, "inf"), "all times 0: no NaN or infinity");
    free(svg);
    char *txt = write_to(sweep_table_text, &s0, "zero.txt", &rc);
    check(rc == 0 && count(txt, "    1.000      1.000\n") == 1 && count(txt, " -") == 4,
          "all times 0: speedup 1 at the base, none elsewhere");
    free(txt);
    char *json = write_to(sweep_table_json, &s0, "zero.json", &rc);
    check(rc == 0 && count(json, "\"speedup\": null, \"efficiency\": null") == 2,
          "all times 0: JSON null for the speedups without value");
    free(json);
    python_check("import sys,json; json.load(open(sys.argv[1]))", "zero.json",
                 "all times 0: the JSON parses");

    Sweep none = {"e.f90", "ipsc860", NULL, NULL, 0};
    svg = write_to(sweep_svg, &none, "none.svg", &rc);
    check(rc == 0 && count(svg, "<polyline") == 0 && count(svg, "<rect") == 0,
          "no point: the empty axes");
    python_check(PARSE_XML, "none.svg", "no point: well-formed XML");
    free(svg);
    json = write_to(sweep_table_json, &none, "none.json", &rc);
    check(rc == 0 && strstr(json, "\"points\": []"), "no point: an empty JSON array");
    free(json);
    char *csv = write_to(sweep_table_csv, &none, "none.csv", &rc);
    check(rc == 0 && count(csv, "\n") == 1, "no point: the CSV header alone");
    free(csv);
}

/* More labels than colours: the colours come round again, dashed. */
static void test_many_labels(void)
{
    enum { NL = 11 };
    SweepPoint p[NL * 2];
    char names[NL][16];
    for (int l = 0; l < NL; l++) {
        snprintf(names[l], sizeof names[l], "n=%d", 64 * (l + 1));
        for (int j = 0; j < 2; j++) {
            double t = 0.01 * (l + 1) / (j + 1);
            p[2 * l + j] = (SweepPoint){1 << (2 * j), names[l], t, {t / 2, t / 4, t / 8, t / 8}};
        }
    }
    Sweep s = {"big.f90", "ipsc860", NULL, p, NL * 2};
    int rc;
    char *svg = write_to(sweep_svg, &s, "many.svg", &rc);
    check(rc == 0, "11 labels: sweep_svg returns 0");
    python_check(PARSE_XML, "many.svg", "11 labels: well-formed XML");
    check(count(svg, "<polyline") == NL, "11 labels: one polyline each");
    check(count(svg, "<rect") == NL * 2 * 4, "11 labels: four segments for each point");
    const char *blue = "<polyline class=\"curve\" fill=\"none\" stroke-width=\"2\" "
                       "stroke=\"#0072B2\"";
    char dashed[128];
    snprintf(dashed, sizeof dashed, "%s stroke-dasharray=", blue);
    check(count(svg, blue) == 2 && count(svg, dashed) == 1,
          "11 labels: the first colour again, dashed the second time");
    int legends = 1;
    for (int l = 0; l < NL; l++) {
        char t[256];
        snprintf(t, sizeof t, "class=\"legend\">%s</text>", names[l]);
        legends = legends && count(svg, t) == 1;
    }
    check(legends, "11 labels: each in the legend");
    free(svg);
}

static void test_escaping(void)
{
    SweepPoint p[2] = {{1, "a<b&\"c\"", 1, {1, 0, 0, 0}},
                       {2, "a<b&\"c\"", 0.6, {0.5, 0.05, 0.05, 0}}};
    Sweep s = {"it's <x>.f90", "m&m", "A \"quoted\" <title>", p, 2};
    int rc;
    char *svg = write_to(sweep_svg, &s, "esc.svg", &rc);
    check(rc == 0, "escaping: sweep_svg returns 0");
    python_check(PARSE_XML, "esc.svg", "escaping: well-formed XML");
    check(strstr(svg, "a&lt;b&amp;&quot;c&quot;") && !strstr(svg, "a<b") &&
              strstr(svg, "it&apos;s &lt;x&gt;.f90") && strstr(svg, "m&amp;m") &&
              strstr(svg, "A &quot;quoted&quot; &lt;title&gt;"),
          "escaping: &, <, >, \" and ' as entities in labels, program, SAG and title");
    if (have_python) {
        char f[512], cmd[1024];
        path(f, sizeof f, "esc.svg");
        snprintf(cmd, sizeof cmd,
                 "python3 -c 'import sys,xml.etree.ElementTree as E; "
                 "t=[e.text for e in E.parse(sys.argv[1]).iter() if e.get(\"class\")==\"legend\"]; "
                 "sys.exit(0 if \"a<b&\\\"c\\\"\" in t else 1)' '%s'",
                 f);
        check(system(cmd) == 0, "escaping: the parsed legend reads a<b&\"c\"");
    } else
        skip("escaping: the parsed legend reads a<b&\"c\"", "python3 not found");
    free(svg);

    /* control characters and malformed UTF-8 cannot be in XML at all */
    SweepPoint q = {1, "bad\x01\xff\xc3(x \xc3\xa9t\xc3\xa9", 1, {1, 0, 0, 0}};
    Sweep t = {"b.f90", "ipsc860", NULL, &q, 1};
    svg = write_to(sweep_svg, &t, "bad.svg", &rc);
    check(rc == 0 && strstr(svg, "bad??" "?(x \xc3\xa9t\xc3\xa9"),
          "escaping: control bytes and malformed UTF-8 as '?', good UTF-8 kept");
    python_check(PARSE_XML, "bad.svg", "escaping: still well-formed XML");
    free(svg);
}

static void test_refusals(void)
{
    const char *what[] = {"a NaN total", "an infinite part", "a processor count of 0"};
    Writer w[] = {sweep_svg, sweep_table_text, sweep_table_csv, sweep_table_json};
    const char *wn[] = {"sweep_svg", "sweep_table_text", "sweep_table_csv", "sweep_table_json"};
    for (int c = 0; c < 3; c++) {
        SweepPoint p[2] = {{1, "", 1, {1, 0, 0, 0}}, {2, "", 0.5, {0.5, 0, 0, 0}}};
        if (c == 0)
            p[1].total = NAN;
        else if (c == 1)
            p[0].part[SWEEP_WAIT] = INFINITY;
        else
            p[1].np = 0;
        Sweep s = {"r.f90", "ipsc860", NULL, p, 2};
        check(sweep_invalid(&s) != NULL, what[c]);
        for (int k = 0; k < 4; k++) {
            int rc;
            char t[256];
            char *text = write_to(w[k], &s, "refused", &rc);
            snprintf(t, sizeof t, "%s: -1 and nothing written for %s", wn[k], what[c]);
            check(rc == -1 && text && !*text, t);
            free(text);
        }
    }
    Sweep bad = {"r.f90", "ipsc860", NULL, NULL, 3};
    check(sweep_invalid(&bad) != NULL, "points counted but no array");
    Sweep neg = {"r.f90", "ipsc860", NULL, NULL, -1};
    check(sweep_invalid(&neg) != NULL, "a negative number of points");
    Sweep good = {"r.f90", "ipsc860", NULL, two_sizes, 8};
    check(sweep_invalid(&good) == NULL, "a good sweep is valid");
}

static void test_tables(void)
{
    Sweep s = {"examples/laplace.f90", "ipsc860", NULL, two_sizes, 8};
    int rc;
    char *txt = write_to(sweep_table_text, &s, "two.txt", &rc);
    check(rc == 0 && txt, "text: returns 0");
    check(strstr(txt, "label") && strstr(txt, "speedup") && strstr(txt, "efficiency") &&
              strstr(txt, "laplace.f90") && strstr(txt, "ipsc860"),
          "text: the heading and the column names");
    /* n=256 first (it appears first), its base np=1 total 1.0 */
    const char *a = strstr(txt, "n=256"), *b = strstr(txt, "n=512");
    check(a && b && a < b, "text: the labels in the order they first appear");
    check(strstr(txt, "n=256       1     1.000000") && strstr(txt, "n=512       1     4.000000"),
          "text: each label starts at its smallest np");
    check(count(txt, "    1.000      1.000\n") == 2, "text: speedup and efficiency 1 at the base");
    check(strstr(txt, "n=256       8     0.200000") && strstr(txt, "   5.000      0.625\n"),
          "text: n=256 on 8: speedup 5, efficiency 0.625");
    check(count(txt, "\n\n") == 1, "text: a blank line between the labels");
    free(txt);

    SweepPoint nol[2] = {{2, NULL, 1, {1, 0, 0, 0}}, {1, NULL, 2, {2, 0, 0, 0}}};
    Sweep s2 = {"p.f90", "ipsc860", NULL, nol, 2};
    txt = write_to(sweep_table_text, &s2, "nolabel.txt", &rc);
    check(rc == 0 && !strstr(txt, "label") && strstr(txt, "\n     1     2.000000"),
          "text: no label column when no point has one");
    free(txt);

    const char *header =
        "label,np,total,computation,communication,overhead,waiting,speedup,efficiency\n";
    char *csv = write_to(sweep_table_csv, &s, "two.csv", &rc);
    check(rc == 0 && strncmp(csv, header, strlen(header)) == 0, "CSV: the header");
    check(csv_columns(csv) == 9 && count(csv, "\n") == 9, "CSV: 9 columns on every one of 9 lines");
    check(strstr(csv, "\n\"n=256\",1,1,0.98,0,0.02,0,1,1\n") &&
              strstr(csv, "\n\"n=512\",1,4,4,0,0,0,1,1\n"),
          "CSV: speedup 1 at each label's smallest np");
    check(strstr(csv, "\n\"n=256\",8,0.2,0.1,0.06,0.02,0.02,5,0.625\n") != NULL,
          "CSV: speedup and efficiency of n=256 on 8");
    free(csv);
    SweepPoint q[2] = {{1, "say \"hi\", x", 0, {0}}, {2, "say \"hi\", x", 0, {0}}};
    Sweep s3 = {"q.f90", "ipsc860", NULL, q, 2};
    csv = write_to(sweep_table_csv, &s3, "quote.csv", &rc);
    check(rc == 0 && strstr(csv, "\n\"say \"\"hi\"\", x\",1,0,0,0,0,0,1,1\n") &&
              strstr(csv, "\n\"say \"\"hi\"\", x\",2,0,0,0,0,0,,\n") && csv_columns(csv) == 9,
          "CSV: quotes doubled, commas quoted, no value as an empty field");
    free(csv);

    char *json = write_to(sweep_table_json, &s, "two.json", &rc);
    check(rc == 0 && strstr(json, "{\"program\": \"examples/laplace.f90\", \"sag\": \"ipsc860\""),
          "JSON: returns 0, program and sag first");
    check(!has_word(json, "nan") && !has_word(json, "inf"), "JSON: no NaN or infinity");
    free(json);
    python_check("import sys,json\n"
                 "d=json.load(open(sys.argv[1]))\n"
                 "keys=[\"label\",\"np\",\"total\",\"computation\",\"communication\",\"overhead\","
                 "\"waiting\",\"speedup\",\"efficiency\"]\n"
                 "assert all(list(p)==keys for p in d[\"points\"]), \"keys\"\n"
                 "assert len(d[\"points\"])==8\n"
                 "for lab in (\"n=256\",\"n=512\"):\n"
                 "    ps=[p for p in d[\"points\"] if p[\"label\"]==lab]\n"
                 "    assert [p[\"np\"] for p in ps]==[1,2,4,8], lab\n"
                 "    assert ps[0][\"speedup\"]==1 and ps[0][\"efficiency\"]==1, lab\n"
                 "    for p in ps: assert abs(p[\"speedup\"]-ps[0][\"total\"]/p[\"total\"])<1e-9\n",
                 "two.json", "JSON: parses; 8 points with the keys; speedup 1 at the smallest np");
}

static void test_names(void)
{
    check(strcmp(sweep_part_name[SWEEP_COMP], "computation") == 0 &&
              strcmp(sweep_part_name[SWEEP_COMM], "communication") == 0 &&
              strcmp(sweep_part_name[SWEEP_OVHD], "overhead") == 0 &&
              strcmp(sweep_part_name[SWEEP_WAIT], "waiting") == 0,
          "the parts' names");
}

int main(void)
{
    if (tap_tmpdir(dir, sizeof dir, "hpf-plot"))
        return 1;
    have_python = tap_have_python();

    test_names();
    test_two_sizes();
    test_log_axis();
    test_edges();
    test_many_labels();
    test_escaping();
    test_refusals();
    test_tables();

    if (!getenv("KEEP_PLOTS")) {
        const char *files[] = {"two.svg", "log.svg", "lin.svg", "one.svg", "zero.svg",
                               "zero.txt", "zero.json", "none.svg", "none.json", "none.csv",
                               "many.svg", "esc.svg", "bad.svg", "refused", "two.txt",
                               "nolabel.txt", "two.csv", "quote.csv", "two.json"};
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            char f[512];
            path(f, sizeof f, files[i]);
            remove(f);
        }
        rmdir(dir);
    } else
        printf("# files kept in %s\n", dir);
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
