/* hpfcalibrate.c - measures the machine it runs on and writes its System
 * Abstraction Graph (doc/sag.md), so that `hpfpredict -sag FILE` predicts
 * for this machine:
 *
 *     mpirun -np 2 hpfcalibrate [-o FILE.sag] [--quick] [--reps N]
 *
 * Rank 0 measures the processor (calib_proc.c) and the memory hierarchy
 * (calib_mem.c) while the others wait asleep, the file system (calib_io.c),
 * and with the others the communication (calib_comm.c); then it writes the
 * description. This file: the options, the parameters collected, timing
 * and statistics shared by the measurements, and the writer.
 * doc/runtime.md ("hpfcalibrate") documents every parameter and how it is
 * measured; doc/hpfcalibrate.1 the command. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "hpfrt.h"

#ifndef CALIB_FC
#define CALIB_FC "mpif90"
#endif
#ifndef CALIB_FCFLAGS
#define CALIB_FCFLAGS "-O2"
#endif

CalOpts cal;
double cal_clock_hz = 1e9;

static const char *prog = "hpfcalibrate";

/* ---- progress and errors ------------------------------------------------ */

static double t_start;

void cal_progress(const char *fmt, ...)
{
    if (!cal.progress || cal.rank != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: [%5.1fs] ", prog, cal_now() - t_start);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* A usage error: the message on rank 0, the usage line, status 1 on all
 * ranks (every rank parses the same arguments and sees the same error). */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    if (cal.rank == 0) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: error: ", prog);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\nusage: mpirun -np 2 %s [-o FILE.sag] [--quick] [--reps N] [-v]"
                        " (--help for more)\n", prog);
        va_end(ap);
    }
    MPI_Finalize();
    return 1;
}

static void help(void)
{
    printf("usage: mpirun -np 2 %s [-o FILE.sag] [--quick] [--reps N] [-v]\n"
           "\n"
           "Measures this machine (operation, loop, call and library costs with\n"
           "kernels compiled by %s %s, in vectorized loops too, and\n"
           "reductions; caches, memory bandwidth and the first touch of a page; MPI\n"
           "point-to-point, barrier and collectives; file I/O; libhpfrt's timers,\n"
           "iteration sets and gathers) and writes its System Abstraction Graph for\n"
           "hpfpredict -sag FILE.\n"
           "\n"
           "  -o FILE      write the description to FILE (default: standard output)\n"
           "  --quick      a few seconds: fewer sizes, shorter batches, rougher values\n"
           "  --reps N     batches per value, of which the median is kept\n"
           "               (default 11; 5 with --quick)\n"
           "  -v           progress on standard error (the default on a terminal)\n"
           "  -q           no progress\n"
           "  --help       this text;  --version  the version\n"
           "\n"
           "Run it with 2 or more processes: rank 0 and rank 1 exchange the messages\n"
           "(on 1 process the description has no communication parameters).\n"
           "See man hpfcalibrate and doc/runtime.md.\n",
           prog, CALIB_FC, CALIB_FCFLAGS);
}

/* ---- the parameters ----------------------------------------------------- */

typedef struct {
    CalComp comp;
    char *name;                 /* NULL: a comment line */
    char *value;
    char *note;
} Entry;

static Entry *entries;
static int nentries, centries;

