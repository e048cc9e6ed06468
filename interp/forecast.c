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
