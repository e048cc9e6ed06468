/* probe.c - hpfpredict's software probes (probe.h, doc/probes.md).
 *
 * After Strube, Rexachs & Luque ("Software probes", 2009), who find a
 * program's phases with SimPoint (Sherwood et al., 2002) from basic block
 * vectors gathered under Pin, then run one representative interval of each
 * phase on the machine to be characterized. Here the interpretation gives
 * the vectors (bbv.c: each AAU's operations per interval), the clustering
 * is SimPoint's method (random projection to 15 dimensions, k-means for k
 * up to --maxk, the BIC of Pelleg & Moore, the smallest k reaching 90% of
 * the range of scores), and the SPMD program itself, run under
 * HPFRT_PROBE, times the representatives (runtime/hpfrt_probe.c). */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bbv.h"
#include "forecast.h"
#include "phases.h"
#include "probe.h"
#include "util.h"

/* ---- the phases of a program ---- */

typedef struct {
    double work;               /* operations of its intervals */
    int count;                 /* intervals */
    int rep;                   /* representative interval */
    int first_line, last_line; /* the representative's main lines */
    int probed;                /* its representative ends within the probe's budget */
    double *ops;               /* its operations by AAU (id - 1), over its intervals */
    int alt;                   /* the budget's second choice: the earliest interval no
                                  farther from the centre than half the phase's */
    int last;                  /* the probe times rep to last: the representative and
                                  the intervals of its phase that follow it (--probe-span) */
} Phase;

/* FNV-1a of the source and the -D values: what ties a probe's times to the
 * program and the sizes its phases were found for. */
static uint64_t fingerprint(const Options *o, const SrcFile *f)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < f->len; i++)
        h = (h ^ (unsigned char)f->text[i]) * 0x100000001b3ULL;
    for (int i = 0; i < o->ndefs; i++) {
        for (const char *p = o->defs[i].name; *p; p++)
            h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
        h = (h ^ '=') * 0x100000001b3ULL;
        for (const char *p = o->defs[i].value; *p; p++)
            h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
        h = (h ^ ';') * 0x100000001b3ULL;
    }
    return h;
}

/* The lines of the AAUs that hold at least a tenth of interval x's
 * operations. */
static void rep_lines(const Aag *g, const BbvInterval *x, int *lo, int *hi)
{
    *lo = 0;
    *hi = 0;
    double top = 0;
    for (int j = 0; j < x->nnz; j++)
        if (x->v[j] > top)
            top = x->v[j];
    for (int j = 0; j < x->nnz; j++) {
        const Aau *a = g->aau[x->id[j] - 1];
        if (x->v[j] < 0.1 * x->work && x->v[j] < top)
            continue;
        int l0 = a->line, l1 = a->line_end > a->line ? a->line_end : a->line;
        if (!*lo || l0 < *lo)
            *lo = l0;
        if (l1 > *hi)
            *hi = l1;
    }
}

/* Distances from a phase's centre closer than this are equal: the
 * intervals' vectors are scaled to their operations (a sum of 1), and a
 * millionth of that is no difference of behaviour, but the rounding of an
 * extrapolated loop's counts (pi's 1,800 intervals lie 3.8e-9 from their
 * centre, the run's first 2.5e-6). */
#define PHASE_SAME_DIST 1e-7

/* Among the members of phase p: the nearest the centre; of equals (within
 * a twentieth of the spread of distances), the earliest that is not the
 * phase's first (one of the same phase ran before it: the caches hold what
 * the phase uses), else the first.
 * With early, the earliest after the run's first interval of those within
 * a tenth of the spread of distances. */
static int pick(const Clustering *c, const double *dist, int n, int p, int early)
{
    double dmin = INFINITY, dmax = 0;
    int first = -1;
    for (int i = 0; i < n; i++) {
        if (c->label[i] != p)
            continue;
        if (first < 0)
            first = i;
        if (dist[i] < dmin)
            dmin = dist[i];
        if (dist[i] > dmax)
            dmax = dist[i];
    }
    /* equally near: within a twentieth of the spread (the intervals of an
       extrapolated loop differ by rounding alone) */
    double tol = 1e-9 * (dmax + 1e-300) + PHASE_SAME_DIST;
    double lim = dmin + (early ? 0.1 : 0.05) * (dmax - dmin) + tol;
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (c->label[i] != p || dist[i] > lim)
            continue;
        if (best < 0 || (best == first && i > 0) || (early && best == 0))
            best = i;
        if (best != first && (!early || best > 0))
            break;
    }
    return best;
}

/* The earliest member of phase p that starts `from` operations into the
 * run or later and is no farther from its centre than the median member
 * (not the phase's first where another is); -1 if none. */
