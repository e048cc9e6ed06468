/* forecast_run.h - hpfpredict's forecasting modes (forecast_run.c) and
 * the forecast diagrams (forecast_plot.c); doc/forecasting.md. */
#ifndef HPF_FORECAST_RUN_H
#define HPF_FORECAST_RUN_H

#include <stdio.h>

#include "interact.h"
#include "rue.h"

/* --rue, --forecast, --sweet-spot (o->rue, o->forecast, o->sweet_spot):
 * the exit status; o->plot_out, when open, gets the forecast's diagrams
 * and is closed. */
int forecast_main(Options *o, const SrcFile *f, SagGraph *sag, const char *sag_name, Diag *diag);

/* Whether the --set experiments act on the equations (a forecast whose
 * every --set is cpu.speed=K or net.bandwidth=K) rather than on the SAG. */
int forecast_sets_on_equations(const Options *o);

/* The equations as text and as JSON (with each term's formula and
 * seconds at the point of derivation). */
void rue_write_text(FILE *out, const Rue *r, const char *program, const char *sag);
void rue_write_json(FILE *out, const Rue *r, const char *program, const char *sag);

/* One forecast point: a processor count at one combination of -D values
 * (label, "" for none), the program's and each phase's seconds. */
typedef struct {
    int np;
    char *label;
    double total;
    double part[RUE_NKIND];
    double ptotal[RUE_MAX_PHASES];
    double ppart[RUE_MAX_PHASES][RUE_NKIND];
} FPoint;

typedef struct {
    const char *program, *sag;
    const Rue *r;              /* its phases name the curves */
    const FPoint *pt;          /* grouped by label, each group ordered as -np */
    int n;
} ForecastPlot;

/* The forecast diagrams of the papers in one standalone SVG document:
 * each component against P, one curve per phase (the first -D
 * combination); each phase's total against P with its sweet spot marked;
 * and, when there are several combinations, a map of P against them
 * shaded by log10 of the time, one panel per component. 0, or -1 when
 * there is nothing to draw or writing fails. */
int forecast_svg(FILE *out, const ForecastPlot *p);

#endif
