/* rue_aag.h - the resource usage equations of an interpreted program
 * (interp/rue_aag.c; doc/forecasting.md). */
#ifndef HPF_RUE_AAG_H
#define HPF_RUE_AAG_H

#include "aag.h"
#include "rue.h"
#include "sag.h"
#include "source.h"

/* The equations of g, interpreted for np processors on sag (the AAUs'
 * metrics filled by engine_run): one phase per loop or call of the main
 * program's body and per stretch of other statements between them, or
 * where the program marks phases (marks[0..nmarks-1], in line order), one
 * per mark from it to the next; terms as rue_aag.c describes. r is
 * initialized here; rue_free frees it. Returns 0, or -1 when out of
 * memory. */
int rue_derive(Rue *r, const Aag *g, const SagGraph *sag, int np, const SrcPhaseMark *marks,
               int nmarks);

/* Where PARAMETER y lives: its module's name, else the name of the unit
 * of sp that declares it ("" for an unnamed main program). */
const char *rue_param_scope(const SpProgram *sp, const Symbol *y);

/* The seconds of kind k (computation: computation and overhead; the
 * others: communication) that AAU a took on the busiest processor, from
 * the metrics engine_run left: its slowest executions' time, in the part
 * those metrics take of its time on all processors. */
double rue_aau_seconds(const Aau *a, RueKind k);

/* The executions of a's terms of r at the binding val (the terms r has for
 * it, summed, the count of a message pattern's term without its messages),
 * and whether one of them is fitted. */
double rue_aau_execs(const Rue *r, int aau, const double *val, int *fitted);

#endif