static int pick_typical(const Bbv *b, const Clustering *c, const double *dist, int n, int p,
                        double from)
{
    int m = 0, first = -1;
    double *d = xmalloc(((size_t)n + 1) * sizeof *d);
    for (int i = 0; i < n; i++)
        if (c->label[i] == p)
            d[m++] = dist[i];
    /* the median, by selection of the middle */
    for (int i = 0; i <= m / 2; i++)
        for (int j = i + 1; j < m; j++)
            if (d[j] < d[i]) {
                double t = d[i];
                d[i] = d[j];
                d[j] = t;
            }
    double med = m ? d[m / 2] : 0;
    free(d);
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (c->label[i] != p)
            continue;
        if (first < 0)
            first = i;
        if (dist[i] <= med * (1 + 1e-12) + PHASE_SAME_DIST && bbv_interval(b, i)->wstart >= from) {
            if (best < 0 || best == first)
                best = i;
            if (best != first)
                break;
        }
    }
    return best;
}

/* Each phase's representative (pick). */
static void representatives(const Bbv *b, const double *x, int n, int dims,
                            const Clustering *c, int early, Phase *ph)
{
    double *cent = xcalloc((size_t)c->k * (size_t)dims, sizeof *cent);
    for (int i = 0; i < n; i++)
        for (int d = 0; d < dims; d++)
            cent[(size_t)c->label[i] * dims + d] += x[(size_t)i * dims + d];
    for (int p = 0; p < c->k; p++)
        for (int d = 0; d < dims; d++)
            cent[(size_t)p * dims + d] /= ph[p].count;
    double *dist = xmalloc((size_t)n * sizeof *dist);
    for (int i = 0; i < n; i++)
        dist[i] = sqrt(phase_dist2(x + (size_t)i * dims, cent + (size_t)c->label[i] * dims, dims));
    for (int p = 0; p < c->k; p++) {
        /* a typical member after the run's first hundredth where there is
           one: a run's start is slower than its course (pages, caches, the
           clock's frequency), and a probe there would carry that into the
           whole prediction */
        int settled = early ? -1 : pick_typical(b, c, dist, n, p, 0.01 * bbv_total_work(b));
        ph[p].rep = settled >= 0 ? settled : pick(c, dist, n, p, early);
        ph[p].alt = pick_typical(b, c, dist, n, p, 0);
        ph[p].probed = 1;
    }
    free(dist);
    free(cent);
}

static void put_where(FILE *out, const BbvInterval *x)
{
    if (x->top_line)
        fprintf(out, "DO of line %d, iteration %lld", x->top_line, x->top_iter);
    else
        fputs("outside the main program's DO loops", out);
}

/* The probe's run: the top-level DO loops it leaves early (from which
 * iteration, and the region entries made by the loop's end, which the
 * count jumps to), and what it costs, as a fraction of the whole run's
 * operations. */
typedef struct {
    int line;
    long long from, r_end;
} Skip;

typedef struct {
    Skip *skip;
    int nskip;
    double cost;
} Plan;

/* The fewest intervals of a span by default (doc/probes.md). */
#define PROBE_SPAN_LEAST 4

/* Each phase's span: its representative and up to span - 1 intervals of
 * the same phase right after it, timed as one (a longer time, less of the
 * machine's noise in it). */
static void set_spans(const Bbv *b, const int *label, Phase *ph, int k, int span)
{
    int n = bbv_count(b);
    for (int p = 0; p < k; p++) {
        int r = ph[p].rep, last = r;
        while (last + 1 < n && last + 1 - r < span && label[last + 1] == p)
            last++;
        ph[p].last = last;
    }
}

/* The operations rep to last. */
static double span_work(const Bbv *b, const Phase *q)
{
    double w = 0;
    for (int i = q->rep; i <= q->last; i++)
        w += bbv_interval(b, i)->work;
    return w;
}

/* The probe runs the program to the end of the last representative
 * probed, each representative after the interval before it (its warm-up)
 * where that one is in the same top-level DO.
 * A top-level DO the walk entered once is left, with EXIT, at the first
 * iteration none of these intervals needs, or after one iteration when it
 * holds none of them; not when one of them ends after the loop does. */
static void plan_probe(const Bbv *b, const int *label, int span, Phase *ph, int k, Plan *pl)
{
    set_spans(b, label, ph, k, span);
    int n = bbv_count(b), last = -1;
    char *need = xcalloc((size_t)n + 1, 1);
    for (int p = 0; p < k; p++)
        if (ph[p].probed) {
            /* its warm-up: the interval before it, when in the same loop (or
               outside loops both); else what runs before it once the loop
               before it is left */
            int r = ph[p].rep;
            for (int i = r; i <= ph[p].last; i++)
                need[i] = 1;
            if (r > 0 && bbv_interval(b, r - 1)->top_line == bbv_interval(b, r)->top_line)
                need[r - 1] = 1;
            if (ph[p].last > last)
                last = ph[p].last;
        }
    const BbvTopLoop *t;
    int nt = bbv_top_loops(b, &t);
    free(pl->skip);
    pl->skip = xmalloc(((size_t)nt + 1) * sizeof *pl->skip);
    pl->nskip = 0;
    long long stop = last >= 0 ? bbv_interval(b, last)->r1 : 0;
    for (int j = 0; j < nt; j++) {
        if (t[j].entered != 1 || t[j].r_start >= stop || t[j].r_end <= t[j].r_start)
            continue;
        long long upto = 0;
        int whole = 0;
        for (int i = 0; i < n && !whole; i++) {
            const BbvInterval *x = bbv_interval(b, i);
            if (!need[i] || x->r1 <= t[j].r_start || x->r0 >= t[j].r_end)
                continue;
            const BbvInterval *y = i + 1 < n ? bbv_interval(b, i + 1) : NULL;
            if (x->r1 >= t[j].r_end || !y || y->top_line != t[j].line)
                whole = 1;         /* it ends where the loop does, or after */
            else if (y->top_iter > upto)
                upto = y->top_iter;
        }
        if (!whole)
            pl->skip[pl->nskip++] = (Skip){t[j].line, upto + 1 > 2 ? upto + 1 : 2, t[j].r_end};
    }
    double run = 0;
    for (int i = 0; i <= last; i++) {
        const BbvInterval *x = bbv_interval(b, i);
        int skipped = 0;
        for (int s = 0; s < pl->nskip && !skipped; s++)
            skipped = x->top_line == pl->skip[s].line && x->top_iter >= pl->skip[s].from;
        if (!skipped)
            run += x->work;
    }
    double tot = bbv_total_work(b);
    pl->cost = tot > 0 ? run / tot : 1;
    free(need);
}