static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = malloc((size_t)n + 1);
    if (!s) {
        fprintf(stderr, "%s: error: out of memory\n", prog);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    /* one line each: a comment must not end the parameter's line early */
    for (char *p = s; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return s;
}

static Entry *new_entry(void)
{
    if (nentries == centries) {
        centries = centries ? 2 * centries : 64;
        entries = realloc(entries, (size_t)centries * sizeof *entries);
        if (!entries) {
            fprintf(stderr, "%s: error: out of memory\n", prog);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    return &entries[nentries++];
}

void cal_param(CalComp c, const char *name, const char *value, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *note = vformat(fmt, ap);
    va_end(ap);
    for (int i = 0; i < nentries; i++)
        if (entries[i].name && strcmp(entries[i].name, name) == 0) {
            free(entries[i].value);
            free(entries[i].note);
            entries[i].value = strdup(value);
            entries[i].note = note;
            return;
        }
    Entry *e = new_entry();
    e->comp = c;
    e->name = strdup(name);
    e->value = strdup(value);
    e->note = note;
}

void cal_comment(CalComp c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Entry *e = new_entry();
    e->comp = c;
    e->name = e->value = NULL;
    e->note = vformat(fmt, ap);
    va_end(ap);
}

/* Formatted values in rotating buffers: a few may appear in one call. */
static char *fmtbuf(void)
{
    static char buf[16][64];
    static int next;
    next = (next + 1) % 16;
    return buf[next];
}

/* Three significant digits, as the reader's NUMBER: no sign, no "inf". */
static const char *number(double v, const char *unit)
{
    char *b = fmtbuf();
    if (!isfinite(v) || v < 0)
        v = 0;
    snprintf(b, 64, "%.3g %s", v, unit);
    return b;
}

const char *cal_cycles(double s) { return number(s * cal_clock_hz, "cycles"); }
const char *cal_ns(double s) { return number(s * 1e9, "ns"); }
const char *cal_us(double s) { return number(s * 1e6, "us"); }
const char *cal_count(double v)
{
    char *b = fmtbuf();
    snprintf(b, 64, "%.4g", isfinite(v) && v >= 0 ? v : 0);
    return b;
}

const char *cal_size(double bytes)
{
    char *b = fmtbuf();
    if (bytes >= 1073741824.0 && fmod(bytes, 1073741824.0) == 0)
        snprintf(b, 64, "%.0f GiB", bytes / 1073741824.0);
    else if (bytes >= 1048576 && fmod(bytes, 1048576) == 0)
        snprintf(b, 64, "%.0f MiB", bytes / 1048576);
    else if (bytes >= 1024 && fmod(bytes, 1024) == 0)
        snprintf(b, 64, "%.0f KiB", bytes / 1024);
    else if (bytes >= 1073741824.0)     /* a memory size: 4 digits */
        snprintf(b, 64, "%.4g GiB", bytes / 1073741824.0);
    else
        snprintf(b, 64, "%.0f B", bytes > 0 ? bytes : 0);
    return b;
}

const char *cal_rate(double r)
{
    if (r >= 1e9)
        return number(r / 1e9, "GB/s");
    return number(r / 1e6, "MB/s");
}

/* ---- timing and statistics ---------------------------------------------- */

double cal_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cal_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Repetitions of fn that make a batch of cal.batch_s at least. */
static long batch_iters(void (*fn)(void *arg, long iters), void *arg)
{
    long iters = 1;
    fn(arg, 1);                 /* warm: caches, branch predictors, pages */
    for (;;) {
        double t0 = cal_now();
        fn(arg, iters);
        double t = cal_now() - t0;
        if (t >= cal.batch_s || iters >= (1L << 40))
            return iters;
        /* towards the batch time, at most 100 times as many at once */
        double f = t > 0 ? 1.2 * cal.batch_s / t : 100;
        iters = (long)((double)iters * (f < 2 ? 2 : f > 100 ? 100 : f));
    }
}

void cal_run(CalJob *jobs, int njobs, double *t)
{
    for (int j = 0; j < njobs; j++)
        jobs[j].iters = batch_iters(jobs[j].fn, jobs[j].arg);
    for (int r = 0; r < cal.reps; r++)
        for (int j = 0; j < njobs; j++) {
            double t0 = cal_now();
            jobs[j].fn(jobs[j].arg, jobs[j].iters);
            t[r * njobs + j] = (cal_now() - t0) / (double)jobs[j].iters / jobs[j].units;
        }
}

double cal_time(void (*fn)(void *arg, long iters), void *arg, double units)
{
    CalJob job = {fn, arg, units, 0};
    double *v = malloc((size_t)cal.reps * sizeof *v);
    if (!v)
        MPI_Abort(MPI_COMM_WORLD, 1);
    cal_run(&job, 1, v);
    double m = cal_median(v, cal.reps);
    free(v);
    return m;
}

double cal_fit(const double *x, const double *y, int n, double *a, double *b)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double w = y[i] > 0 ? 1.0 / (y[i] * y[i]) : 1e18;
        sw += w;
        sx += w * x[i];
        sy += w * y[i];
        sxx += w * x[i] * x[i];
        sxy += w * x[i] * y[i];
    }
    double det = sw * sxx - sx * sx;
    if (n < 2 || det == 0) {
        *b = 0;
        *a = sw > 0 ? sy / sw : 0;
    } else {
        *b = (sw * sxy - sx * sy) / det;
        *a = (sy - *b * sx) / sw;
    }
    double r = 0;
    for (int i = 0; i < n; i++) {
        double w = y[i] > 0 ? 1.0 / (y[i] * y[i]) : 1e18, d = y[i] - *a - *b * x[i];
        r += w * d * d;
    }
    return r;
}

void cal_phase_end(int idle)
{
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (!idle) {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        return;
    }
    int done = 0;
    struct timespec nap = {0, 200000};   /* 0.2 ms */
    while (MPI_Test(&req, &done, MPI_STATUS_IGNORE), !done)
        nanosleep(&nap, NULL);
}

/* ---- the machine, for the header ----------------------------------------- */

/* The value of the first line of /proc/cpuinfo that starts with key. */
static int cpuinfo(const char *key, char *out, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[512];
    int found = 0;
    size_t k = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, k) != 0)
            continue;
        char *p = strchr(line, ':');
        if (!p)
            continue;
        p += 1 + strspn(p + 1, " \t");
        p[strcspn(p, "\n")] = 0;
        snprintf(out, len, "%s", p);
        found = *out != 0;
    }
    fclose(f);
    return found;
}

