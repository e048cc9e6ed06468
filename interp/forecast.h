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

/* One measurement: the seconds a run spent in the terms of one source line
 * and kind (a region of libhpfrt's profile), at the sizes and processor
 * count val binds (val[0] is P). */
typedef struct {
    double val[RX_MAX_VARS];
    int line;
    RueKind kind;
    double seconds;
} RueSample;

/* What rue_fit did to one group of terms (a line and a kind). */
typedef struct {
    int line;
    RueKind kind;
    int nterm, nsample;
    double base, perbyte;      /* the constants given to every term of the group */
    int both;                  /* both fitted (else only base: the papers' BASE, or
                                  start-up and per-byte could not be told apart) */
    double rms;                /* relative root mean square residual of the samples */
} RueFitGroup;

/* Fit the constants of r's terms to measured runs by least squares: the
 * terms of each line and kind share one base and, where they move bytes,
 * one per-byte cost. A term's time is linear in them,
 *
 *     seconds = base * SUM calls*count*grow + perbyte * SUM calls*count*bytes,
 *
 * so each group's constants solve the normal equations over its samples;
 * with one sample, or where the two sums keep one ratio in every sample
 * (start-up and per-byte cannot be told apart), or where a constant would
 * come out negative, every term's constants as they were are scaled by the
 * one factor that fits the samples best (a loop's set-up and its
 * iterations keep their ratio) - for a loop of one term, the papers' BASE
 * = time / iterations; the group's base reported is then its terms' mean,
 * weighted by their counts at its first sample. Groups without samples,
 * and samples of no term, are left alone; the groups fitted are written to
 * g[0..max-1] (their number is the return value). */
int rue_fit(Rue *r, const RueSample *s, int n, RueFitGroup *g, int max);

#endif
