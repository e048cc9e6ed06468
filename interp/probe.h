/* probe.h - hpfpredict's software probes (doc/probes.md, after Strube,
 * Rexachs & Luque): interval vectors (--bbv), the program's phases found by
 * clustering them (--phases, --save-phases), and the prediction of a run
 * from the times of the phases' representative intervals (--probe-predict,
 * the paper's equations 1 and 2). */
#ifndef HPF_PROBE_H
#define HPF_PROBE_H

#include "interact.h"
#include "rue.h"

/* --fit of a probe's times (the CSV HPFRT_PROBE wrote, whose phases file
 * it names): each probed phase's measured time against the equations' time
 * of its representative interval gives a factor; each term's constants are
 * scaled by the factors of the phases its AAU runs in, weighted by its
 * operations there (doc/probes.md). Terms scaled are flagged in touched
 * (r->nterm). Returns 0, or 1 after a message on stderr. */
int probe_fit_equations(Rue *r, const char *path, char *touched);

/* --bbv, --phases, --save-phases and --probe-predict: the exit status. */
int probe_main(Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name,
               Diag *diag);

#endif