/* A unit name of the format ([a-z_][a-z0-9_]*) from the host name. */
static void unit_name(const char *host, char *out, size_t len)
{
    size_t n = 0;
    if (!(host[0] >= 'a' && host[0] <= 'z') && !(host[0] >= 'A' && host[0] <= 'Z'))
        out[n++] = 'h';
    for (const char *p = host; *p && *p != '.' && n + 1 < len; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        out[n++] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_';
    }
    out[n] = 0;
    if (n == 0 || (n == 1 && out[0] == 'h'))
        snprintf(out, len, "machine");
}

/* The 1-minute load average, or 0. */
static double load_average(void)
{
    double l = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = 0;
        fclose(f);
    }
    return l;
}

/* Above this load other work shares the processors the measurements run
 * on (the processes of the calibration themselves are not yet running
 * long enough to count). */
static double busy_load(void)
{
    return (double)cal.ncores - (cal.np < cal.ncores ? cal.np : cal.ncores) + 1.0;
}

/* ---- the writer --------------------------------------------------------- */

static void put_params(FILE *f, CalComp c, int indent)
{
    for (int i = 0; i < nentries; i++) {
        const Entry *e = &entries[i];
        if (e->comp != c)
            continue;
        if (!e->name) {
            fprintf(f, "%*s# %s\n", indent, "", e->note);
            continue;
        }
        char line[160];
        snprintf(line, sizeof line, "%s = %s", e->name, e->value);
        int w = 40 - indent;
        fprintf(f, "%*s%-*s", indent, "", w > 0 ? w : 0, line);
        if (e->note && *e->note)
            fprintf(f, " # %s", e->note);
        fputc('\n', f);
    }
}

static int has_params(CalComp c)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i].comp == c && entries[i].name)
            return 1;
    return 0;
}

typedef struct {
    char date[64], host[256], unit[64], cpu[256], fc[256], mpi[256], where[300];
    double wall, load;
} Header;