/* Within the budget: while the probe costs more, a phase's representative
 * is moved to its earlier second choice where that lowers the cost (the
 * most it can), else one phase is left unprobed (its time estimated): of
 * those whose leaving lowers the cost, the one that lowers it most for its
 * weight; down to one phase probed. */
static void fit_budget(const Bbv *b, const int *label, int span, Phase *ph, int k,
                       double budget, Plan *pl)
{
    /* span 0: each span a hundredth of the run, at least 4 intervals;
       halved down to 4 while the probe costs more than the budget, before
       any representative moves */
    int least = span ? span : PROBE_SPAN_LEAST;
    if (!span) {
        int n = bbv_count(b);
        span = n / 100 > least ? (n + 99) / 100 : least;
    }
    plan_probe(b, label, span, ph, k, pl);
    while (pl->cost > budget * (1 + 1e-12) && span > least) {
        span = span / 2 > least ? span / 2 : least;
        plan_probe(b, label, span, ph, k, pl);
    }
    Plan trial = {0};
    while (pl->cost > budget * (1 + 1e-12)) {
        int move = -1;
        double move_gain = 1e-12;
        for (int p = 0; p < k; p++) {
            if (!ph[p].probed || ph[p].alt < 0 || ph[p].alt >= ph[p].rep)
                continue;
            int r = ph[p].rep;
            ph[p].rep = ph[p].alt;
            plan_probe(b, label, span, ph, k, &trial);
            ph[p].rep = r;
            if (pl->cost - trial.cost > move_gain) {
                move_gain = pl->cost - trial.cost;
                move = p;
            }
        }
        if (move >= 0) {
            ph[move].rep = ph[move].alt;
            plan_probe(b, label, span, ph, k, pl);
            continue;
        }
        int probed = 0, best = -1;
        double best_gain = 0;
        for (int p = 0; p < k; p++)
            probed += ph[p].probed;
        for (int p = 0; p < k && probed > 1; p++) {
            if (!ph[p].probed)
                continue;
            ph[p].probed = 0;
            plan_probe(b, label, span, ph, k, &trial);
            ph[p].probed = 1;
            double gain = (pl->cost - trial.cost) / (ph[p].work + 1e-300);
            if (pl->cost - trial.cost > 1e-12 && gain > best_gain) {
                best_gain = gain;
                best = p;
            }
        }
        if (best < 0)
            break;
        ph[best].probed = 0;
        plan_probe(b, label, span, ph, k, pl);
    }
    free(trial.skip);
}

