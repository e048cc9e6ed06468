/* mapsearch.h - the search for a program's fastest data mapping (automatic
 * directive selection: hpfpredict --compare): the candidates of a
 * RemapSpace (remap.h), predicted in the order of an estimate from the
 * computation alone, by branch and bound. doc/experiments.md ("The
 * search") states the method. */
#ifndef HPF_MAPSEARCH_H
#define HPF_MAPSEARCH_H

#include "engine.h"
#include "remap.h"

/* One prediction of a candidate. */
typedef struct {
    int ok;                    /* predicted: exact, or ended at the cutoff */
    int cut;                   /* ended at the cutoff: total is a lower bound */
    double total, part[M_N];
    double *line;              /* each line's mean time [1 .. nline] (exact only; heap) */
    int nline;
} MapEval;

/* Predicts the program under m; a run whose slowest clock reaches cutoff
 * (> 0) may end there (ev->cut). Fills ev; returns 0, or -1 when the
 * mapping cannot be predicted (ev->ok 0). */
typedef int (*MapEvalFn)(void *ctx, const Remap *m, double cutoff, MapEval *ev);

enum { MS_EXACT, MS_CUT, MS_SKIPPED, MS_FAILED };

typedef struct {
    Remap map;
    int choice[REMAP_MAX_GROUPS];   /* per group, its choice (remap_space_make) */
    int seq;                   /* the order in which it was taken up, the own first */
    int state;                 /* MS_* */
    double estimate;           /* the computation estimate (s) */
    MapEval ev;                /* MS_EXACT: the prediction; MS_CUT: the bound */
} MapCand;

typedef struct {
    int limit;                 /* rank this many exactly (>= 1) */
    int progress;              /* report the progress on standard error */
    int exhaustive_max;        /* joint spaces up to this size are searched whole */
} MapSearchOptions;

typedef struct {
    MapCand *c;                /* exact ones fastest first (ties: search order),
                                  then those cut off, skipped, not predicted */
    int n;
    int exact, cut, skipped, failed;
    double space;              /* mappings in the joint space */
    int whole;                 /* 1: the DISTRIBUTEs' space predicted whole */
    int coordinate;            /* 1: (then) searched one group at a time, passes
                                  times: a larger space, or the ALIGNs */
    int passes;
    double cutoff;             /* the limit-th fastest exact total at the end */
} MapSearch;

/* Predicts the program's own mapping (which must predict: else returns
 * -1), then the others. Returns 0. */
int map_search(const RemapSpace *s, MapEvalFn fn, void *ctx, const MapSearchOptions *o,
               MapSearch *out);
void map_search_free(MapSearch *ms);

/* The ratio by which an estimate must exceed the cutoff for a candidate
 * to be skipped unpredicted. */
enum { MAPSEARCH_SKIP_RATIO = 2 };

#endif