static void write_sag(FILE *f, const Header *h, const char *fname)
{
    fprintf(f, "# %s - the System Abstraction Graph of %s, measured by hpfcalibrate %s\n",
            fname, h->host, PACKAGE_VERSION);
    fprintf(f, "# (format: doc/sag.md; how each value is measured: doc/runtime.md, \"hpfcalibrate\").\n");
    fprintf(f, "# date:      %s\n", h->date);
    fprintf(f, "# host:      %s, %d processors online\n", h->host, cal.ncores);
    fprintf(f, "# CPU:       %s\n", h->cpu);
    fprintf(f, "# kernels:   %s %s (%s), the compiler and flags of the SPMD programs;\n"
               "#            timed in loops of the generated code's shape, medians of %d batches\n"
               "#            of at least %.2g ms, the loop's own cost subtracted\n",
            CALIB_FC, CALIB_FCFLAGS, h->fc, cal.reps, cal.batch_s * 1e3);
    fprintf(f, "# MPI:       %s\n", h->mpi);
    fprintf(f, "# processes: %d (%s)\n", cal.np, h->where);
    fprintf(f, "# run:       %s, %.1f s; load average %.2f before it%s\n",
            cal.quick ? "--quick (rough values)" : "full", h->wall, h->load,
            h->load > busy_load() ? " (a busy machine: slow values)" : "");
    fprintf(f, "# Processing costs are in cycles of cpu.clock (measured ns times the clock),\n"
               "# so that --set cpu.speed=K scales them; memory beyond the caches, messages\n"
               "# and I/O in absolute time.\n\n");
    fprintf(f, "unit %s {\n", h->unit);
    fprintf(f, "    processing compound {\n");
    fprintf(f, "        unit node [%d] {    # processors online (sysconf _SC_NPROCESSORS_ONLN): hpfpredict's default -np\n",
            cal.ncores);
    fprintf(f, "            processing simple {\n");
    put_params(f, CAL_PROC, 16);
    fprintf(f, "            }\n");
    fprintf(f, "            memory simple {\n");
    put_params(f, CAL_MEM, 16);
    fprintf(f, "            }\n");
    fprintf(f, "            comm void       # the node's messages are the machine's comm component\n");
    fprintf(f, "            io void         # file I/O is the machine's io component\n");
    fprintf(f, "        }\n");
    fprintf(f, "    }\n");
    fprintf(f, "    memory void                 # each node has its memory (the node's component)\n");
    if (has_params(CAL_COMM)) {
        fprintf(f, "    comm simple {\n");
        put_params(f, CAL_COMM, 8);
        fprintf(f, "    }\n");
    } else {
        fprintf(f, "    comm void                   # measured on 1 process: no communication (run with mpirun -np 2)\n");
    }
    if (has_params(CAL_IO)) {
        fprintf(f, "    io simple {\n");
        put_params(f, CAL_IO, 8);
        fprintf(f, "    }\n");
    } else {
        fprintf(f, "    io void\n");
    }
    fprintf(f, "}\n");
}

/* ---- main ---------------------------------------------------------------- */

/* The folder of PATH is writable, so that the result can be written there
 * at the end (checked first: no minutes of measuring for nothing). */
static int writable_dir(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    return access(dir, W_OK) == 0;
}

