/* probe.h - hpfpredict's software probes (doc/probes.md, after Strube,
 * Rexachs & Luque): interval vectors (--bbv), the program's phases found by
 * clustering them (--phases, --save-phases), and the prediction of a run
 * from the times of the phases' representative intervals (--probe-predict,
 * the paper's equations 1 and 2). */
#ifndef HPF_PROBE_H
#define HPF_PROBE_H

#include "interact.h"

/* --bbv, --phases, --save-phases and --probe-predict: the exit status. */
int probe_main(Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name,
               Diag *diag);

#endif