static void write_phases_json(FILE *out, const Options *o, const SrcFile *f, const Aag *g,
                              const Bbv *b, const Clustering *c, const Phase *ph,
                              const Plan *pl, int np)
{
    double tot = bbv_total_work(b);
    fputs("{\"program\": ", out);
    json_string(out, o->path);
    fprintf(out, ", \"np\": %d, \"values\": [", np);
    for (int i = 0; i < o->ndefs; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s=%s", o->defs[i].name, o->defs[i].value);
        if (i)
            fputs(", ", out);
        json_string(out, buf);
    }
    fprintf(out, "], \"interval\": %.17g, \"intervals\": %d, \"operations\": %.17g, "
            "\"region_entries\": %lld, \"seed\": %llu, \"maxk\": %d, \"k\": %d, \"bic\": [",
            bbv_interval_size(b), bbv_count(b), tot, bbv_total_regions(b),
            (unsigned long long)o->seed, c->maxk, c->k);
    for (int k = 1; k <= c->maxk; k++)
        fprintf(out, "%s%.17g", k > 1 ? ", " : "", c->bic[k]);
    fputs("],\n \"phases\": [", out);
    for (int p = 0; p < c->k; p++) {
        const BbvInterval *x = bbv_interval(b, ph[p].rep);
        fprintf(out, "%s\n  {\"phase\": %d, \"weight\": %.17g, \"operations\": %.17g, "
                "\"intervals\": %d, \"representative\": %d, \"first\": %lld, \"last\": %lld, "
                "\"rep_operations\": %.17g, \"span\": %d, \"lines\": [%d, %d], \"top_do_line\": %d, "
                "\"top_do_iteration\": %lld, \"probed\": %s",
                p ? "," : "", p + 1, tot > 0 ? ph[p].work / tot : 0, ph[p].work, ph[p].count,
                ph[p].rep, x->r0, x->r1, x->work, ph[p].last - ph[p].rep + 1, ph[p].first_line,
                ph[p].last_line,
                x->top_line, x->top_iter, ph[p].probed ? "true" : "false");
        /* the operations by AAU, of the phase and of its representative
           (what --fit of a probe's times needs) */
        fputs(",\n   \"vector\": [", out);
        for (int a = 0, m = 0; a < g->naau; a++)
            if (ph[p].ops[a] > 0)
                fprintf(out, "%s[%d, %.17g]", m++ ? ", " : "", a + 1, ph[p].ops[a]);
        /* the span's operations by AAU (what the probe times) */
        fputs("], \"rep_vector\": [", out);
        double *sv = xcalloc((size_t)g->naau + 1, sizeof *sv);
        for (int i = ph[p].rep; i <= ph[p].last; i++) {
            const BbvInterval *y = bbv_interval(b, i);
            for (int j = 0; j < y->nnz; j++)
                sv[y->id[j] - 1] += y->v[j];
        }
        for (int a = 0, m = 0; a < g->naau; a++)
            if (sv[a] > 0)
                fprintf(out, "%s[%d, %.17g]", m++ ? ", " : "", a + 1, sv[a]);
        free(sv);
        /* the main program's regions the representative enters: line, which
           of the line's regions (from 1), executions (hpfc --probe) */
        fputs("], \"statements\": [", out);
        for (int j = x->nnz, m = 0; j < x->nnz + x->nent; j++) {
            const Aau *a = g->aau[x->id[j] - g->naau - 1];
            if (!a->unit || !a->unit->main)
                continue;
            int ord = 1;
            for (int i = 0; i < a->id - 1; i++) {
                const Aau *y = g->aau[i];
                ord += y->line == a->line && y->unit == a->unit && bbv_region_head(y);
            }
            fprintf(out, "%s[%d, %d, %.17g]", m++ ? ", " : "", a->line, ord, x->v[j]);
        }
        fputs("]}", out);
    }
    fputs("],\n \"membership\": [", out);
    for (int i = 0; i < bbv_count(b); i++)
        fprintf(out, "%s%d", i ? ", " : "", c->label[i] + 1);
    fprintf(out, "],\n \"probe\": {\"fingerprint\": \"%016llx\", \"np\": %d, \"cost\": %.6g, "
            "\"marks\": [", (unsigned long long)fingerprint(o, f), np, pl->cost);
    for (int p = 0; p < c->k; p++) {
        const BbvInterval *x = bbv_interval(b, ph[p].rep);
        fprintf(out, "%s[%d, %lld, %lld, %.17g, %.17g]", p ? ", " : "", p + 1,
                ph[p].probed ? x->r0 : -1, ph[p].probed ? bbv_interval(b, ph[p].last)->r1 : -1,
                span_work(b, &ph[p]), ph[p].work);
    }
    fputs("], \"skips\": [", out);
    for (int s = 0; s < pl->nskip; s++)
        fprintf(out, "%s[%d, %lld, %lld]", s ? ", " : "", pl->skip[s].line, pl->skip[s].from,
                pl->skip[s].r_end);
    fputs("]}}\n", out);
}

static void write_phases_text(FILE *out, const Options *o, const Bbv *b, const Clustering *c,
                              const Phase *ph, const Plan *pl, int np)
{
    double tot = bbv_total_work(b);
    fprintf(out, "phases of %s on %d processor%s: %d interval%s of %.4g operations (%.4g in "
            "all, %lld region entries); k = %d by BIC (k from 1 to %d, seed %llu)\n",
            o->path, np, np == 1 ? "" : "s", bbv_count(b), bbv_count(b) == 1 ? "" : "s",
            bbv_interval_size(b), tot, bbv_total_regions(b), c->k, c->maxk,
            (unsigned long long)o->seed);
    fputs("phase  weight   intervals  representative  lines      where it starts\n", out);
    int unprobed = 0;
    for (int p = 0; p < c->k; p++) {
        const BbvInterval *x = bbv_interval(b, ph[p].rep);
        char lines[32];
        snprintf(lines, sizeof lines, "%d-%d", ph[p].first_line, ph[p].last_line);
        fprintf(out, "%-6d %.4f   %-10d %-15d %-10s ", p + 1, tot > 0 ? ph[p].work / tot : 0,
                ph[p].count, ph[p].rep, lines);
        put_where(out, x);
        fputs(ph[p].probed ? "\n" : " (not probed)\n", out);
        unprobed += !ph[p].probed;
    }
    fprintf(out, "probe: runs %.3g%% of the program's operations (to the end of the last "
            "representative probed", 100 * pl->cost);
    for (int s = 0; s < pl->nskip; s++)
        fprintf(out, "%s DO of line %d left at iteration %lld", s ? "," : "; the", pl->skip[s].line,
                pl->skip[s].from);
    fputs(")\n", out);
    if (unprobed)
        fprintf(out, "%d phase%s not probed, to keep the probe within %.3g of the run "
                "(--probe-budget): %s time is estimated at the probed phases' mean time per "
                "operation\n", unprobed, unprobed == 1 ? "" : "s", o->probe_budget,
                unprobed == 1 ? "its" : "their");
}

