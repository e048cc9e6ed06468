/* hpfrt_probe.c - the software probe of libhpfrt (doc/probes.md): with
 * HPFRT_PROBE=phases.json (what hpfpredict --save-phases wrote) the SPMD
 * program counts its region entries, times each phase's representative
 * interval (from the entry that starts it to the one that ends it; the
 * interval before it runs first and warms the caches), writes the times as
 * CSV (probe-times.csv, or HPFRT_PROBE_OUT) and stops after the last one.
 * Each time is the slowest process's. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hpfrt_impl.h"

#define rt hpfrt_rt

/* A synthetic probe's block is timed in rounds, of which the median is
 * kept: a disturbance of the machine spoils one round, not the time. */
enum { PROBE_MAX = 1024, MARK_FIELDS = 5, PROBE_ROUNDS = 5 };
/* The most region entries a mark or skip may name: counts are long long,
 * and a double holds integers exactly up to 2^53. */
#define PROBE_MAX_ENTRIES 9007199254740992.0

typedef struct {
    double phase, r0, r1, rep_work, phase_work;   /* as the file gives them */
    double t0, secs;
    int state;                /* 0 waiting, 1 timing, 2 timed, 3 not probed; a synthetic
                                 probe's block: 4 its first pass, 5 its repetitions */
    long reps, left;          /* a synthetic probe's block: repetitions a round, to go */
    long long e0;             /* and the region entries when its rounds began */
    int round;                /* its rounds timed */
    double rt[PROBE_ROUNDS];  /* their times */
} Mark;

/* A top-level DO the probe leaves early: from iteration `from` on, with
 * the count of region entries set to what the whole loop would have made. */
typedef struct {
    double line, from, r_end;
    double iter;              /* iterations begun */
} Skip;

static struct {
    int on;
    Mark *m;
    int n, done;
    Skip *s;
    int ns;
    char fp[80];
    int np;
    char path[4096];          /* the phases file, for hpfpredict --fit */
    int synth;                /* a synthetic probe (hpfc --probe) is running */
} pr;

