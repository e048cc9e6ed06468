/* engine.h - the interpretation engine of hpfpredict: applies the
 * interpretation function of each AAU class (Parashar & Hariri, section 2.3)
 * against the parameters of a System Abstraction Graph, with a clock per
 * processor and the communication table, and keeps the metrics per AAU and
 * per processor. Models documented in doc/predict.md. */
#ifndef HPF_ENGINE_H
#define HPF_ENGINE_H

#include "aag.h"
#include "fi.h"
#include "sag.h"
#include "trace.h"

/* --trips LINE=N: the DO or DO WHILE loop of that line runs N times (n
 * ENGINE_TRIPS_MAX: as many as its bounds allow); the conditions of its
 * exits that are not known (the variables of a convergence test, held
 * unknown) do not end it. */
enum { ENGINE_TRIPS_MAX = -1 };
typedef struct {
    int line;
    long long n;
} EngineTrips;

/* The four parts every predicted time splits into. */
enum { M_COMP, M_COMM, M_OVHD, M_WAIT, M_N };
extern const char *const metric_name[M_N];   /* "computation", ... */

typedef struct {
    int np;                    /* processors */
    double overlap;            /* communication/computation overlap fraction, 0..1:
                                  a Comm AAU's cost is weighted by (1 - overlap) */
    int classes;               /* processor classes: ENGINE_CLASSES_AUTO, _ALWAYS, _NEVER */
    struct EngineClasses *cls; /* the classes, kept from one run to the next (NULL:
                                  every processor interpreted on its own) */
    Trace *trace;              /* record the timelines here (NULL: no trace); classes
                                  are off then: np processors, each on its own */
    const EngineTrips *trips;  /* --trips: loops whose trip count is given */
    int unroll;                /* --unroll: interpret every iteration of the loops whose
                                  data decide their costs (no steady state assumed) */
    int ntrips;
    struct Bbv *bbv;           /* record interval vectors here (bbv.h; NULL: none) */
    struct EngineProcs *procs; /* the processors' times, filled here (NULL: not wanted) */
    int inline_calls;          /* model the node compiler's inline expansion (-finline):
                                  calls of leaf procedures (no calls, no communication
                                  inside) cost no call overhead */
    double cutoff;             /* > 0: end the run once a processor's clock reaches it
                                  (EngineResult.cut): the branch and bound of the
                                  mapping search, where only a faster run matters */
    struct EngineMemo *memo;   /* the pairs of invariant gathers, kept from one run to
                                  the next (the mapping search); NULL: none kept */
} EngineOptions;

/* Pairs of invariant gathers kept across runs of one program under
 * different mappings: a gather whose statement, bounds and layouts are
 * the same pairs the same processors (engine_comm.c says what the key
 * holds). engine_memo_counts: the gathers found there and not. */
typedef struct EngineMemo EngineMemo;
EngineMemo *engine_memo_new(void);
void engine_memo_free(EngineMemo *m);
void engine_memo_counts(const EngineMemo *m, long *hits, long *misses);

/* Each processor's time, or with processor classes each class's (its
 * representative's rank, and the processors it stands for): the finishing
 * time and its split. engine_run fills it when EngineOptions.procs is set;
 * engine_procs_free frees what it holds. */
typedef struct EngineProcs {
    int n;
    struct EngineProc {
        int rank;
        double count;          /* processors it stands for (1 without classes) */
        double total;
        double part[M_N];
    } *p;
} EngineProcs;
void engine_procs_free(EngineProcs *ps);

/* Processor classes (doc/predict.md): above ENGINE_CLASSES_FROM processors
 * (auto), processors whose coordinates fall in the same intervals of the
 * processor grid's dimensions are interpreted once, by a representative.
 * The intervals are cut wherever the program makes processors differ (what
 * they own, their loop trips, the boundaries of the grid, the owner of an
 * element); a cut found during a run makes engine_run return 1: the run is
 * repeated with a fresh interpreter. */