/* ---- --probe-predict ---- */

typedef struct {
    int phase;
    double secs, rep_work, phase_work;
} TimeRow;

typedef struct {
    char fp[80];
    int np;
    char phases[4096];         /* the phases file the probe ran (# phases=) */
    TimeRow *r;
    int n;
} Times;

static int times_error(const char *path, int line, const char *msg)
{
    if (line)
        fprintf(stderr, "%s:%d: error: %s\n", path, line, msg);
    else
        fprintf(stderr, "%s: error: %s\n", path, msg);
    return 1;
}

static int read_times(const char *path, Times *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "hpfpredict: error: cannot read '%s': %s\n", path, strerror(errno));
        return 1;
    }
    char buf[1024];
    int ln = 0, header = 0, bad = 0;
    while (!bad && fgets(buf, sizeof buf, f)) {
        ln++;
        if (!strchr(buf, '\n') && !feof(f)) {
            bad = times_error(path, ln, "line too long");
            break;
        }
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '#') {
            if (!strncmp(buf, "# fingerprint=", 14)) {
                size_t k = strlen(buf + 14);
                if (k >= sizeof t->fp)
                    k = sizeof t->fp - 1;
                memcpy(t->fp, buf + 14, k);
                t->fp[k] = '\0';
            }
            else if (!strncmp(buf, "# np=", 5))
                t->np = atoi(buf + 5);
            else if (!strncmp(buf, "# phases=", 9)) {
                size_t k = strlen(buf + 9);
                if (k >= sizeof t->phases)
                    k = sizeof t->phases - 1;
                memcpy(t->phases, buf + 9, k);
                t->phases[k] = '\0';
            }
            continue;
        }
        if (!buf[0])
            continue;
        if (!header) {
            if (strcmp(buf, "phase,first,last,seconds,rep_work,phase_work")) {
                bad = times_error(path, ln, "not a probe's times: the header must be "
                                  "'phase,first,last,seconds,rep_work,phase_work' (the CSV "
                                  "HPFRT_PROBE writes)");
                break;
            }
            header = 1;
            continue;
        }
        TimeRow r;
        double first, last;
        char extra;
        int n = sscanf(buf, "%d,%lf,%lf,%lf,%lf,%lf %c", &r.phase, &first, &last, &r.secs,
                       &r.rep_work, &r.phase_work, &extra);
        int unprobed = n == 6 && first == -1 && last == -1 && r.secs == -1;
        if (n != 6 || r.phase < 1 || (!unprobed && !(r.secs >= 0 && first >= 0 && last > first)) ||
            !isfinite(r.secs) || !(r.rep_work > 0) || !isfinite(r.rep_work) ||
            !(r.phase_work >= r.rep_work * (1 - 1e-9)) || !isfinite(r.phase_work)) {
            bad = times_error(path, ln, "a row must be phase (from 1), first and last "
                              "region entries, seconds >= 0 (-1, -1, -1: not probed), and "
                              "the representative's and the phase's operations (the "
                              "phase's at least the representative's)");
            break;
        }
        for (int i = 0; i < t->n && !bad; i++)
            if (t->r[i].phase == r.phase)
                bad = times_error(path, ln, "a phase given twice");
        t->r = xrealloc(t->r, (size_t)(t->n + 1) * sizeof *t->r);
        t->r[t->n++] = r;
    }
    fclose(f);
    if (!bad && !t->n)
        bad = times_error(path, 0, "no probe times in it");
    int measured = 0;
    for (int i = 0; i < t->n; i++)
        measured += t->r[i].secs >= 0;
    if (!bad && !measured)
        bad = times_error(path, 0, "no phase was probed in it");
    for (int p = 1; !bad && p <= t->n; p++) {
        int seen = 0;
        for (int i = 0; i < t->n; i++)
            seen |= t->r[i].phase == p;
        if (!seen)
            bad = times_error(path, 0, "the phases are not numbered 1 to N: one is missing "
                              "(a probe run that stopped early)");
    }
    if (bad) {
        free(t->r);
        t->r = NULL;
    }
    return bad;
}

/* The paper's equation 1, as a whole run: each phase's representative
 * time scaled to the phase's operations; a phase not probed at the probed
 * phases' mean time per operation. */
static double equation1(const Times *t, double *share)
{
    double T = 0, W = 0;
    for (int i = 0; i < t->n; i++)
        if (t->r[i].secs >= 0) {
            T += t->r[i].secs * t->r[i].phase_work / t->r[i].rep_work;
            W += t->r[i].phase_work;
        }
    double rate = W > 0 ? T / W : 0, all = 0;
    for (int i = 0; i < t->n; i++) {
        double x = t->r[i].secs >= 0 ? t->r[i].secs * t->r[i].phase_work / t->r[i].rep_work
                                     : rate * t->r[i].phase_work;
        if (share)
            share[i] = x;
        all += x;
    }
    return all;
}

