/* phases.h - a program's phases from its interval vectors (phases.c,
 * doc/probes.md): the clustering of SimPoint, and the paper's equation 2.
 * Pure C, no state: the unit test drives it with planted clusters. */
#ifndef HPF_PHASES_H
#define HPF_PHASES_H

#include <stdint.h>

enum { PHASE_DIMS = 15, PHASE_MAXK = 100 };

typedef struct {
    int k;                     /* clusters chosen */
    int *label;                /* per point, 0..k-1, numbered by first appearance */
    double bic[PHASE_MAXK + 1];   /* by k, 1..maxk tried (NAN: not tried) */
    int maxk;                  /* the largest k tried */
} Clustering;

/* Clusters n points of dims coordinates (row-major): k-means for every k
 * from 1 to maxk (at most the number of distinct points), the best of
 * several seeded starts each, and k the smallest whose BIC reaches 90% of
 * the range of the scores (SimPoint's rule). Deterministic for a seed.
 * Fills c (free with clustering_free); returns 0. */
int phase_cluster(const double *x, int n, int dims, int maxk, uint64_t seed, Clustering *c);
void clustering_free(Clustering *c);

/* The seeded random projection of a sparse vector (ids from 1) onto dims
 * coordinates, each weight uniform in [-1, 1] (the same for an id and seed
 * whatever the vector). */
void phase_project(const int *id, const double *v, int nnz, double scale, int dims,
                   uint64_t seed, double *out);

/* The squared distance of two points. */
double phase_dist2(const double *a, const double *b, int dims);

/* The paper's equation 2: a machine's predicted time from its probe and a
 * reference's: t_ref x P, P = eq1 / eq1_ref. */
double probe_equation2(double eq1, double eq1_ref, double t_ref);

#endif
