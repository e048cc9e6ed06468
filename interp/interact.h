/* interact.h - the interactive mode of hpfpredict (-i): a prompt where the
 * report and its queries are asked for one after the other, and the
 * processor count and the -D values changed without compiling the program
 * again (doc/outputs.md). It drives the stages (stages.c) that the batch
 * run (hpfpredict.c) drives too: the compilation (front end, SPMD
 * lowering), the abstraction parse, and the interpretation (functional
 * interpreter and engine). */
#ifndef HPF_INTERACT_H
#define HPF_INTERACT_H

#include "aag.h"
#include "engine.h"
#include "frontend.h"
#include "report.h"
#include "sag.h"
#include "spmd.h"
#include "trace.h"

enum { MAX_NP = 4194304, MAX_POINTS = 256, MAX_SWEEP = 4096 };
/* The most processors a trace is recorded for: every event of every
 * processor is kept in memory and written out. */
enum { MAX_TRACE_NP = 4096 };

enum { FMT_TEXT, FMT_JSON, FMT_CSV };

/* A -D definition with a list of values (-D n=64,128): defs[def] takes
 * each in turn. */
typedef struct {
    int def;
    int n;
    char **v;
} DefList;

/* A --set with a list of values (--set cpu.speed=1,2,4): a sweep over
 * them, `cur` the one of the point being predicted. */
typedef struct {
    char *text;                /* a copy of the argument, cut into key and values */
    const char *key;
    int n, cur;
    char **v;
} SetList;

/* The command line. */
typedef struct {
    const char *path;
    const char *sag_arg;
    int np[MAX_POINTS];
    int nnp;
    Define *defs;
    int ndefs;
    const char *input;
    int unroll;
    int audit;                 /* --audit: check the walk against fi's sequential run */
    EngineTrips *trips;        /* --trips LINE=N|max */
    int ntrips;
    long long max_steps;
    const char **libs;
    int nlibs;
    int granularity;
    double overlap;
    int have_overlap;
    int dump_aag, dump_saag;
    const char *dot;
    int format;                /* FMT_* */
    int classes;
    DiagFormat diag_format;
    /* queries (the --aau IDs are checked against the AAG, the lines against
       the file) */
    int profile, annotate;
    int *aau;
    int naau;
    int *line;
    int nline;
    LineRange *range;
    int nrange;
    const char *callgrind;
    FILE *cg;                  /* opened before any work, removed on failure */
    char *cmd;                 /* the command line, for the callgrind header */
    const char *trace;         /* --trace FILE */
    int trace_fmt;             /* TRACE_* (from --trace-format or FILE's suffix) */
    int interactive;           /* -i */
    /* experiments (doc/experiments.md) */
    const char **sets;         /* --set NAME=VALUE, applied to the SAG in order */
    int nsets;
    SetList *slist;            /* --set NAME=V1,V2,...: swept, after the -D lists */
    int nslist;
    int loop_reorder;          /* -floop-reorder: the node compiler's loop interchange */
    int forall_written;        /* -fforall-nest=written: FORALL loops nested as written */
    int inline_calls;          /* -finline: its inline expansion of leaf procedures */
    DefList *dlist;            /* the -D definitions given a list of values: swept */
    int ndlist;
    int npoints;               /* predictions in the sweep (processor counts x values) */
    const char *plot;          /* --plot FILE: the sweep's SVG */
    FILE *plot_out;            /* opened before any work, removed on failure */
    int compare;               /* --compare: rank the alternative data mappings */
    int compare_limit;         /* --compare-limit N: rank the N fastest (0: the default,
                                  COMPARE_LIMIT) */
    const char *map_spec;      /* --map SPEC: predict under this mapping */
    const Remap *map;          /* the mapping the program is compiled under (NULL:
                                  as written) */
    double cutoff;             /* > 0: the engine ends the run there (EngineOptions) */
    struct EngineMemo *memo;   /* gathers' pairs kept across predictions (EngineOptions) */
    /* forecasting (forecast_run.c, doc/forecasting.md) */
    int rue;                   /* --rue: print the resource usage equations */
    int forecast;              /* --forecast: evaluate them over -np and -D */
    int sweet_spot;            /* --sweet-spot: each phase's best processor count */
    int rue_check;             /* --rue-check: the equations against interpretations */
    const char **fits;         /* --fit FILE: profiles of measured runs, or a saved fit */
    int nfits;
    const char *save_fit;      /* --save-fit FILE */
    /* software probes (probe.c, doc/probes.md) */
    const char *bbv;           /* --bbv FILE: the interval vectors, SimPoint's format */
    double interval;           /* --interval N: operations an interval (0: chosen) */
    int phases;                /* --phases: print the phases */
    int maxk;                  /* --maxk K: the most phases tried */
    unsigned long long seed;   /* --seed S: of the projection and the k-means starts */
    int early;                 /* --early: representatives early in the run */
    double probe_budget;       /* --probe-budget F: representatives probed end within
                                  this fraction of the run's operations */
    int probe_span;            /* --probe-span K: intervals of a phase timed together
                                  (0: a hundredth of the run, at least 4) */
    const char *save_phases;   /* --save-phases FILE: the phases and the probe, JSON */
    const char **probe_times;  /* --probe-predict FILE: a probe's times */
    int nprobe_times;
    const char *ref;           /* --ref FILE: the reference machine's probe times */
    double ref_time;           /* --ref-time T: its measured full run (seconds; < 0 none) */
    struct Bbv *record;        /* not an option: the interpretation records its
                                  intervals here (NULL: none) */
    const char *html;          /* --html FILE: the report page */
    FILE *html_out;            /* opened before any work, removed on failure */
    struct EngineProcs *procs; /* not an option: the interpretation puts each
                                  processor's times here (NULL: not wanted) */
} Options;