static int probe_predict(const Options *o, const SrcFile *f)
{
    char want[80];
    snprintf(want, sizeof want, "%016llx", (unsigned long long)fingerprint(o, f));
    Times t, ref = {0};
    if (read_times(o->probe_times[0], &t))
        return 1;
    int status = 1;
    if (strcmp(t.fp, want)) {
        fprintf(stderr, "%s: error: the probe times are of another program or other -D "
                "values than '%s'%s (fingerprint %s, not %s)\n", o->probe_times[0], o->path,
                o->ndefs ? " with these -D values" : "", t.fp[0] ? t.fp : "missing", want);
        goto done;
    }
    if (o->ref) {
        if (read_times(o->ref, &ref))
            goto done;
        if (strcmp(ref.fp, want)) {
            fprintf(stderr, "%s: error: the reference's probe times are of another program "
                    "or other -D values than '%s' (fingerprint %s, not %s)\n", o->ref,
                    o->path, ref.fp[0] ? ref.fp : "missing", want);
            goto done;
        }
        int same = ref.n == t.n;
        for (int i = 0; same && i < t.n; i++)
            same = ref.r[i].phase == t.r[i].phase &&
                   fabs(ref.r[i].phase_work - t.r[i].phase_work) <= 1e-9 * t.r[i].phase_work;
        if (!same) {
            fprintf(stderr, "%s: error: the reference was probed with other phases than %s "
                    "(give both runs the same --save-phases file)\n", o->ref,
                    o->probe_times[0]);
            goto done;
        }
    }
    double *share = xmalloc((size_t)t.n * sizeof *share);
    double T = equation1(&t, share), Tr = o->ref ? equation1(&ref, NULL) : 0;
    double work = 0;
    for (int i = 0; i < t.n; i++)
        work += t.r[i].phase_work;
    int ref_mode = o->ref && o->ref_time >= 0;
    double P = ref_mode && Tr > 0 ? T / Tr : 0;
    double pred = ref_mode ? probe_equation2(T, Tr, o->ref_time) : T;
    if (ref_mode && !(Tr > 0)) {
        fprintf(stderr, "%s: error: the reference's probe times are all zero\n", o->ref);
        free(share);
        goto done;
    }
    if (o->format == FMT_JSON) {
        fputs("{\"program\": ", stdout);
        json_string(stdout, o->path);
        fputs(", \"times\": ", stdout);
        json_string(stdout, o->probe_times[0]);
        fprintf(stdout, ", \"np\": %d, \"equation\": %d, \"total\": %.9g, \"equation1\": %.9g",
                t.np, ref_mode ? 2 : 1, pred, T);
        if (ref_mode) {
            fputs(", \"reference\": ", stdout);
            json_string(stdout, o->ref);
            fprintf(stdout, ", \"ref_equation1\": %.9g, \"ref_time\": %.9g, \"P\": %.9g", Tr,
                    o->ref_time, 100 * P);
        }
        fputs(", \"phases\": [", stdout);
        for (int i = 0; i < t.n; i++)
            fprintf(stdout, "%s{\"phase\": %d, \"weight\": %.9g, \"seconds\": %.9g, "
                    "\"scale\": %.9g, \"share\": %.9g, \"probed\": %s}", i ? ", " : "",
                    t.r[i].phase, t.r[i].phase_work / work, share[i],
                    t.r[i].phase_work / t.r[i].rep_work, T > 0 ? share[i] / T : 0,
                    t.r[i].secs >= 0 ? "true" : "false");
        fputs("]}\n", stdout);
    } else {
        printf("probe prediction of %s from %s (%d process%s)\n", o->path, o->probe_times[0],
               t.np, t.np == 1 ? "" : "es");
        printf("phase  weight   probe time   x intervals   seconds      share\n");
        for (int i = 0; i < t.n; i++) {
            char pt[32];
            if (t.r[i].secs >= 0)
                snprintf(pt, sizeof pt, "%.6g", t.r[i].secs);
            else
                snprintf(pt, sizeof pt, "estimated");
            printf("%-6d %.4f   %-12s %-13.6g %-12.6g %.1f%%\n", t.r[i].phase,
                   t.r[i].phase_work / work, pt, t.r[i].phase_work / t.r[i].rep_work,
                   share[i], T > 0 ? 100 * share[i] / T : 0);
        }
        printf("equation 1 (the sum of weight x time over the phases, for the whole run): "
               "%.6g s\n", T);
        if (ref_mode)
            printf("equation 2: the reference's probe gives %.6g s, P = %.4f%%; its full "
                   "run's %.6g s x P = %.6g s\n", Tr, 100 * P, o->ref_time, pred);
        printf("predicted time: %.6g s\n", pred);
    }
    free(share);
    status = 0;
done:
    free(t.r);
    free(ref.r);
    return status;
}

/* ---- a probe's times calibrating the resource usage equations ---- */

