/* calib.c - what hpfcalibrate's measurements share (calib.h): progress
 * messages, the table of parameters and comments and its writer, the
 * formatting of values, timing (batches, medians, parallel jobs), the
 * least-squares fit, and the barrier that ends a phase. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib.h"

static const char *prog = "hpfcalibrate";

/* ---- progress and errors ------------------------------------------------ */

static double t_start;

void cal_clock_start(void)
{
    t_start = cal_now();
}

double cal_elapsed(void)
{
    return cal_now() - t_start;
}

int cal_over_budget(void)
{
    return cal_elapsed() > cal.budget_s;
}

void cal_progress(const char *fmt, ...)
{
    if (!cal.progress || cal.rank != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: [%5.1fs] ", prog, cal_elapsed());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
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

static double take_spread(void);
static void check_bounds(const char *name, const char *value);
static double pending = -1;     /* the spread the next parameter gets */

static char *vformat(const char *fmt, va_list ap);

/* note (freed) with "; " and the formatted text after it (only the text
 * when note is empty) */
static char *append_note(char *note, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *append_note(char *note, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *more = vformat(fmt, ap);
    va_end(ap);
    char *with = malloc(strlen(note) + strlen(more) + 3);
    if (!with)
        MPI_Abort(MPI_COMM_WORLD, 1);
    sprintf(with, "%s%s%s", note, *note ? "; " : "", more);
    free(note);
    free(more);
    return with;
}

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
    /* the spread of what it was measured from, after its note */
    double sp = take_spread();
    if (sp >= 0 && isfinite(sp) && sp < 10)
        note = append_note(note, "spread %.2g%%", 100 * sp);
    else if (sp >= 0)
        note = append_note(note, "spread: over 1000%%");
    check_bounds(name, value);
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

/* ---- physical bounds ------------------------------------------------------ */

/* What no current machine gives, but a busy one measures: a difference
 * whose base ran in a slow spell comes out too small, a collective whose
 * process was descheduled too large. A parameter outside its bounds makes
 * its phase measured again (hpfcalibrate.c). Bounds in the unit as
 * written (cycles), or in seconds, hertz or bytes a second whatever the
 * unit written. */
typedef enum { B_CYCLES, B_SECONDS, B_HZ, B_RATE } BoundKind;
static struct {
    const char *name;
    BoundKind kind;
    double lo, hi;
    const char *why;
} bounds[] = {
    {"cpu.clock", B_HZ, 2e8, 8e9, "a processor clock"},
    {"op.dadd", B_CYCLES, 0.25, 100, "a REAL(8) add"},
    {"op.dmul", B_CYCLES, 0.25, 100, "a REAL(8) multiply"},
    {"op.ddiv", B_CYCLES, 0.5, 200, "a REAL(8) divide"},
    {"loop.setup", B_SECONDS, 0, 1e-6, "the start of a loop"},
    {"call.overhead", B_SECONDS, 0, 1e-6, "a call"},
    {"mem.alloc", B_SECONDS, 0, 1e-5, "malloc and free of a small block"},
    {"mem.bandwidth", B_RATE, 2e8, 5e12, "one process reading memory"},
    {"net.static.startup", B_SECONDS, 1e-8, 1e-2, "a message's start-up"},
    {"sync.overhead", B_SECONDS, 0, 1e-2, "a barrier"},
    {"rt.region", B_SECONDS, 0, 1e-4, "libhpfrt's region calls"},
    {"rt.loop", B_SECONDS, 0, 1e-4, "libhpfrt's iteration set of a cached loop"},
    {"rt.gather", B_SECONDS, 0, 1e-3, "libhpfrt's gather start-up"},
    {"rt.shift", B_SECONDS, 0, 1e-3, "libhpfrt's overlap shift of one cell"},
};

/* The unit a bound of kind k is given in. */
static const char *kind_unit(BoundKind k)
{
    return k == B_CYCLES ? "cycles" : k == B_SECONDS ? "s" : k == B_HZ ? "Hz" : "B/s";
}

static char violation[8][200];
static int nviolations;

/* A written value ("3.2 cycles", "1.5 us", "2600 MHz", "11.6 GB/s") in
 * seconds, hertz or bytes a second, its kind in *k; cycles stay cycles
 * when clock_hz is 0. 0 when it is not a number with one of these units. */
static int si_value(const char *value, double clock_hz, BoundKind *k, double *v)
{
    char *end;
    double x = strtod(value, &end);
    if (end == value)
        return 0;
    while (*end == ' ')
        end++;
    static const struct { const char *unit; BoundKind kind; double f; } units[] = {
        {"cycles", B_CYCLES, 1}, {"ns", B_SECONDS, 1e-9}, {"us", B_SECONDS, 1e-6},
        {"ms", B_SECONDS, 1e-3}, {"s", B_SECONDS, 1}, {"MHz", B_HZ, 1e6}, {"GHz", B_HZ, 1e9},
        {"Hz", B_HZ, 1}, {"MB/s", B_RATE, 1e6}, {"GB/s", B_RATE, 1e9},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            *k = units[i].kind;
            *v = x * units[i].f;
            if (*k == B_CYCLES && clock_hz > 0) {
                *k = B_SECONDS;
                *v = x / clock_hz;
            }
            return 1;
        }
    return 0;
}

int cal_si(const char *value, double clock_hz, double *v)
{
    BoundKind k;
    return si_value(value, clock_hz, &k, v);
}

/* value in the bound's kind: cycles as written, else in SI units */
static int bound_value(BoundKind k, const char *value, double *v)
{
    BoundKind got;
    if (!si_value(value, k == B_CYCLES ? 0 : cal_clock_hz, &got, v))
        return 0;
    return got == k;
}

const char *cal_value(const char *name)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i].name && strcmp(entries[i].name, name) == 0)
            return entries[i].value;
    return NULL;
}

