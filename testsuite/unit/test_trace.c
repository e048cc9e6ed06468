/* test_trace.c - the trace writers (interp/trace.c) on a synthetic trace of
 * four processors: computation on source lines, a shift (each processor
 * sends to the next and waits for the previous one's message), an
 * allreduce by recursive doubling whose steps (sends, waits, receives, the
 * combining) it encloses, recorded after them as the engine does, and a
 * barrier whose wait has the barrier's own bounds. Every format is written
 * to a temporary directory and read back: testsuite/trace_check.py checks
 * the JSON's nesting and flows, the Paraver records and header, the PICL
 * records and their order (and is shown to fail on broken files, for the
 * right reason); otf2-print lists the OTF2 archive's messages. Also: the
 * format names, an event cut to nest, an empty trace, and the errors for
 * unwritable paths and bad events. */
#include <config.h>

#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace.h"

#ifndef TRACE_CHECK
#define TRACE_CHECK "testsuite/trace_check.py"
#endif
#ifndef OTF2_PRINT
#define OTF2_PRINT ""
#endif

#include "tap.h"

static void skip(const char *what, const char *why)
{
    tap_n++;
    printf("ok %d - %s # SKIP %s\n", tap_n, what, why);
}

/* ---- the synthetic run ---- */

enum { NP = 4 };
static double clk[NP];        /* each processor's clock, microseconds */

static void add(Trace *t, int p, TraceKind k, double t0, double t1, int line, int aau,
                const char *name)
{
    TraceEvent e = {t0 * 1e-6, t1 * 1e-6, p, k, line, aau, -1, -1, 0, name};
    trace_add(t, &e);
}

static void comp(Trace *t, int p, double us, int line, int aau, const char *cls)
{
    add(t, p, TR_COMP, clk[p], clk[p] + us, line, aau, cls);
    clk[p] += us;
}

/* A send of 2 us; the message arrives 5 us after the send ends. */
static long post(Trace *t, int src, int dst, double bytes, int line, double *arrival)
{
    long m = trace_message(t);
    TraceEvent e = {clk[src] * 1e-6, (clk[src] + 2) * 1e-6, src, TR_SEND, line, 2, dst, m, bytes,
                    "Comm"};
    trace_add(t, &e);
    clk[src] += 2;
    *arrival = clk[src] + 5;
    return m;
}

/* The receiver waits for the arrival, then takes 1 us to receive. */
static void complete(Trace *t, int dst, int src, long m, double bytes, int line, double arrival)
{
    if (clk[dst] < arrival) {
        add(t, dst, TR_WAIT, clk[dst], arrival, line, 2, "Comm");
        clk[dst] = arrival;
    }
    TraceEvent e = {clk[dst] * 1e-6, (clk[dst] + 1) * 1e-6, dst, TR_RECV, line, 2, src, m, bytes,
                    "Comm"};
    trace_add(t, &e);
    clk[dst] += 1;
}

static long nmessages;

static void build(Trace *t)
{
    trace_init(t, NP, "laplace \"test\".f90", "ipsc860");
    long m[NP];
    double arr[NP];
    for (int p = 0; p < NP; p++) {
        clk[p] = 0;
        comp(t, p, 10 + 2 * p, 10, 1, "Seq");
    }
    /* the shift: to the next processor, from the previous one */
    for (int p = 0; p < NP; p++)
        m[p] = post(t, p, (p + 1) % NP, 800, 20, &arr[p]);
    for (int p = 0; p < NP; p++) {
        int q = (p + NP - 1) % NP;
        complete(t, p, q, m[q], 800, 20, arr[q]);
        add(t, p, TR_OVHD, clk[p], clk[p] + 1, 20, 2, "Comm");
        clk[p] += 1;
        comp(t, p, 5, 30, 3, "IterD");
    }
    /* the allreduce: two steps of recursive doubling, each combined */
    double start[NP];
    for (int p = 0; p < NP; p++)
        start[p] = clk[p];
    for (int k = 1; k < NP; k <<= 1) {
        for (int p = 0; p < NP; p++)
            m[p] = post(t, p, p ^ k, 8, 40, &arr[p]);
        for (int p = 0; p < NP; p++) {
            complete(t, p, p ^ k, m[p ^ k], 8, 40, arr[p ^ k]);
            comp(t, p, 0.5, 40, 4, "Reduce");
        }
    }
    for (int p = 0; p < NP; p++)
        add(t, p, TR_COLL, start[p], clk[p], 40, 4, "allreduce");
    /* the barrier: its wait has its bounds, and is recorded first */
    double end = 0;
    for (int p = 0; p < NP; p++)
        end = clk[p] > end ? clk[p] : end;
    for (int p = 0; p < NP; p++) {
        add(t, p, TR_WAIT, clk[p], end, 50, 5, "Sync");
        add(t, p, TR_COLL, clk[p], end, 50, 5, "barrier");
        clk[p] = end;
    }
    nmessages = t->nmsg;
}