/* The pairs [[id, value], ...] of "key" between s and end, into a dense
 * array v (n ids); 0, or -1 when the key is not there. */
static int pairs_in(const char *s, const char *end, const char *key, double *v, int n)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": [", key);
    const char *p = strstr(s, pat);
    if (!p || p >= end)
        return -1;
    p += strlen(pat);
    while (p < end && *p != ']') {
        while (p < end && *p != '[' && *p != ']')
            p++;
        if (p >= end || *p == ']')
            break;
        char *e;
        long id = strtol(p + 1, &e, 10);
        if (*e != ',')
            return -1;
        double x = strtod(e + 1, &e);
        if (*e != ']')
            return -1;
        if (id >= 1 && id <= n)
            v[id - 1] += x;
        p = e + 1;
        while (p < end && (*p == ',' || *p == ' ' || *p == '\n'))
            p++;
    }
    return 0;
}

int probe_fit_equations(Rue *r, const char *path, char *touched)
{
    Times t;
    if (read_times(path, &t))
        return 1;
    size_t len;
    int why;
    char *text = t.phases[0] ? file_read_all(t.phases, &len, &why) : NULL;
    if (!text) {
        fprintf(stderr, "hpfpredict: error: --fit %s: the probe's phases file '%s' cannot be "
                "read (the CSV names it in '# phases=')\n", path, t.phases[0] ? t.phases : "?");
        free(t.r);
        return 1;
    }
    int naau = 0;
    for (int i = 0; i < r->nterm; i++)
        if (r->term[i].aau > naau)
            naau = r->term[i].aau;
    /* the phases' operations by AAU, and their representatives' */
    double **vec = xcalloc((size_t)t.n + 1, sizeof *vec), **rep = xcalloc((size_t)t.n + 1, sizeof *rep);
    int bad = 0;
    const char *ph = strstr(text, "\"phases\": [");
    const char *stop = ph ? strstr(ph, "\"membership\"") : NULL;
    for (int i = 0; i < t.n && !bad; i++) {
        char pat[48];
        snprintf(pat, sizeof pat, "{\"phase\": %d,", t.r[i].phase);
        const char *s = ph ? strstr(ph, pat) : NULL;
        const char *e = s ? strstr(s + 1, "{\"phase\": ") : NULL;
        if (!e || (stop && e > stop))
            e = stop;
        vec[i] = xcalloc((size_t)naau + 1, sizeof **vec);
        rep[i] = xcalloc((size_t)naau + 1, sizeof **rep);
        if (!s || !e || pairs_in(s, e, "vector", vec[i], naau) ||
            pairs_in(s, e, "rep_vector", rep[i], naau))
            bad = 1;
    }
    if (bad)
        fprintf(stderr, "hpfpredict: error: --fit %s: '%s' is not the phases file of this probe "
                "(no operations by AAU for its phases: write it again with --save-phases)\n",
                path, t.phases);
    /* the equations at the probe's point: its processes, its sizes */
    double val[RX_MAX_VARS];
    memcpy(val, r->value, sizeof val);
    val[0] = t.np > 0 ? t.np : val[0];
    const char *vs = strstr(text, "\"values\": [");
    const char *ve = vs ? strchr(vs, ']') : NULL;
    for (const char *q = vs ? strchr(vs, '[') : NULL; q && ve && q < ve;) {
        const char *o1 = strchr(q, '"'), *o2 = o1 ? strchr(o1 + 1, '"') : NULL;
        if (!o1 || !o2 || o2 > ve)
            break;
        const char *eq = memchr(o1 + 1, '=', (size_t)(o2 - o1 - 1));
        for (int k = 1; eq && k < r->vars.n; k++)
            if ((size_t)(eq - o1 - 1) == strlen(r->vars.name[k]) &&
                !strncmp(o1 + 1, r->vars.name[k], (size_t)(eq - o1 - 1)))
                val[k] = strtod(eq + 1, NULL);
        q = o2 + 1;
    }
    double *T = xcalloc((size_t)naau + 1, sizeof *T), *ops = xcalloc((size_t)naau + 1, sizeof *ops);
    double *fa = xcalloc((size_t)naau + 1, sizeof *fa), *wa = xcalloc((size_t)naau + 1, sizeof *wa);
    int used = 0, scaled = 0;
    double lo = INFINITY, hi = 0;
    if (!bad) {
        for (int i = 0; i < r->nterm; i++)
            if (r->term[i].aau > 0)
                T[r->term[i].aau - 1] += rue_term_time(&r->term[i], val);
        for (int i = 0; i < t.n; i++)
            for (int a = 0; a < naau; a++)
                ops[a] += vec[i][a];
        for (int i = 0; i < t.n; i++) {
            if (t.r[i].secs < 0)
                continue;
            double D = 0;
            for (int a = 0; a < naau; a++)
                if (ops[a] > 0)
                    D += rep[i][a] * T[a] / ops[a];
            if (!(D > 0))
                continue;
            double f = t.r[i].secs / D;
            used++;
            if (f < lo)
                lo = f;
            if (f > hi)
                hi = f;
            for (int a = 0; a < naau; a++) {
                fa[a] += f * vec[i][a];
                wa[a] += vec[i][a];
            }
        }
        for (int i = 0; i < r->nterm; i++) {
            int a = r->term[i].aau - 1;
            if (a < 0 || !(wa[a] > 0))
                continue;
            double f = fa[a] / wa[a];
            r->term[i].base *= f;
            r->term[i].perbyte *= f;
            touched[i] = 1;
            scaled++;
        }
        if (!used) {
            fprintf(stderr, "hpfpredict: error: --fit %s: no probed phase has a time in the "
                    "equations (the probe is of another program?)\n", path);
            bad = 1;
        } else
            fprintf(stderr, "hpfpredict: %d term%s scaled by the times of %d probed phase%s "
                    "(factors %.3g to %.3g)\n", scaled, scaled == 1 ? "" : "s", used,
                    used == 1 ? "" : "s", lo, hi);
    }
    for (int i = 0; i < t.n; i++) {
        free(vec[i]);
        free(rep[i]);
    }
    free(vec);
    free(rep);
    free(T);
    free(ops);
    free(fa);
    free(wa);
    free(text);
    free(t.r);
    return bad;
}