/* Whether name = value is outside its bounds; the message in msg. */
static int out_of_bounds(const char *name, const char *value, char *msg, size_t len)
{
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        double v;
        if (strcmp(bounds[i].name, name) != 0 || !bound_value(bounds[i].kind, value, &v))
            continue;
        if (v >= bounds[i].lo && v <= bounds[i].hi)
            return 0;
        snprintf(msg, len, "%s = %s is %s its bound of %.4g %s for %s", name, value,
                 v < bounds[i].lo ? "below" : "above", v < bounds[i].lo ? bounds[i].lo
                 : bounds[i].hi, kind_unit(bounds[i].kind), bounds[i].why);
        return 1;
    }
    return 0;
}

static void check_bounds(const char *name, const char *value)
{
    char msg[200];
    if (!out_of_bounds(name, value, msg, sizeof msg))
        return;
    if (nviolations < 8)
        snprintf(violation[nviolations], sizeof violation[0], "%s", msg);
    nviolations++;
}

int cal_set_bound(const char *name, double lo, double hi)
{
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        if (strcmp(bounds[i].name, name) == 0) {
            bounds[i].lo = lo;
            bounds[i].hi = hi;
            return 1;
        }
    return 0;
}

const char *cal_bounded(void)
{
    static char list[512];
    if (!*list)
        for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%s (%s)", i ? ", " : "", bounds[i].name,
                     kind_unit(bounds[i].kind));
        }
    return list;
}

int cal_mark(void)
{
    nviolations = 0;
    return nentries;
}

int cal_violations(void)
{
    return nviolations;
}

const char *cal_violation(int i)
{
    return i < nviolations && i < 8 ? violation[i] : "";
}

void cal_rewind(int mark)
{
    while (nentries > mark) {
        Entry *e = &entries[--nentries];
        free(e->name);
        free(e->value);
        free(e->note);
    }
    nviolations = 0;
    pending = -1;
}

