/* sag.h - the System Abstraction Graph: a rooted tree of System Abstraction
 * Units read from a .sag file (doc/sag.md), every value converted to base
 * units (seconds, bytes, bytes/s, Hz; cycles kept with the unit's clock). */
#ifndef HPF_SAG_H
#define HPF_SAG_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"

/* The four components of a unit, in the order a dump writes them. */
typedef enum {
    SAG_PROCESSING,
    SAG_MEMORY,
    SAG_COMM,          /* communication and synchronization */
    SAG_IO,
    SAG_NCOMP
} SagComp;

typedef enum {
    SAG_VOID,          /* absent, or written `void` */
    SAG_SIMPLE,        /* a list of parameters */
    SAG_COMPOUND       /* decomposed into sub-units */
} SagForm;

/* What a value measures; the value is stored in the base unit of its kind. */
typedef enum {
    SAG_COUNT,         /* a plain number: associativity, dimension */
    SAG_TIME,          /* seconds */
    SAG_CYCLES,        /* clock cycles, converted with SagParam.clock_hz */
    SAG_FREQ,          /* Hz */
    SAG_SIZE,          /* bytes */
    SAG_RATE,          /* bytes per second */
    SAG_KEYWORD        /* a lower-case word: lru, hypercube, ... */
} SagKind;

typedef struct SagParam {
    const char *name;      /* dotted lower-case, e.g. "net.static.startup" */
    SagKind kind;
    double value;          /* in the base unit of kind (not for SAG_KEYWORD) */
    const char *keyword;   /* SAG_KEYWORD only */
    double clock_hz;       /* SAG_CYCLES only: cpu.clock seen from the unit */
    int line, col;         /* where it was written */
} SagParam;

typedef struct SagGraph SagGraph;
typedef struct SagUnit SagUnit;

/* Loading: NULL when there were errors, each reported on err (NULL: stderr)
 * as "file:line:col: error: message" with the line quoted; *nerrors (when
 * not NULL) gets their count. NAME is the file name the messages show. */
SagGraph *sag_load_file(const char *path, FILE *err, int *nerrors);
SagGraph *sag_load_string(const char *name, const char *text, FILE *err, int *nerrors);
/* The same with the caller's diagnostics (their format, their count): the
 * file at path, or text when it is not NULL (name naming it). */
SagGraph *sag_load_diag(const char *name, const char *text, const char *path, Diag *d);
void sag_free(SagGraph *g);

/* The text of a machine description compiled into the program ("ipsc860"),
 * NULL for an unknown name. */
const char *sag_builtin(const char *name);

/* Units, in preorder: unit 0 is the root. */
const SagUnit *sag_root(const SagGraph *g);
int sag_nunits(const SagGraph *g);
const SagUnit *sag_unit(const SagGraph *g, int i);
/* The unit at a path of names below the root, "cube/node"; "" is the root.
 * The root's own name may lead the path ("ipsc860/cube"). NULL if none. */
const SagUnit *sag_find_unit(const SagGraph *g, const char *path);

const char *sag_unit_name(const SagUnit *u);
int sag_unit_count(const SagUnit *u);            /* identical instances, [N] */
const SagUnit *sag_unit_parent(const SagUnit *u); /* NULL for the root */
SagComp sag_unit_comp(const SagUnit *u);          /* the parent's component holding it */
int sag_unit_nchildren(const SagUnit *u);
const SagUnit *sag_unit_child(const SagUnit *u, int i);

SagForm sag_form(const SagUnit *u, SagComp c);
int sag_nparams(const SagUnit *u, SagComp c);
const SagParam *sag_param(const SagUnit *u, SagComp c, int i);

/* A parameter by name, searched in the unit's components and then in its
 * ancestors' (a node inherits what the whole machine states once). */
const SagParam *sag_lookup(const SagUnit *u, const char *name);
/* The value in seconds of a SAG_TIME or SAG_CYCLES parameter found by
 * sag_lookup, or DFLT when there is none or it is of another kind. */
double sag_seconds(const SagUnit *u, const char *name, double dflt);
/* The value of any other numeric parameter in its base unit, or DFLT. */
double sag_value(const SagUnit *u, const char *name, double dflt);

const char *sag_comp_name(SagComp c);   /* "processing", "memory", "comm", "io" */
const char *sag_kind_name(SagKind k);

/* Experiments (doc/sag.md, "Experiments"): change the machine, never the
 * program, as in the paper's section 5.2. An assignment is one of
 *   cpu.speed=K, net.bandwidth=K, net.load=X, comm.overlap=F (the table),
 *   NAME=VALUE   every definition of the parameter NAME in the graph takes
 *                VALUE, written as in a .sag file ("16KiB", "50us", "lru");
 *                UNIT/NAME=VALUE only the one in the unit at that path,
 *   NAME*=K      every definition of the numeric parameter NAME times K.
 * Applies one to the graph: returns 0, or -1 with a one-line reason in ERR
 * (when not NULL) and the graph unchanged. sag_value, sag_seconds and
 * sag_write see the changed machine. */
int sag_experiment(SagGraph *g, const char *assignment, char *err, size_t errlen);

typedef struct {
    const char *name;      /* before the '=': "cpu.speed" */
    const char *value;     /* after it, for a usage line: "K" */
    const char *help;      /* one line */
} SagExperiment;

/* The named experiments, for --help and messages; the last has a NULL name. */
const SagExperiment *sag_experiments(void);

/* Writes the graph back as a .sag text in base units (s, B, B/s, Hz,
 * cycles), which sag_load_string reads to the same graph. */
void sag_write(FILE *out, const SagGraph *g);

#endif