/* The text after "key": in s (from p), or NULL. */
static const char *after_key(const char *s, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(s, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return *p == ':' ? p + 1 : NULL;
}

/* The rows of numbers of the array "key": [[a, b, ...], ...] after p, each
 * of `width` numbers, into *v (to be freed); the count, or -1 when there
 * is no such array. */
static int rows_of(const char *path, const char *p, const char *key, int width, double **v)
{
    *v = NULL;
    const char *q = after_key(p, key);
    if (!q)
        return -1;
    while (*q && *q != '[')
        q++;
    if (*q)
        q++;
    int n = 0, nv = 0, depth = 1;
    double *row = rt_alloc((size_t)width * sizeof *row);
    while (*q && depth > 0) {
        if (*q == '[') {
            depth++;
            nv = 0;
            q++;
        } else if (*q == ']') {
            if (depth == 2) {
                if (nv != width)
                    rt_error("HPFRT_PROBE: '%s': a row of \"%s\" has %d numbers, not %d", path,
                             key, nv, width);
                if (n == PROBE_MAX)
                    rt_error("HPFRT_PROBE: '%s': more than %d rows of \"%s\"", path,
                             PROBE_MAX, key);
                *v = rt_grow(*v, (size_t)(n + 1) * (size_t)width * sizeof **v);
                memcpy(*v + (size_t)n * width, row, (size_t)width * sizeof *row);
                n++;
            }
            depth--;
            q++;
        } else if ((*q >= '0' && *q <= '9') || *q == '-' || *q == '.') {
            char *end;
            double x = strtod(q, &end);
            if (end == q)
                rt_error("HPFRT_PROBE: '%s': a row of \"%s\" has '%c' where a number "
                         "belongs", path, key, *q);
            if (nv < width)
                row[nv] = x;
            nv++;
            q = end;
        } else
            q++;
    }
    free(row);
    return n;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        rt_error("HPFRT_PROBE: cannot read '%s': %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *s = rt_alloc(cap);
    size_t k;
    while ((k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) {
            cap *= 2;
            s = rt_grow(s, cap);
        }
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

/* The "probe" object of the phases file: its fingerprint, process count
 * and marks [phase, first, last, rep_work, phase_work]. */
static void parse(const char *path)
{
    char *text = read_file(path);
    const char *p = after_key(text, "probe");
    if (!p)
        rt_error("HPFRT_PROBE: '%s' has no \"probe\" object: write it with hpfpredict "
                 "--save-phases", path);
    const char *q = after_key(p, "fingerprint");
    if (!q || !(q = strchr(q, '"')))
        rt_error("HPFRT_PROBE: '%s': the probe has no fingerprint", path);
    size_t k = strcspn(q + 1, "\"");
    if (k >= sizeof pr.fp)
        k = sizeof pr.fp - 1;
    memcpy(pr.fp, q + 1, k);
    pr.fp[k] = '\0';
    q = after_key(p, "np");
    pr.np = q ? atoi(q) : 0;
    double *v;
    int rows = rows_of(path, p, "marks", MARK_FIELDS, &v);
    if (rows < 0)
        rt_error("HPFRT_PROBE: '%s': the probe has no marks", path);
    pr.m = rt_alloc((size_t)(rows + 1) * sizeof *pr.m);
    for (int i = 0; i < rows; i++) {
        double *x = v + (size_t)i * MARK_FIELDS;
        pr.m[pr.n++] = (Mark){x[0], x[1], x[2], x[3], x[4], 0, 0, 0, 0, 0, 0, 0, {0}};
    }
    free(v);
    rows = rows_of(path, p, "skips", 3, &v);
    pr.s = rt_alloc((size_t)(rows > 0 ? rows + 1 : 1) * sizeof *pr.s);
    for (int i = 0; i < rows; i++)
        pr.s[pr.ns++] = (Skip){v[3 * i], v[3 * i + 1], v[3 * i + 2], 0};
    free(v);
    free(text);
    if (!pr.n)
        rt_error("HPFRT_PROBE: '%s': the probe has no marks", path);
    for (int i = 0; i < pr.n; i++) {
        if (!(pr.m[i].r0 >= 0 && pr.m[i].r1 > pr.m[i].r0) &&
            !(pr.m[i].r0 == -1 && pr.m[i].r1 == -1))
            rt_error("HPFRT_PROBE: '%s': mark %d has an empty span", path, i + 1);
        if (!(pr.m[i].r1 <= PROBE_MAX_ENTRIES))
            rt_error("HPFRT_PROBE: '%s': mark %d ends past %.0e region entries", path, i + 1,
                     PROBE_MAX_ENTRIES);
    }
    for (int i = 0; i < pr.ns; i++)
        if (!(pr.s[i].r_end >= 0 && pr.s[i].r_end <= PROBE_MAX_ENTRIES && pr.s[i].from >= 0))
            rt_error("HPFRT_PROBE: '%s': skip %d is not [line, iteration, region entries]",
                     path, i + 1);
}

/* The next count after `after` at which a timer starts or stops. */
static void rearm(long long after)
{
    double next = -1;
    for (int i = 0; i < pr.n; i++) {
        const Mark *m = &pr.m[i];
        double r = m->state == 0 ? m->r0 : m->state == 1 ? m->r1 : -1;
        if (r > (double)after && (next < 0 || r < next))
            next = r;
    }
    rt.probe_next = next >= 0 ? (long long)next : -1;
}

void rt_probe_init(void)
{
    const char *path = rt.rank == 0 ? getenv("HPFRT_PROBE") : NULL;
    if (rt.rank == 0) {
        parse(path);
        if (!realpath(path, pr.path))
            snprintf(pr.path, sizeof pr.path, "%s", path);
    }
    MPI_Bcast(&pr.n, 1, MPI_INT, 0, rt.comm);
    MPI_Bcast(&pr.ns, 1, MPI_INT, 0, rt.comm);
    MPI_Bcast(&pr.np, 1, MPI_INT, 0, rt.comm);
    MPI_Bcast(pr.fp, (int)sizeof pr.fp, MPI_CHAR, 0, rt.comm);
    if (rt.rank != 0) {
        pr.m = rt_alloc((size_t)pr.n * sizeof *pr.m);
        pr.s = rt_alloc((size_t)(pr.ns + 1) * sizeof *pr.s);
    }
    MPI_Bcast(pr.m, (int)((size_t)pr.n * sizeof *pr.m), MPI_BYTE, 0, rt.comm);
    MPI_Bcast(pr.s, (int)((size_t)pr.ns * sizeof *pr.s), MPI_BYTE, 0, rt.comm);
    if (pr.np > 0 && pr.np != rt.np)
        rt_error("HPFRT_PROBE: the phases were found for %d processes; this run has %d "
                 "(hpfpredict -np %d --save-phases)", pr.np, rt.np, rt.np);
    pr.on = 1;
    rt.probe_count = 0;
    pr.done = 0;
    double now = MPI_Wtime();
    for (int i = 0; i < pr.n; i++)
        if (pr.m[i].r0 == 0) {
            pr.m[i].state = 1;
            pr.m[i].t0 = now;
        } else if (pr.m[i].r0 < 0) {
            pr.m[i].state = 3;          /* not probed: its time is estimated */
            pr.done++;
        }
    rearm(-1);
}

/* The times, the slowest process's, written by process 0. */
static void write_times(void)
{
    double *t = rt_alloc((size_t)pr.n * sizeof *t), *mx = rt_alloc((size_t)pr.n * sizeof *mx);
    for (int i = 0; i < pr.n; i++)
        t[i] = pr.m[i].state == 2 ? pr.m[i].secs : pr.m[i].state == 3 ? -1 : -2;
    MPI_Reduce(t, mx, pr.n, MPI_DOUBLE, MPI_MAX, 0, rt.comm);
    double el = MPI_Wtime() - rt.t_start, elapsed = 0;
    MPI_Reduce(&el, &elapsed, 1, MPI_DOUBLE, MPI_MAX, 0, rt.comm);
    if (rt.rank == 0) {
        const char *out = getenv("HPFRT_PROBE_OUT");
        if (!out || !*out)
            out = "probe-times.csv";
        FILE *f = fopen(out, "w");
        if (!f)
            rt_error("HPFRT_PROBE_OUT: cannot write '%s': %s", out, strerror(errno));
        fprintf(f, "# hpfrt probe times%s\n# fingerprint=%s\n# np=%d\n# elapsed=%.9g\n",
                pr.synth ? " (synthetic probe)" : "", pr.fp, rt.np, elapsed);
        if (!pr.synth)
            fprintf(f, "# phases=%s\n", pr.path);
        fputs("phase,first,last,seconds,rep_work,phase_work\n", f);
        for (int i = 0; i < pr.n; i++)
            if (mx[i] >= -1)
                fprintf(f, "%.0f,%.0f,%.0f,%.9g,%.17g,%.17g\n", pr.m[i].phase, pr.m[i].r0,
                        pr.m[i].r1, mx[i], pr.m[i].rep_work, pr.m[i].phase_work);
        if (fclose(f))
            rt_error("HPFRT_PROBE_OUT: cannot write '%s'", out);
    }
    free(t);
    free(mx);
}

void rt_probe_region(long long at)
{
    if (!pr.on)
        return;
    double pos = (double)at;
    double now = -1;
    for (int i = 0; i < pr.n; i++) {
        Mark *m = &pr.m[i];
        if (m->state == 1 && m->r1 == pos) {
            if (now < 0)
                now = MPI_Wtime();
            m->secs = now - m->t0;
            m->state = 2;
            pr.done++;
        }
        if (m->state == 0 && m->r0 == pos) {
            if (now < 0)
                now = MPI_Wtime();
            m->t0 = now;
            m->state = 1;
        }
    }
    rearm(at);
    if (pr.done == pr.n) {
        /* every interval timed: the probe ends the run here */
        write_times();
        if (rt.rank == 0)
            fprintf(stderr, "hpfrt: probe: %d interval%s timed after %lld region entries; "
                    "the run stops\n", pr.n, pr.n == 1 ? "" : "s", at);
        free(pr.m);
        free(pr.s);
        pr.on = 0;
        MPI_Finalize();
        exit(0);
    }
}

void rt_probe_finish(void)
{
    if (pr.synth) {
        /* the blocks' times, as a probe's */
        write_times();
        pr.on = pr.synth = 0;
        free(pr.m);
        pr.m = NULL;
        pr.n = 0;
        return;
    }
    if (!pr.on)
        return;
    /* an interval that ends with the run */
    double now = MPI_Wtime();
    for (int i = 0; i < pr.n; i++)
        if (pr.m[i].state == 1 && pr.m[i].r1 == (double)rt.probe_count) {
            pr.m[i].secs = now - pr.m[i].t0;
            pr.m[i].state = 2;
            pr.done++;
        }
    write_times();
    if (rt.rank == 0 && pr.done < pr.n)
        fprintf(stderr, "hpfrt: probe: warning: the run ended after %lld region entries with "
                "%d of %d intervals timed: the phases are of another program, size or "
                "process count\n", rt.probe_count, pr.done, pr.n);
    free(pr.m);
    free(pr.s);
    pr.m = NULL;
    pr.s = NULL;
    pr.on = 0;
}

void hpfrt_probe_synth_(const char *fp, const int *np, size_t len)
{
    rt_need_init("hpfrt_probe_synth");
    if (*np > 0 && *np != rt.np && rt.rank == 0)
        fprintf(stderr, "hpfrt: probe: note: the phases were found for %d processes; this run "
                "has %d: the times are of these\n", *np, rt.np);
    if (len >= sizeof pr.fp)
        len = sizeof pr.fp - 1;
    memcpy(pr.fp, fp, len);
    pr.fp[len] = '\0';
    pr.synth = 1;
}

/* The least time a synthetic probe's block is repeated for (seconds). */
static double min_time(void)
{
    const char *s = getenv("HPFRT_PROBE_MIN");
    double v = s && *s ? atof(s) : 0;
    return v > 0 ? v : 0.05;
}

int hpfrt_probe_again_(const int *phase, const double *rep_work, const double *phase_work,
                       const double *execs)
{
    rt_need_init("hpfrt_probe_again");
    Mark *m = NULL;
    for (int i = 0; i < pr.n && !m; i++)
        if (pr.m[i].phase == *phase)
            m = &pr.m[i];
    if (!m) {
        pr.m = rt_grow(pr.m, (size_t)(pr.n + 1) * sizeof *pr.m);
        m = &pr.m[pr.n++];
        *m = (Mark){*phase, 0, 1, *rep_work, *phase_work, 0, 0, 0, 0, 0, 0, 0, {0}};
    }
    double now = MPI_Wtime();
    switch (m->state) {
    case 0:
        /* a first pass: it warms the caches and sizes the repetitions */
        m->state = 4;
        m->t0 = now;
        return 1;
    case 4: {
        double t = now - m->t0, tmax = 0;
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, rt.comm);
        double want = min_time() / PROBE_ROUNDS;
        double r = tmax > 0 ? want / tmax + 1 : 1e6;
        m->reps = m->left = r > 1e6 ? 1000000 : (long)r;
        m->state = 5;
        m->round = 0;
        m->e0 = rt.entries;
        m->t0 = MPI_Wtime();
        return 1;
    }
    case 5: {
        if (--m->left > 0)
            return 1;
        m->rt[m->round++] = now - m->t0;
        if (m->round < PROBE_ROUNDS) {
            m->left = m->reps;
            m->t0 = MPI_Wtime();
            return 1;
        }
        /* the median round's repetition, scaled from the region entries
           one made to the executions the interval makes */
        double *t = m->rt;
        for (int i = 1; i < PROBE_ROUNDS; i++)
            for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
                double x = t[j];
                t[j] = t[j - 1];
                t[j - 1] = x;
            }
        double made = (double)(rt.entries - m->e0) / ((double)m->reps * PROBE_ROUNDS);
        m->secs = t[PROBE_ROUNDS / 2] / (double)m->reps * (made > 0 ? *execs / made : 1);
        m->state = 2;
        return 0;
    }
    default:
        return 0;
    }
}

void hpfrt_probe_unmeasured_(const int *phase, const double *rep_work, const double *phase_work)
{
    rt_need_init("hpfrt_probe_unmeasured");
    pr.m = rt_grow(pr.m, (size_t)(pr.n + 1) * sizeof *pr.m);
    pr.m[pr.n++] = (Mark){*phase, -1, -1, *rep_work, *phase_work, 0, 0, 3, 0, 0, 0, 0, {0}};
}

int hpfrt_probe_next_(const int *line)
{
    if (!pr.on)
        return 0;
    for (int i = 0; i < pr.ns; i++) {
        Skip *s = &pr.s[i];
        if (s->line != (double)*line || s->iter < 0)
            continue;
        /* after iteration iter: left when the next is `from` or later (an
           iteration a CYCLE ended is not counted: left later) */
        if (++s->iter < s->from - 1)
            return 0;
        /* the rest of the loop is not run: the count goes on from its end */
        s->iter = -1;
        rt.probe_count = (long long)s->r_end;
        rearm(rt.probe_count - 1);
        return 1;
    }
    return 0;
}
