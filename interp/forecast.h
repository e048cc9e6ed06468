/* forecast.h - evaluating resource usage equations (analysis/rue.h): the
 * seconds of each phase and component at given sizes and processor
 * counts, sweet spots, and the papers' BASE from a measured run.
 * Evaluation is closed form: nothing is interpreted. */
#ifndef HPF_FORECAST_H
#define HPF_FORECAST_H

#include "rue.h"

/* One term's seconds with the variables bound. */
double rue_term_time(const RueTerm *t, const double *val);

/* The seconds of every phase and component: part[phase][kind], and the
 * totals of each phase (ptotal[phase]) and of the program (the return
 * value). val binds every variable (val[0] is P). A NULL part or ptotal
 * is not written. */
double rue_eval(const Rue *r, const double *val, double (*part)[RUE_NKIND], double *ptotal);

/* Sweet spots of one phase (-1: the program) over the processor counts
 * np[0..n-1] (val gives the other variables; val[0] is overwritten and
 * restored): the count of least total time (the first such), and the
 * first count at which communication exceeds computation (0: none).
 * Returns 0, or -1 when n < 1. */
int rue_sweet_spot(const Rue *r, int phase, double *val, const double *np, int n,
                   double *best_np, double *best_time, double *cross_np);

/* The papers' BASE of a loop from one run: time / iterations (0 when no
 * iteration ran). */
double rue_base(double seconds, double iterations);

#endif