void cal_mark_busy(void)
{
    char msg[200];
    for (int i = 0; i < nentries; i++)
        if (entries[i].name && out_of_bounds(entries[i].name, entries[i].value, msg,
                                             sizeof msg))
            entries[i].note = append_note(entries[i].note, "OUT OF ITS BOUNDS (a busy machine)");
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

double cal_cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A batch of wall seconds w in which the thread ran cpu seconds had the
 * processor if it ran 90% of the time at least (the rest: interrupts, the
 * scheduler's tick); a batch under 0.1 ms is too short to tell. Counts the
 * batches and those that did not, when `last` (the last try) or it had. */
int cal_batch_had_cpu(double w, double cpu, int last)
{
    int had = cpu < 0 || w < 1e-4 || cpu >= 0.9 * w;
    if (had || last) {
        cal.batches++;
        cal.disturbed += !had;
    }
    return had;
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

/* ---- the spread of a measured value ------------------------------------- */

/* The distribution-free 95% confidence interval of the median of n sorted
 * values: between the order statistics of ranks (n+1)/2 -+ 0.98 sqrt(n)
 * (the normal approximation of the binomial; for n = 11, ranks 2 and 10).
 * Returns its half-width relative to the median (0 for fewer than 3). No
 * assumption on the distribution, which for times is skewed: a busy spell
 * only ever adds. */
static double median_spread(const double *sorted, int n, double med)
{
    if (n < 3)
        return 0;
    double h = 0.98 * sqrt((double)n);
    int r = (int)floor((n + 1) / 2.0 - h), s = (int)ceil((n + 1) / 2.0 + h);
    if (r < 1)
        r = 1;
    if (s > n)
        s = n;
    double hw = (sorted[s - 1] - sorted[r - 1]) / 2;
    return med != 0 ? hw / fabs(med) : hw > 0 ? INFINITY : 0;
}

static double last_hw;          /* the absolute half-width of the last cal_est */

double cal_est(double *v, int n)
{
    double m = cal_median(v, n);
    double rel = median_spread(v, n, m);
    last_hw = isfinite(rel) ? rel * fabs(m) : (n >= 3 ? (v[n - 1] - v[0]) / 2 : 0);
    if (rel > pending)
        pending = rel;
    return m;
}

double cal_last_hw(void)
{
    return last_hw;
}

void cal_spread_of(double value, double hw)
{
    cal_spread(value != 0 ? hw / fabs(value) : hw > 0 ? INFINITY : 0);
}

void cal_spread(double rel)
{
    pending = rel;
}

/* The spread of the next parameter (-1: none), and none after it. */
static double take_spread(void)
{
    double p = pending;
    pending = -1;
    return p;
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

/* Whether every job's median over the rounds so far is known within
 * cal.target (its confidence interval's half-width, relative). */
static int narrow(const double *t, int njobs, int rounds)
{
    double v[CAL_MAX_ROUNDS];
    for (int j = 0; j < njobs; j++) {
        for (int r = 0; r < rounds; r++)
            v[r] = t[r * njobs + j];
        double m = cal_median(v, rounds);
        if (median_spread(v, rounds, m) > cal.target)
            return 0;
    }
    return 1;
}

int cal_run(CalJob *jobs, int njobs, double *t)
{
    double t0 = cal_now();
    for (int j = 0; j < njobs; j++)
        jobs[j].iters = batch_iters(jobs[j].fn, jobs[j].arg);
    /* cal.reps rounds at least; more while a median is not yet narrow,
       up to cal.max_rounds or cal.max_s of this measurement */
    int r = 0;
    for (;;) {
        for (int j = 0; j < njobs; j++) {
            /* a batch during which the process did not have its processor
               the whole time is not a measurement: run again, twice */
            double w;
            for (int again = 0;; again++) {
                double s0 = cal_now(), c0 = cal_cpu_now();
                jobs[j].fn(jobs[j].arg, jobs[j].iters);
                w = cal_now() - s0;
                int last = again == 2 || cal.quick || cal_over_budget();
                if (cal_batch_had_cpu(w, cal_cpu_now() - c0, last) || last)
                    break;
            }
            t[r * njobs + j] = w / (double)jobs[j].iters / jobs[j].units;
        }
        r++;
        if (!cal_more_rounds(t, njobs, r, cal_now() - t0))
            break;
    }
    cal.rounds = r;
    return r;
}

int cal_more_rounds(const double *t, int njobs, int rounds, double elapsed)
{
    if (rounds < cal.reps && rounds < cal.max_rounds)
        return 1;
    int settled = narrow(t, njobs, rounds);
    if (!settled && rounds < cal.max_rounds && elapsed <= cal.max_s && !cal_over_budget())
        return 1;
    cal.measured++;
    cal.unsettled += !settled;
    return 0;
}

double cal_time(void (*fn)(void *arg, long iters), void *arg, double units)
{
    CalJob job = {fn, arg, units, 0};
    double v[CAL_MAX_ROUNDS];
    int n = cal_run(&job, 1, v);
    return cal_est(v, n);
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

void cal_put_params(FILE *f, CalComp c, int indent)
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

int cal_has_params(CalComp c)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i].comp == c && entries[i].name)
            return 1;
    return 0;
}
