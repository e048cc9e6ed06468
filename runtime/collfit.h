/* collfit.h - which algorithm an MPI library runs for a collective, told
 * from its measured times: the closed-form time of each algorithm the
 * engine can cost (interp/engine_net.c) on p processes for a message of m
 * bytes, from the point-to-point parameters, and the choice of the one
 * that fits a set of measurements best, with the message size at which the
 * library switches to another. Pure C, no MPI: hpfcalibrate measures,
 * this decides, and testsuite/unit/test_collfit.c checks it on times made
 * from the models themselves. */
#ifndef COLLFIT_H
#define COLLFIT_H

/* The algorithms, in the SAG's words (collfit_name). */
enum {
    CF_TREE,               /* binomial tree (broadcast); to rank 0 and back (reduction) */
    CF_RDOUBLING,          /* recursive doubling (reduction) */
    CF_LINEAR,             /* one message after another from or to the root */
    CF_SCATTER_ALLGATHER,  /* van de Geijn's broadcast */
    CF_RING,               /* reduce-scatter and allgather round a ring */
    CF_BRUCK,              /* log2 p rounds of an all-to-all */
    CF_N
};
enum { CF_BCAST, CF_REDUCE, CF_ALLTOALL };

/* The point-to-point costs: a message of m bytes takes alpha + beta m from
 * its send to its receipt; combining m bytes of a reduction gamma m. */
typedef struct {
    double alpha, beta, gamma;
} CfNet;

/* One measurement: the collective on p processes with m bytes (for an
 * all-to-all, m to each process), its time t (the slowest process). */
typedef struct {
    int p;
    double m, t;
} CfSample;

/* What the measurements say: the algorithm at the shortest messages, and
 * (large != small) the one above `at` bytes. */
typedef struct {
    int small, large;
    double at;                /* the largest size measured with `small` */
    double score[CF_N];       /* mean |log(measured / model)| at the shortest size, -1: not a candidate */
} CfChoice;

const char *collfit_name(int alg);

/* The model's time of collective `coll` by algorithm `alg`. */
double collfit_time(int coll, int alg, const CfNet *net, int p, double m);

/* Chooses among the candidates of coll (broadcast: tree, linear,
 * scatter_allgather; reduction: recursive doubling, tree, linear, ring;
 * all-to-all: linear, bruck): the algorithm of the smallest size measured
 * is the one whose model is nearest the samples of that size (a candidate
 * must beat the first, the library's usual choice, by `margin` in mean
 * |log ratio|); then the sizes above, each at its own samples: from the
 * first size at which another candidate is nearer by the margin at that
 * size and every larger one, the large algorithm. Returns 0, or -1 when
 * there is no sample. */
int collfit_choose(int coll, const CfNet *net, const CfSample *s, int n, double margin,
                   CfChoice *out);

#endif
