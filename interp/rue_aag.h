/* rue_aag.h - the resource usage equations of an interpreted program
 * (interp/rue_aag.c; doc/forecasting.md). */
#ifndef HPF_RUE_AAG_H
#define HPF_RUE_AAG_H

#include "aag.h"
#include "rue.h"
#include "sag.h"

/* The equations of g, interpreted for np processors on sag (the AAUs'
 * metrics filled by engine_run): one phase per loop or call of the main
 * program's body and per stretch of other statements between them; terms
 * as rue_aag.c describes. r is initialized here; rue_free frees it.
 * Returns 0, or -1 when out of memory. */
int rue_derive(Rue *r, const Aag *g, const SagGraph *sag, int np);

#endif