enum { ENGINE_CLASSES_AUTO, ENGINE_CLASSES_ALWAYS, ENGINE_CLASSES_NEVER };
enum { ENGINE_CLASSES_FROM = 4096 };
typedef struct EngineClasses EngineClasses;
EngineClasses *engine_classes_new(void);
void engine_classes_free(EngineClasses *c);
/* Classes interpreted in the last run (0: none were used). */
long engine_classes_count(const EngineClasses *c);

typedef struct {
    int np;
    int slowest;               /* the processor that finishes last */
    double total;              /* its finishing time: the predicted execution time */
    double part[M_N];          /* its time split */
    double mean[M_N];          /* the mean over processors */
    double min_total;          /* the fastest processor's finishing time */
    long long aau_visits;      /* interpretation function applications */
    long long extrapolated;    /* loop iterations not interpreted (steady state) */
    long long fi_steps;        /* the functional interpreter's work (element operations) */
    const char *node;          /* the SAG unit the processors are mapped to */
    int cube_dim;              /* dimension of the hypercube used */
    /* when the interpretation stopped: the loops interpreted iteration by
       iteration that it was in, outermost first, with the iterations they
       had begun and their trip count (-1: a DO WHILE) */
    int nstop;
    struct { int line; long long iter, trips; } stop[4];
    /* loops whose data decide their costs (a WHERE mask), extrapolated once
       their iterations' costs repeated: per loop (the first ENGINE_SETTLED),
       the iterations interpreted and extrapolated, over all its executions */
    int nsettled;
    struct { int line; long long interpreted, extrapolated; } settled[8];
    int cut;                   /* ended at EngineOptions.cutoff: total is a lower bound
                                  (the slowest clock then), the rest is partial */
} EngineResult;

/* Node unit of a SAG: the first unit (preorder) with several instances, or
 * else the first one whose processing component states cpu.clock. */
const SagUnit *engine_node_unit(const SagGraph *sag);

/* Interprets the AAG: fills every AAU's m_* fields and r. Returns 0, or -1
 * when interpretation stopped (missing values or the step budget: fi has
 * the reasons, fi_report prints them), or 1 when the processor classes were
 * refined: run again with a fresh Fi and the same o->cls. */
int engine_run(Aag *g, Fi *fi, const SagGraph *sag, const EngineOptions *o,
               EngineResult *r);

/* ---- the models, exposed for the unit tests ---- */

/* Hops between two cube nodes: the Hamming distance of their addresses. */
int engine_hops(unsigned a, unsigned b);
/* Link contention of a round of n messages src[i] -> dst[i] on a
 * hypercube of 2^dims nodes with e-cube routes (dimension by dimension,
 * the lowest first; a link carries each direction on its own channel):
 * factor[i] is the most messages sharing a link of message i's route,
 * its transmission taking that many times as long (1: no sharing). load
 * is scratch of n_nodes x dims ints, zero on entry and on return. */
void engine_cube_contention(int dims, int n, const int *src, const int *dst, int *load,
                            double *factor);
/* The same on a switched cluster whose nodes hold k processes each (ranks
 * k j .. k j + k - 1 on node j) behind one link to the switch, a channel
 * each way: a message between two nodes shares its node's up-link with
 * the round's other messages leaving that node, and the receiver's
 * down-link with those entering it; a message within a node shares
 * nothing (factor 1). load is scratch of 2 x nodes ints, zero on entry and
 * on return. */
void engine_node_contention(int k, int n, const int *src, const int *dst, int *load,
                            double *factor);

/* One message of `bytes` over `hops` hops with the parameters of a SAG
 * unit's comm component (inherited): static-buffer cost
 * startup(.short) + bytes x per_byte + hops x per_hop, in seconds. */
double engine_msg_time(const SagUnit *node, double bytes, int hops);

#endif
