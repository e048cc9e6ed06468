/* report.h - what hpfpredict prints after an interpretation: the summary
 * and the AAU tree with its times, as text or as JSON (the keys of
 * doc/predict.md, after the contract in the design's cli.md); and the
 * queries on it: profiles of the program, of an AAU and of its sub-AAG,
 * per source line (--line, --lines, the annotated listing), as text, JSON
 * or CSV, and per-line costs in the callgrind format. The attribution
 * rules and the schemas are in doc/outputs.md. */
#ifndef HPF_REPORT_H
#define HPF_REPORT_H

#include <stdio.h>

#include "engine.h"

/* A range of source lines, both ends included. */
typedef struct {
    int first, last;
} LineRange;

/* What was asked for beyond the plain report. */
typedef struct {
    int profile;               /* --profile: the whole program's profile */
    const int *aau;            /* --aau ID: the AAU and its sub-AAG */
    int naau;
    const int *line;           /* --line N */
    int nline;
    const LineRange *range;    /* --lines A-B */
    int nrange;
    int annotate;              /* --annotate: every line of the source */
} ReportQuery;

typedef struct Report {
    const char *program;       /* the source file as given */
    const char *sag;           /* the SAG file or built-in name */
    const Aag *g;
    const EngineResult *r;
    const SrcFile *src;        /* the source, for listings (NULL: lines without text) */
    const ReportQuery *q;      /* NULL, or no query in it: the plain report */
    const char *values;        /* the -D values of a sweep's point ("n=32 maxit=10"),
                                  or NULL */
    void (*extra)(FILE *out, const struct Report *rp, void *ctx);
                               /* report_json: more keys, after "profiles" (each
                                  written ",\n \"key\": value"); NULL: none */
    void *extra_ctx;
} Report;

/* Metrics of an AAU and everything below it (branches, bodies): m[M_*] the
 * mean per processor, *slow the sum of its executions' slowest times. */
void report_subtree(const Aau *a, int np, double m[M_N], double *slow);

/* Does q ask for anything beyond the plain report? */
int report_has_query(const ReportQuery *q);

/* The plain report: summary and AAU tree. */
void report_text(FILE *out, const Report *rp);
/* The answers to rp->q as text: the program's profile, then the AAUs, the
 * lines, the ranges and the annotated listing asked for. */
void report_query_text(FILE *out, const Report *rp);
/* One JSON object; `indent` spaces before each line (for sweeps in an
 * array). With a query, "aau" holds the sub-AAGs asked for, "lines" the
 * lines, and "profiles" the profiles. */
void report_json(FILE *out, const Report *rp, int indent);
/* Each source line's mean time per processor (the own time of the AAUs
 * that start on it, as in --annotate): (*t)[1 .. n], malloc'ed; returns n,
 * the number of lines. */
int report_line_means(const Report *rp, double **t);

/* A number of the JSON outputs: %.12g, 0 for what is not finite (JSON
 * has no NaN or Infinity). */
void report_num(FILE *out, double v);

/* The own profile of AAU a, as an element of "profiles" (scope "aau"). */
void report_aau_json(FILE *out, const Aau *a, int np);
/* CSV: the header row (once per output), then the rows of one prediction:
 * the program, and the AAUs (every one, own time, without a query) or the
 * answers to the query. */
void report_csv_header(FILE *out);
void report_csv(FILE *out, const Report *rp);
/* Per-line costs in the callgrind profile format (KCachegrind,
 * callgrind_annotate); `cmd` the command line shown. */
void report_callgrind(FILE *out, const Report *rp, const char *cmd);


#endif