/* The label of -D combination c of a sweep ("n=64 maxit=10", the first
 * list varying fastest) in buf, the definitions set to its values
 * (hpfpredict.c). */
const char *sweep_values(Options *o, long c, char *buf, size_t n);

/* A compiled program: the lowered IR (in the arena) and its AAG. */
typedef struct {
    Arena *arena;
    SpProgram *sp;
    Aag *g;
} Program;

/* Front end and SPMD lowering of f with the -D values defs (each one's
 * `used` set when it names a PARAMETER). Returns 0, or 1 after errors on
 * diag (p left empty). */
int program_compile(const Options *o, const SrcFile *f, Define *defs, int ndefs, Program *p,
                    Diag *diag);
/* The abstraction parse of p->sp: the -D names that are not PARAMETERs are
 * variables held at their value. */
Aag *program_abstract(const Options *o, const Program *p, const Define *defs, int ndefs);
void program_free(Program *p);

/* Interprets g for np processors (the -D variables held at their values),
 * recording into trace when not NULL; prompt: READ data may be asked for on
 * the terminal. Returns 0 with *r filled, or 1 after errors on diag
 * (missing values, the step budget). */
int program_interpret(const Options *o, const SrcFile *f, const SagGraph *sag, const SpProgram *sp,
                      Aag *g, const Define *defs, int ndefs, int np, int prompt, Trace *trace,
                      EngineResult *r, Diag *diag);

/* The loop, of those the interpretation stopped in (r->stop), whose trip
 * count a convergence test decides (the outermost such), or -1. */
int program_stop_loop(const Aag *g, const EngineResult *r);

/* The number of lines of f (a last line without a newline counted). */
int source_nlines(const SrcFile *f);
/* A positive number filling s up to `stop` (NUL or a character), *rest
 * there; -1 if not. */
int parse_pos(const char *s, char stop, long *v, const char **rest);

/* Writes t to o->trace, or says why not on stderr (after `who`, the
 * program's name or nothing) and returns 1. */
int trace_save(const Options *o, const Trace *t, const char *who);

/* The interactive session on the compiled-once program f: commands read
 * from standard input until quit or its end. Returns the exit status. */
int interact(const Options *o, const SrcFile *f, const SagGraph *sag, const char *sag_name);

#endif