static int parse_reps(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 1000)
        return 0;
    *out = (int)v;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &cal.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &cal.np);
    t_start = cal_now();
    calib_first_coll();

    const char *out = NULL;
    int reps = 0, verbose = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (cal.rank == 0)
                help();
            MPI_Finalize();
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            if (cal.rank == 0)
                printf("hpfcalibrate (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            MPI_Finalize();
            return 0;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 >= argc)
                return usage_error("missing file name after '%s'", a);
            out = argv[++i];
        } else if (strncmp(a, "--output=", 9) == 0) {
            out = a + 9;
        } else if (strncmp(a, "-o", 2) == 0) {
            out = a + 2;
        } else if (strcmp(a, "--quick") == 0) {
            cal.quick = 1;
        } else if (strcmp(a, "--reps") == 0) {
            if (i + 1 >= argc)
                return usage_error("missing number after '--reps'");
            if (!parse_reps(argv[++i], &reps))
                return usage_error("'--reps' takes a whole number from 1 to 1000, not '%s'", argv[i]);
        } else if (strncmp(a, "--reps=", 7) == 0) {
            if (!parse_reps(a + 7, &reps))
                return usage_error("'--reps' takes a whole number from 1 to 1000, not '%s'", a + 7);
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            verbose = 0;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unrecognized option '%s'", a);
        } else {
            return usage_error("unexpected argument '%s'", a);
        }
    }
    if (out && !*out)
        return usage_error("empty file name after '-o'");
    cal.reps = reps ? reps : cal.quick ? 5 : 11;
    cal.batch_s = cal.quick ? 0.5e-3 : 8e-3;
    cal.progress = verbose >= 0 ? verbose : isatty(2);
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    cal.ncores = nc > 0 ? (int)nc : 1;

    /* a result that cannot be written: say so before measuring */
    int ok = 1;
    if (cal.rank == 0 && out && !writable_dir(out)) {
        fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, out,
                "its folder is missing or not writable");
        ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        MPI_Finalize();
        return 1;
    }
    double load = cal.rank == 0 ? load_average() : 0;
    if (cal.rank == 0 && load > busy_load())
        fprintf(stderr, "%s: warning: the load average is %.2f on %d processors: other work"
                        " will slow the measurements\n", prog, load, cal.ncores);
    if (cal.np == 1 && cal.rank == 0)
        fprintf(stderr, "%s: warning: 1 process: no communication is measured and the "
                        "description has none (run it with mpirun -np 2)\n", prog);

    /* the owner tests call the run-time library; a profile asked of the
       SPMD programs (HPFRT_PROFILE) is not this program's to write */
    unsetenv("HPFRT_PROFILE");
    hpfrt_init_();
    calib_rt_start();

    Header h;
    memset(&h, 0, sizeof h);
    h.load = load;
    time_t now = time(NULL);
    strftime(h.date, sizeof h.date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    if (gethostname(h.host, sizeof h.host - 1) != 0 || !h.host[0])
        snprintf(h.host, sizeof h.host, "unknown");
    unit_name(h.host, h.unit, sizeof h.unit);
    if (!cpuinfo("model name", h.cpu, sizeof h.cpu) && !cpuinfo("cpu model", h.cpu, sizeof h.cpu)
        && !cpuinfo("Hardware", h.cpu, sizeof h.cpu) && !cpuinfo("CPU part", h.cpu, sizeof h.cpu))
        snprintf(h.cpu, sizeof h.cpu, "unknown (no model in /proc/cpuinfo)");
    ck_compiler(h.fc, (int)sizeof h.fc);
    {
        char v[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(v, &len);
        v[strcspn(v, "\n,")] = 0;
        snprintf(h.mpi, sizeof h.mpi, "%s", v);
    }
    {
        char p0[MPI_MAX_PROCESSOR_NAME] = "", p1[MPI_MAX_PROCESSOR_NAME] = "";
        int len;
        MPI_Get_processor_name(p0, &len);
        if (cal.np > 1) {
            if (cal.rank == 1)
                MPI_Send(p0, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
            if (cal.rank == 0)
                MPI_Recv(p1, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        if (cal.np == 1)
            snprintf(h.where, sizeof h.where, "on %s", p0);
        else if (strcmp(p0, p1) == 0)
            snprintf(h.where, sizeof h.where, "ranks 0 and 1 on %s: shared memory", p0);
        else
            snprintf(h.where, sizeof h.where, "rank 0 on %s, rank 1 on %s: the network", p0, p1);
    }

    cal_progress("%s calibration on %d process%s", cal.quick ? "quick" : "full", cal.np,
                 cal.np == 1 ? "" : "es");
    calib_clock();
    calib_mem();
    calib_proc();
    calib_io();
    calib_comm();
    calib_rt();

    int status = 0;
    if (cal.rank == 0) {
        h.wall = cal_now() - t_start;
        if (!out) {
            write_sag(stdout, &h, "machine.sag");
            if (fflush(stdout) != 0) {
                fprintf(stderr, "%s: error: writing the standard output: %s\n", prog, strerror(errno));
                status = 1;
            }
        } else {
            /* a temporary beside it, renamed: never half a description */
            char tmp[PATH_MAX];
            snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
            FILE *f = fopen(tmp, "w");
            const char *base = strrchr(out, '/');
            if (f) {
                write_sag(f, &h, base ? base + 1 : out);
                if (ferror(f) | (fclose(f) != 0) || rename(tmp, out) != 0) {
                    fprintf(stderr, "%s: error: cannot write '%s': %s\n", prog, out, strerror(errno));
                    remove(tmp);
                    status = 1;
                }
            } else {
                fprintf(stderr, "%s: error: cannot write '%s' (through '%s'): %s\n", prog, out,
                        tmp, strerror(errno));
                status = 1;
            }
        }
        cal_progress("done in %.1f s%s%s", cal_now() - t_start, out ? ": " : "", out ? out : "");
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    hpfrt_finalize_();
    return status;
}
