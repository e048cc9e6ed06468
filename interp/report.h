/* report.h - what hpfpredict prints after an interpretation: the summary
 * and the AAU tree with its times, as text or as JSON (the keys of
 * doc/predict.md, after the contract in the design's cli.md). */
#ifndef HPF_REPORT_H
#define HPF_REPORT_H

#include <stdio.h>

#include "engine.h"

typedef struct {
    const char *program;       /* the source file as given */
    const char *sag;           /* the SAG file or built-in name */
    const Aag *g;
    const EngineResult *r;
} Report;

/* Metrics of an AAU and everything below it (branches, bodies): m[M_*] the
 * mean per processor, *slow the sum of its executions' slowest times. */
void report_subtree(const Aau *a, int np, double m[M_N], double *slow);

void report_text(FILE *out, const Report *rp);
/* One JSON object; `indent` spaces before each line (for sweeps in an array). */
void report_json(FILE *out, const Report *rp, int indent);

/* A JSON string literal. */
void json_string(FILE *out, const char *s);

#endif