/* ---- the interpretation with its interval vectors ---- */

int probe_main(Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name,
               Diag *diag)
{
    (void)sag_name;
    if (o->nprobe_times)
        return probe_predict(o, f);
    Program p;
    if (program_compile(o, f, o->defs, o->ndefs, &p, diag))
        return 1;
    p.g = program_abstract(o, &p, o->defs, o->ndefs);
    Bbv *b = bbv_new(p.g, o->interval);
    o->record = b;
    EngineResult res;
    int np = o->np[0], status = 1;
    int rc = program_interpret(o, f, sag, p.sp, p.g, o->defs, o->ndefs, np, 0, NULL, &res,
                               diag);
    o->record = NULL;
    if (rc)
        goto done;
    if (bbv_finish(b)) {
        fprintf(stderr, "hpfpredict: error: %s\n", bbv_error(b));
        goto done;
    }
    if (o->bbv && bbv_write_simpoint(b, o->bbv)) {
        fprintf(stderr, "hpfpredict: error: cannot write '%s': %s\n", o->bbv, strerror(errno));
        goto done;
    }
    if (!o->phases && !o->save_phases) {
        fprintf(stderr, "hpfpredict: %d interval%s of %.4g operations written to %s "
                "(%.4g operations, %lld region entries)\n", bbv_count(b),
                bbv_count(b) == 1 ? "" : "s", bbv_interval_size(b), o->bbv,
                bbv_total_work(b), bbv_total_regions(b));
        status = 0;
        goto done;
    }
    int n = bbv_count(b), dims = PHASE_DIMS;
    double *x = xmalloc((size_t)n * (size_t)dims * sizeof *x);
    for (int i = 0; i < n; i++) {
        const BbvInterval *v = bbv_interval(b, i);
        phase_project(v->id, v->v, v->nnz, v->work > 0 ? 1 / v->work : 0, dims, o->seed,
                      x + (size_t)i * dims);
    }
    Clustering c;
    phase_cluster(x, n, dims, o->maxk, o->seed, &c);
    Phase *ph = xcalloc((size_t)c.k, sizeof *ph);
    for (int q = 0; q < c.k; q++)
        ph[q].ops = xcalloc((size_t)p.g->naau + 1, sizeof *ph[q].ops);
    for (int i = 0; i < n; i++) {
        const BbvInterval *v = bbv_interval(b, i);
        Phase *q = &ph[c.label[i]];
        q->work += v->work;
        q->count++;
        for (int j = 0; j < v->nnz; j++)
            q->ops[v->id[j] - 1] += v->v[j];
    }
    representatives(b, x, n, dims, &c, o->early, ph);
    Plan plan = {0};
    fit_budget(b, c.label, o->probe_span, ph, c.k, o->probe_budget, &plan);
    for (int q = 0; q < c.k; q++)
        rep_lines(p.g, bbv_interval(b, ph[q].rep), &ph[q].first_line, &ph[q].last_line);
    status = 0;
    if (o->save_phases) {
        FILE *out = fopen(o->save_phases, "w");
        if (!out) {
            fprintf(stderr, "hpfpredict: error: cannot write '%s': %s\n", o->save_phases,
                    strerror(errno));
            status = 1;
        } else {
            write_phases_json(out, o, f, p.g, b, &c, ph, &plan, np);
            if (fclose(out)) {
                fprintf(stderr, "hpfpredict: error: cannot write '%s'\n", o->save_phases);
                status = 1;
            }
        }
    }
    if (!status && o->phases) {
        if (o->format == FMT_JSON)
            write_phases_json(stdout, o, f, p.g, b, &c, ph, &plan, np);
        else
            write_phases_text(stdout, o, b, &c, ph, &plan, np);
    }
    free(plan.skip);
    for (int q = 0; q < c.k; q++)
        free(ph[q].ops);
    free(ph);
    clustering_free(&c);
    free(x);
done:
    bbv_free(b);
    program_free(&p);
    return status;
}
