/* forecast.c - resource usage equations evaluated: see forecast.h. */
#include <config.h>

#include <math.h>
#include <string.h>

#include "forecast.h"

double rue_term_time(const RueTerm *t, const double *val)
{
    double grow = t->grow ? rx_eval(t->grow, val) : 1.0;
    double bytes = t->bytes ? rx_eval(t->bytes, val) : 0.0;
    double per = t->base * grow + (t->bytes ? bytes * t->perbyte : 0.0);
    return rx_eval(t->calls, val) * rx_eval(t->count, val) * per;
}

double rue_eval(const Rue *r, const double *val, double (*part)[RUE_NKIND], double *ptotal)
{
    if (part)
        memset(part, 0, (size_t)r->nphase * sizeof *part);
    if (ptotal)
        memset(ptotal, 0, (size_t)r->nphase * sizeof *ptotal);
    double total = 0;
    for (int i = 0; i < r->nterm; i++) {
        const RueTerm *t = &r->term[i];
        double s = rue_term_time(t, val);
        if (part)
            part[t->phase][t->kind] += s;
        if (ptotal)
            ptotal[t->phase] += s;
        total += s;
    }
    return total;
}

/* The seconds of one phase (-1: all), computation and communication apart. */
static double phase_time(const Rue *r, int phase, const double *val, double *comp, double *comm)
{
    double total = 0;
    *comp = *comm = 0;
    for (int i = 0; i < r->nterm; i++) {
        const RueTerm *t = &r->term[i];
        if (phase >= 0 && t->phase != phase)
            continue;
        double s = rue_term_time(t, val);
        total += s;
        if (t->kind == RUE_COMP)
            *comp += s;
        else if (t->kind == RUE_COMM)
            *comm += s;
    }
    return total;
}

int rue_sweet_spot(const Rue *r, int phase, double *val, const double *np, int n,
                   double *best_np, double *best_time, double *cross_np)
{
    if (n < 1)
        return -1;
    double saved = val[0];
    *best_np = np[0];
    *best_time = INFINITY;
    *cross_np = 0;
    for (int i = 0; i < n; i++) {
        double comp, comm;
        val[0] = np[i];
        double t = phase_time(r, phase, val, &comp, &comm);
        if (t < *best_time) {
            *best_time = t;
            *best_np = np[i];
        }
        if (!*cross_np && comm > comp)
            *cross_np = np[i];
    }
    val[0] = saved;
    return 0;
}

double rue_base(double seconds, double iterations)
{
    return iterations > 0 ? seconds / iterations : 0.0;
}

/* The two sums of a term group at one sample: the start-up's coefficient
 * (calls*count*grow) and the bytes' (calls*count*bytes). */
static void group_sums(const Rue *r, int line, RueKind kind, const double *val, double *a,
                       double *b, int *nterm)
{
    *a = *b = 0;
    *nterm = 0;
    for (int i = 0; i < r->nterm; i++) {
        const RueTerm *t = &r->term[i];
        if (t->line != line || t->kind != kind)
            continue;
        double cc = rx_eval(t->calls, val) * rx_eval(t->count, val);
        *a += cc * (t->grow ? rx_eval(t->grow, val) : 1.0);
        *b += t->bytes ? cc * rx_eval(t->bytes, val) : 0.0;
        (*nterm)++;
    }
}

/* The seconds of a term group at one sample, with its constants. */
static double group_time(const Rue *r, int line, RueKind kind, const double *val)
{
    double t = 0;
    for (int i = 0; i < r->nterm; i++)
        if (r->term[i].line == line && r->term[i].kind == kind)
            t += rue_term_time(&r->term[i], val);
    return t;
}

int rue_fit(Rue *r, const RueSample *s, int n, RueFitGroup *g, int max)
{
    int ng = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = s[j].line == s[i].line && s[j].kind == s[i].kind;
        if (seen)
            continue;
        int line = s[i].line, nterm = 0;
        RueKind kind = s[i].kind;
        /* the normal equations: [saa sab; sab sbb] (base, perbyte) = (sat, sbt) */
        double saa = 0, sab = 0, sbb = 0, sat = 0, sbt = 0;
        int ns = 0;
        double per_old = 0;
        for (int k = 0; k < r->nterm; k++)
            if (r->term[k].line == line && r->term[k].kind == kind && r->term[k].bytes)
                per_old = r->term[k].perbyte;
        for (int j = i; j < n; j++) {
            if (s[j].line != line || s[j].kind != kind)
                continue;
            double a, b;
            group_sums(r, line, kind, s[j].val, &a, &b, &nterm);
            saa += a * a;
            sab += a * b;
            sbb += b * b;
            sat += a * s[j].seconds;
            sbt += b * s[j].seconds;
            ns++;
        }
        if (!nterm || saa <= 0)
            continue;
        double base = 0, per = per_old;
        int both = 0;
        double det = saa * sbb - sab * sab;
        if (ns >= 2 && sbb > 0 && det > 1e-9 * saa * sbb) {
            base = (sat * sbb - sbt * sab) / det;
            per = (sbt * saa - sat * sab) / det;
            both = base >= 0 && per >= 0;
        }
        double scale = 0;
        if (!both) {
            /* the two cannot be told apart: every term's constants as they
               were, scaled by the one factor that fits the samples best -
               for a loop of one term, BASE = time / iterations */
            double sp = 0, pp = 0;
            for (int j = i; j < n; j++) {
                if (s[j].line != line || s[j].kind != kind)
                    continue;
                double pred = group_time(r, line, kind, s[j].val);
                sp += pred * s[j].seconds;
                pp += pred * pred;
            }
            if (pp > 0) {
                scale = sp / pp;
            } else {
                /* no constants to scale: one base for the group */
                per = per_old;
                base = (sat - per * sab) / saa;
                if (base < 0)
                    base = 0;
            }
        }
        /* the constants put on the terms: scaled, or the group's */
        double wa = 0, wb = 0, wp = 0;
        for (int k = 0; k < r->nterm; k++) {
            RueTerm *t = &r->term[k];
            if (t->line != line || t->kind != kind)
                continue;
            if (scale > 0) {
                double c = rx_eval(t->calls, s[i].val) * rx_eval(t->count, s[i].val);
                t->base *= scale;
                t->perbyte *= scale;
                wa += c;
                wb += c * t->base;
                wp = t->bytes ? t->perbyte : wp;
            } else {
                t->base = base;
                if (t->bytes)
                    t->perbyte = per;
            }
        }
        if (scale > 0) {
            /* reported: the group's mean base, weighted by the counts of its
               first sample */
            base = wa > 0 ? wb / wa : 0;
            per = wp;
        }
        double ss = 0, st = 0;
        for (int j = i; j < n; j++) {
            if (s[j].line != line || s[j].kind != kind)
                continue;
            double e = group_time(r, line, kind, s[j].val) - s[j].seconds;
            ss += e * e;
            st += s[j].seconds * s[j].seconds;
        }
        if (ng < max)
            g[ng] = (RueFitGroup){line, kind, nterm, ns, base, per, both,
                                  st > 0 ? sqrt(ss / st) : 0};
        ng++;
    }
    return ng < max ? ng : max;
}