/* ---- helpers ---- */

static char dir[256];

static void path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

static int spit(const char *file, const char *text)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Runs cmd; its output (first 4 KiB) into out; returns its exit status. */
static int run(const char *cmd, char *out, size_t outlen)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t len = 0, k;
    char tmp[1024];
    while ((k = fread(tmp, 1, sizeof tmp, p)) > 0) {
        if (out && len + 1 < outlen) {
            size_t c = k < outlen - len - 1 ? k : outlen - len - 1;
            memcpy(out + len, tmp, c);
            len += c;
        }
    }
    if (out && outlen)
        out[len] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int have_python;

/* The checker on a file; 0 when valid. */
static int checker(const char *fmt, const char *file, const char *opts, char *out, size_t outlen)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "python3 '%s' %s '%s' %s 2>&1", TRACE_CHECK, fmt, file, opts);
    return run(cmd, out, outlen);
}

static void check_valid(const char *fmt, const char *file, const char *opts, const char *what)
{
    char out[4096];
    if (!have_python) {
        skip(what, "python3 not found");
        return;
    }
    int rc = checker(fmt, file, opts, out, sizeof out);
    if (rc != 0)
        printf("# %s", out);
    check(rc == 0, what);
}

/* The checker must reject a broken file, saying why. */
static void check_rejects(const char *fmt, const char *file, const char *because, const char *what)
{
    char out[4096];
    if (!have_python) {
        skip(what, "python3 not found");
        return;
    }
    int rc = checker(fmt, file, "", out, sizeof out);
    int ok = rc == 1 && strstr(out, because) != NULL;
    if (!ok)
        printf("# exit %d: %s", rc, out);
    check(ok, what);
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static int count_lines(const char *text, const char *word)
{
    int n = 0;
    for (const char *s = text; s && (s = strstr(s, word)); s += strlen(word))
        n++;
    return n;
}

/* ---- the tests ---- */

static void test_names(void)
{
    check(trace_format("perfetto") == TRACE_PERFETTO && trace_format("paraver") == TRACE_PARAVER &&
              trace_format("picl") == TRACE_PICL && trace_format("otf2") == TRACE_OTF2,
          "trace_format knows perfetto, paraver, picl, otf2");
    check(trace_format("PICL") == TRACE_PICL, "trace_format is case-blind");
    check(trace_format("json") == -1 && trace_format("") == -1 && trace_format(NULL) == -1,
          "trace_format refuses other names");
    check(trace_format_built(TRACE_PERFETTO) && trace_format_built(TRACE_PARAVER) &&
              trace_format_built(TRACE_PICL) && !trace_format_built(-1) &&
              !trace_format_built(TRACE_NFORMATS),
          "perfetto, paraver and picl are always built in");
#ifdef HAVE_OTF2
    check(trace_format_built(TRACE_OTF2), "otf2 is built in (configure found libotf2)");
#else
    check(!trace_format_built(TRACE_OTF2), "otf2 is not built in (configure did not find libotf2)");
#endif
}

static void test_store(void)
{
    Trace t;
    trace_init(&t, 3, "p.f90", "m");
    long a = trace_message(&t), b = trace_message(&t);
    for (int i = 0; i < 5000; i++)
        add(&t, i % 3, TR_COMP, i, i + 1, i, i, "Seq");
    check(a == 0 && b == 1 && t.nmsg == 2, "trace_message numbers messages from 0");
    check(t.n == 5000 && t.ev[4999].t0 == 4999e-6 && t.ev[4999].proc == 4999 % 3,
          "trace_add keeps copies of 5000 events");
    trace_free(&t);
    check(t.n == 0 && t.ev == NULL && t.nmsg == 0, "trace_free empties the trace");
}

static void test_formats(const Trace *t)
{
    char err[512], f[512], opts[256], *s;
    long n = t->n;

    /* perfetto */
    path(f, sizeof f, "run.json");
    check(trace_write(t, TRACE_PERFETTO, f, err, sizeof err) == 0 && !err[0],
          "perfetto trace written");
    s = tap_slurp(f);
    check(s && strstr(s, "\"traceEvents\"") && strstr(s, "\"name\":\"comp line 10 (Seq)\"") &&
              strstr(s, "\"name\":\"send to 1 line 20 (Comm)\"") &&
              strstr(s, "\"name\":\"allreduce line 40\"") &&
              strstr(s, "\"name\":\"processor 3\"") && strstr(s, "laplace \\\"test\\\".f90"),
          "perfetto: named slices, processor tracks, the program's name escaped");
    /* processor 1's first shift send starts at 12 us and lasts 2 us */
    check(s && strstr(s, "\"tid\":2,\"ts\":12.000,\"dur\":2.000,\"name\":\"send to 2 line 20"),
          "perfetto: ts and dur in microseconds");
    /* the allreduce encloses its first send, which starts with it, and the
       barrier its wait of the same bounds: nothing is cut */
    check(s && strstr(s, "\"tid\":1,\"ts\":30.000,\"dur\":15.000,\"name\":\"allreduce line 40\"") &&
              strstr(s, "\"tid\":1,\"ts\":45.000,\"dur\":2.000,\"name\":\"barrier line 50\"") &&
              strstr(s, "\"clipped\":0}"),
          "perfetto: collectives keep their bounds around their steps (none cut)");
    free(s);
    snprintf(opts, sizeof opts, "--tracks %d --slices %ld --flows %ld", NP, n, nmessages);
    check_valid("perfetto", f, opts,
                "perfetto: JSON valid, slices nest on every track, every flow finishes");

    /* paraver */
    path(f, sizeof f, "run.prv");
    check(trace_write(t, TRACE_PARAVER, f, err, sizeof err) == 0, "paraver trace written");
    s = tap_slurp(f);
    check(s && strncmp(s, "#Paraver (", 10) == 0 &&
              strstr(s, "_ns:4(1,1,1,1):1:4(1:1,1:2,1:3,1:4)\n"),
          "paraver: header with four nodes of one CPU, one task each");
    /* processor 0 computes line 10 from 0 to 10 us */
    check(s && strstr(s, "\n1:1:1:1:1:0:10000:1\n") && strstr(s, "\n2:1:1:1:1:0:70000001:10:"),
          "paraver: state and source-line event of processor 0's first computation, in ns");
    /* the innermost event gives the state: the allreduce's first send, and
       the barrier's wait */
    check(s && strstr(s, "\n1:1:1:1:1:30000:32000:4\n") && strstr(s, "\n1:1:1:1:1:45000:47000:3\n") &&
              strstr(s, "\n2:1:1:1:1:30000:70000001:40:70000002:3:70000003:2:70000004:1\n"),
          "paraver: a collective's steps give the state, the collective its event");
    free(s);
    path(f, sizeof f, "run.pcf");
    s = tap_slurp(f);
    check(s && strstr(s, "STATES\n") && strstr(s, "allreduce") && strstr(s, "line 40"),
          "paraver: .pcf beside the .prv names states, lines and collectives");
    free(s);
    path(f, sizeof f, "run.row");
    s = tap_slurp(f);
    check(s && strstr(s, "LEVEL THREAD SIZE 4\n"), "paraver: .row beside the .prv");
    free(s);
    path(f, sizeof f, "run.prv");
    snprintf(opts, sizeof opts, "--cpus %d --comms %ld", NP, nmessages);
    check_valid("paraver", f, opts,
                "paraver: records well formed and sorted, header agrees, states do not overlap");

    /* paraver without the suffix: .pcf and .row appended */
    path(f, sizeof f, "bare");
    check(trace_write(t, TRACE_PARAVER, f, err, sizeof err) == 0, "paraver trace without .prv");
    path(f, sizeof f, "bare.pcf");
    check(access(f, R_OK) == 0, "paraver: .pcf appended to a name without .prv");

    /* picl */
    path(f, sizeof f, "run.trf");
    check(trace_write(t, TRACE_PICL, f, err, sizeof err) == 0, "picl trace written");
    s = tap_slurp(f);
    check(s && strncmp(s, "-3 -901 0.000000000 0 0 0\n", 26) == 0 &&
              strstr(s, "\n-3 -21 0.000012000 1 0 4 2 800 1 2 0\n") &&
              strstr(s, "\n-3 -601 ") && strstr(s, "\n-3 10 "),
          "picl: trace start, send (length, type, destination), idle, block of line 10");
    free(s);
    snprintf(opts, sizeof opts, "--nodes %d --sends %ld", NP, nmessages);
    check_valid("picl", f, opts, "picl: records well formed, sorted, nested, sends received");
}

/* The checker is shown to fail on broken files, for the right reason. */
static void test_checker(void)
{
    char f[512], g[512], *s;
    path(f, sizeof f, "overlap.json");
    spit(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":["
            "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"p\"}},"
            "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10,\"name\":\"a\"},"
            "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":10,\"name\":\"b\"}]}\n");
    check_rejects("perfetto", f, "without nesting", "checker rejects slices that do not nest");
    path(f, sizeof f, "flow.json");
    spit(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":["
            "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"p\"}},"
            "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10,\"name\":\"a\"},"
            "{\"ph\":\"s\",\"id\":7,\"pid\":1,\"tid\":1,\"ts\":5,\"name\":\"m\",\"cat\":\"m\"}]}\n");
    check_rejects("perfetto", f, "1 starts and 0 finishes", "checker rejects a flow with no finish");

    /* the good files with their records reversed */
    static const char *const names[][2] = {{"run.prv", "rev.prv"}, {"run.trf", "rev.trf"}};
    for (int i = 0; i < 2; i++) {
        path(f, sizeof f, names[i][0]);
        s = tap_slurp(f);
        if (!s)
            continue;
        size_t len = strlen(s);
        char *r = malloc(len + 2), *w = r;
        char *body = i == 0 ? strchr(s, '\n') + 1 : s;
        memcpy(w, s, (size_t)(body - s));
        w += body - s;
        for (char *e = s + len; e > body;) {
            char *b = e - 1;
            while (b > body && b[-1] != '\n')
                b--;
            size_t l = (size_t)(e - b);
            memcpy(w, b, l);
            if (l && b[l - 1] != '\n')
                w[l++] = '\n';
            w += l;
            e = b;
        }
        *w = 0;
        path(g, sizeof g, names[i][1]);
        spit(g, r);
        free(r);
        free(s);
    }
    path(f, sizeof f, "run.pcf");
    path(g, sizeof g, "rev.pcf");
    s = tap_slurp(f);
    spit(g, s ? s : "");
    free(s);
    path(f, sizeof f, "run.row");
    path(g, sizeof g, "rev.row");
    s = tap_slurp(f);
    spit(g, s ? s : "");
    free(s);
    path(g, sizeof g, "rev.prv");
    check_rejects("paraver", g, "not sorted", "checker rejects unsorted Paraver records");
    path(g, sizeof g, "rev.trf");
    check_rejects("picl", g, "not sorted", "checker rejects unsorted PICL records");
}

static void test_otf2(const Trace *t)
{
    char err[512], f[512], cmd[1024];
    path(f, sizeof f, "run.otf2");
#ifndef HAVE_OTF2
    check(trace_write(t, TRACE_OTF2, f, err, sizeof err) == -1 &&
              strcmp(err, "otf2 traces are not built in (configure did not find libotf2)") == 0,
          "otf2 refused with its reason");
    skip("otf2-print lists the archive's sends and receives", "otf2 not built in");
    skip("an OTF2 archive is replaced", "otf2 not built in");
    skip("a directory in the archive's way with other files is left alone", "otf2 not built in");
    skip("an archive name without .otf2 gets the suffix", "otf2 not built in");
    skip("an archive under a file is refused", "otf2 not built in");
#else
    int ok = trace_write(t, TRACE_OTF2, f, err, sizeof err) == 0;
    if (!ok)
        printf("# %s\n", err);
    char sub[512];
    path(sub, sizeof sub, "run");
    struct stat st;
    check(ok && stat(f, &st) == 0 && stat(sub, &st) == 0 && S_ISDIR(st.st_mode),
          "otf2 archive written: run.otf2 and the directory run/ beside it");
    if (!OTF2_PRINT[0]) {
        skip("otf2-print lists the archive's sends and receives", "otf2-print not found");
    }
    else {
        static char out[1 << 20];
        snprintf(cmd, sizeof cmd, "'%s' '%s' 2>&1", OTF2_PRINT, f);
        int rc = run(cmd, out, sizeof out);
        int sends = count_lines(out, "\nMPI_SEND "), recvs = count_lines(out, "\nMPI_RECV ");
        int enters = count_lines(out, "\nENTER "), leaves = count_lines(out, "\nLEAVE ");
        int good = rc == 0 && sends == nmessages && recvs == nmessages && enters == t->n &&
                   leaves == t->n && strstr(out, "allreduce line 40");
        if (!good)
            printf("# otf2-print exit %d: %d sends, %d receives, %d enters, %d leaves\n", rc,
                   sends, recvs, enters, leaves);
        check(good, "otf2-print lists the archive's sends, receives and regions");
    }
    ok = trace_write(t, TRACE_OTF2, f, err, sizeof err) == 0;
    if (!ok)
        printf("# %s\n", err);
    check(ok, "an OTF2 archive is replaced");

    /* a directory of the archive's name holding something else is kept */
    char keep[512], note[512];
    path(keep, sizeof keep, "keep");
    path(note, sizeof note, "keep/notes.txt");
    mkdir(keep, 0777);
    spit(note, "mine\n");
    path(f, sizeof f, "keep.otf2");
    ok = trace_write(t, TRACE_OTF2, f, err, sizeof err) == -1 &&
         strstr(err, "not part of an OTF2 archive") && access(note, R_OK) == 0;
    printf("# %s\n", err);
    check(ok, "a directory in the archive's way with other files is left alone");

    /* no .otf2 suffix: appended to the anchor */
    path(f, sizeof f, "plain");
    ok = trace_write(t, TRACE_OTF2, f, err, sizeof err) == 0;
    path(f, sizeof f, "plain.otf2");
    check(ok && access(f, R_OK) == 0, "an archive name without .otf2 gets the suffix");
    /* the anchor's directory is a file */
    path(f, sizeof f, "plain.otf2/x.otf2");
    ok = trace_write(t, TRACE_OTF2, f, err, sizeof err) == -1 && strstr(err, "Not a directory");
    printf("# %s\n", err);
    check(ok, "an archive under a file is refused");
#endif
}

static void test_edges(void)
{
    char err[512], f[512], *s;
    /* an event that starts inside another and ends after it is cut */
    Trace t;
    trace_init(&t, 1, "p.f90", "m");
    add(&t, 0, TR_COMP, 0, 10, 1, 0, "Seq");
    add(&t, 0, TR_WAIT, 5, 15, 2, 1, "Comm");
    add(&t, 0, TR_COMP, 15, 20, 3, 2, "Seq");
    path(f, sizeof f, "cut.json");
    check(trace_write(&t, TRACE_PERFETTO, f, err, sizeof err) == 0, "overlapping events written");
    s = tap_slurp(f);
    check(s && strstr(s, "\"clipped\":1}") && strstr(s, "\"ts\":5.000,\"dur\":5.000,\"name\":\"wait"),
          "perfetto: the overlapping wait is cut at its enclosing event's end");
    free(s);
    check_valid("perfetto", f, "--slices 3", "perfetto: cut events nest");
    path(f, sizeof f, "cut.prv");
    check(trace_write(&t, TRACE_PARAVER, f, err, sizeof err) == 0, "paraver: overlapping events");
    check_valid("paraver", f, "--cpus 1", "paraver: states of cut events do not overlap");
    trace_free(&t);

    /* messages without their partner: a send never received, and a pair
       whose peers do not name each other */
    trace_init(&t, 3, "p.f90", "m");
    TraceEvent lone = {0, 1e-6, 0, TR_SEND, 5, 0, 1, trace_message(&t), 8, "Comm"};
    trace_add(&t, &lone);
    long m = trace_message(&t);
    TraceEvent snd = {0, 1e-6, 1, TR_SEND, 6, 1, 2, m, 8, "Comm"};
    TraceEvent rcv = {3e-6, 4e-6, 0, TR_RECV, 6, 1, 1, m, 8, "Comm"};
    trace_add(&t, &snd);
    trace_add(&t, &rcv);
    path(f, sizeof f, "lone.json");
    int ok = trace_write(&t, TRACE_PERFETTO, f, err, sizeof err) == 0;
    check_valid("perfetto", f, "--slices 3 --flows 0", "unpaired messages: slices, no flows");
    path(f, sizeof f, "lone.prv");
    ok = ok && trace_write(&t, TRACE_PARAVER, f, err, sizeof err) == 0;
    check_valid("paraver", f, "--cpus 3 --comms 0", "unpaired messages: no communication records");
    path(f, sizeof f, "lone.trf");
    ok = ok && trace_write(&t, TRACE_PICL, f, err, sizeof err) == 0;
    check_valid("picl", f, "--nodes 3 --sends 0", "unpaired messages: left out of PICL");
    check(ok, "unpaired messages are written");
    trace_free(&t);

    /* an empty trace */
    trace_init(&t, 2, "p.f90", "m");
    path(f, sizeof f, "empty.json");
    ok = trace_write(&t, TRACE_PERFETTO, f, err, sizeof err) == 0;
    check_valid("perfetto", f, "--tracks 2 --slices 0 --flows 0", "empty trace: perfetto");
    path(f, sizeof f, "empty.prv");
    ok = ok && trace_write(&t, TRACE_PARAVER, f, err, sizeof err) == 0;
    check_valid("paraver", f, "--cpus 2 --comms 0", "empty trace: paraver");
    path(f, sizeof f, "empty.trf");
    ok = ok && trace_write(&t, TRACE_PICL, f, err, sizeof err) == 0;
    check_valid("picl", f, "--nodes 2 --sends 0", "empty trace: picl");
    check(ok, "an empty trace is written in every format");

    /* bad events */
    add(&t, 2, TR_COMP, 0, 1, 1, 0, "Seq");
    ok = trace_write(&t, TRACE_PERFETTO, f, err, sizeof err) == -1 && strstr(err, "processor 2");
    printf("# %s\n", err);
    check(ok, "an event on a processor out of range is refused");
    t.ev[0].proc = 0;
    t.ev[0].t1 = -1;
    ok = trace_write(&t, TRACE_PICL, f, err, sizeof err) == -1 && strstr(err, "bad interval");
    printf("# %s\n", err);
    check(ok, "an event that ends before it starts is refused");
    check(trace_write(&t, 99, f, err, sizeof err) == -1 && strstr(err, "unknown"),
          "an unknown format is refused");
    trace_free(&t);
}

static void test_unwritable(const Trace *t)
{
    static const char *const files[TRACE_NFORMATS] = {"x.json", "x.prv", "x.trf", "x.otf2"};
    char err[512], f[512], what[128];
    for (int fmt = 0; fmt < TRACE_NFORMATS; fmt++) {
        snprintf(f, sizeof f, "/nonexistent-hpfpredict-dir/%s", files[fmt]);
        err[0] = 0;
        int ok = trace_write(t, fmt, f, err, sizeof err) == -1 && err[0] && !strchr(err, '\n');
        if (trace_format_built(fmt))
            ok = ok && strstr(err, "/nonexistent-hpfpredict-dir/") != NULL;
        printf("# %s\n", err);
        snprintf(what, sizeof what, "format %d: a path in a missing directory gives a one-line error",
                 fmt);
        check(ok, what);
    }
    /* a directory where the file should be */
    err[0] = 0;
    check(trace_write(t, TRACE_PERFETTO, dir, err, sizeof err) == -1 && strstr(err, "cannot write"),
          "a directory as the JSON file is refused");
    printf("# %s\n", err);
    check(trace_write(t, TRACE_PICL, "", err, sizeof err) == -1, "an empty path is refused");
    /* a NULL error buffer is allowed */
    check(trace_write(t, TRACE_PICL, "/nonexistent-hpfpredict-dir/y", NULL, 0) == -1,
          "an error with no buffer for its reason");
}

int main(void)
{
    if (tap_tmpdir(dir, sizeof dir, "hpf-trace"))
        return 1;
    have_python = tap_have_python();

    Trace t;
    build(&t);
    test_names();
    test_store();
    test_formats(&t);
    test_checker();
    test_otf2(&t);
    test_edges();
    test_unwritable(&t);
    trace_free(&t);

    if (!getenv("KEEP_TRACES"))
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    else
        printf("# traces kept in %s\n", dir);
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
