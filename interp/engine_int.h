/* engine_int.h - what the files of the interpretation engine share: the
 * SAG parameters read into the engine (Params), processor grids and
 * templates, the engine's state (Eng) and its pool of vectors, the
 * charging of the metrics, and the functions each file gives the others
 * (named en_). doc/where.md says which file holds which model. */
#ifndef HPF_ENGINE_INT_H
#define HPF_ENGINE_INT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bbv.h"
#include "engine.h"
#include "hpfmap.h"
#include "hpfrt.h"

/* Collective algorithms (coll.* in the SAG, doc/predict.md): broadcast
 * tree (binomial), linear, scatter_allgather; reduction tree,
 * recursive_doubling, linear, ring; the all-to-all of a gather's counts
 * linear, pairwise, bruck. */
enum { ALG_TREE, ALG_RDOUBLING, ALG_LINEAR, ALG_RING, ALG_SCATTER_ALLGATHER, ALG_PAIRWISE,
       ALG_BRUCK };
enum { TOPO_HYPERCUBE, TOPO_RING, TOPO_MESH, TOPO_FLAT };

/* SAG parameters, in seconds (sizes in bytes), read once from the node. */
typedef struct {
    double op[OPC_N];
    double loop_setup, loop_iter, loop_step, cond_test, cond_taken;
    double call_ovhd, call_arg, lib_default;
    double fetch_hit, fetch_miss, store_hit, store_miss;
    double dc_size, dc_block, dc_eff;
    double short_max;
    double st_start_s, st_start, st_pb, st_ph, st_recv;
    double dy_start_s, dy_start, dy_pb, dy_ph, dy_recv, dy_buffer;
    double sync;
    int bcast_alg, red_alg, topo;
    int bcast_large, red_large;   /* the algorithms above the switch sizes */
    double bcast_switch, red_switch;
    int a2a_alg;
    int placement;                /* HPFMAP_LINEAR or HPFMAP_GRAY (net.placement) */
    int contend;                  /* messages share links (net.contention, doc/predict.md) */
    int node_procs;               /* processes behind one node link of a switched cluster */
    double io_start, io_pb, io_fmt, io_fmt_first;
    double io_rd_start, io_rd_pb;  /* a READ's (io.read.*; absent: io.startup, io.per_byte) */
    /* the memory hierarchy by bandwidth (hpfcalibrate's cache.lN.* and
       mem.bandwidth*; nlev = 0 when the SAG gives none): per level its
       capacity, the processors sharing one, its read and write bandwidth
       for one processor; then main memory, also for all at once */
    int nlev;
    double lev_size[4], lev_shared[4], lev_rd[4], lev_wr[4];
    double lev_fetch[4];          /* a line fetched from the level (from level 2) */
    double lev_store[4];          /* a line stored into (filled and written back) */
    double mem_rd, mem_wr, mem_node;
    /* the extensions of doc/validation.md, all 0 when the SAG does not give
       them: the vector unit (vec.*: its width in bytes, an element of a
       vectorized copy loop, the operations there, and the factor for the
       operations and intrinsics not measured there), the run-time
       library's own costs (rt.*), the first store to a page */
    double vec_width, vec_iter, vec_op[OPC_N], vec_ratio, vec_fetch, vec_store;
    double vec_lib[AAG_NVEC_MATH];  /* vec.lib.NAME by aag_vec_math's index */
    unsigned vec_lib_have;          /* bit i: the SAG gives vec_lib[i] */
    int recv_early;               /* net.receive.post = early: a round's receives are
                                     posted before its sends (MPI_Sendrecv) */
    double div_overlap;           /* op.div.overlap: the share of the other work that runs
                                     while the divider works (0: they add up) */
    double rt_region, rt_loop, rt_seg, rt_gather, rt_gather_elem, rt_gather_remote, rt_shift, rt_start;
    double rt_kept, rt_kept_elem, rt_kept_remote;   /* a gather through a kept schedule */
    double rt_coll, rt_coll_self; /* libhpfrt's own work in a broadcast or reduction call;
                                     MPI's for one on a single process */
    double page, page_first, alloc;
    double rt_shift_run;          /* rt.shift.run: a run of a slab packed or unpacked */
    double prefetch;              /* the largest stride the prefetchers follow (0: none) */
    double red_sum, red_prod, red_max; /* an element of a REAL sum, product, maximum (minimum) */
    double red_window;            /* iterations of the next row's chain that run while one ends */
    double jitter;                /* relative deviation of a process's time between two
                                     synchronizations (comm.jitter) */
    double jitter_tau;            /* the work it was measured over: the grain of
                                     independent variations (comm.jitter.interval) */
    double first_red, first_bcast; /* the first reduction, broadcast of a run: more */
} Params;

typedef struct {
    const SpProcs *procs;         /* NULL: the default 1-D arrangement */
    int rank;
    int shape[MAX_RANK];
    int *coords;                  /* coordinates of every processor, rank per row */
} Grid;

/* The coordinates of processor p in grid g (precomputed). */
static inline const int *coords_of(const Grid *g, int p)
{
    return g->coords + (size_t)p * (size_t)g->rank;
}

typedef struct {
    const SpTmpl *t;
    HpfDim d[MAX_RANK];
    Grid *grid;
} Tmpl;

typedef struct {
    const char *name;
    unsigned hash;
    double last;                  /* data volume counter at the last access */
    long long at;                 /* Eng.naccess at the last access */
    int touched;                  /* its pages have been touched once */
} CacheVar;

/* The processor classes: per dimension of the class grid, the intervals
 * its coordinates are cut into (see engine.h). */
struct EngineClasses {
    int rank, shape[MAX_RANK];    /* the class grid (rank 0: not set up yet) */
    unsigned char *cut[MAX_RANK]; /* cut[d][c]: an interval starts at coordinate c */
    int runs;                     /* runs made with these classes */
    int pending;                  /* cuts made during the current run */
    int off;                      /* given up: every processor on its own */
    long used;                    /* classes of the last run (0: none) */
};

typedef struct {
    Aag *g;
    Fi *fi;
    const SagUnit *node;
    Params pr;
    double overlap;
    int NP;                       /* processors */
    int P;                        /* processors interpreted: NP, or the classes */
    int cube_dim;
    /* with classes: the class of a processor is the mixed-radix number of
       the intervals of its coordinates (dimension 0 fastest); each is
       interpreted by one representative, its processor rank rep[]; cnt[]
       processors stand behind it */
    EngineClasses *ec;
    int *of[MAX_RANK];            /* coordinate -> interval, per dimension */
    int *ilo[MAX_RANK], *ihi[MAX_RANK]; /* interval -> its first and last coordinate */
    int nint[MAX_RANK], stride[MAX_RANK];
    int *rep;
    double *cnt;
    double *clock, *acc[M_N], *ex;
    double *v1;                   /* scratch: send times in en_exchange() */
    int *link_load;               /* scratch: messages on each hypercube link (en_contention) */
    double *last_sync;            /* each processor's clock after its last communication */
    PtrVec grids, tmpls;          /* Grid *, Tmpl * (heap) */
    CacheVar *cvar;
    int ncvar, capcvar;
    double volume;                /* bytes touched by the busiest processor so far */
    long long naccess;            /* accesses of cache variables so far */
    int ctl, ctl_target;          /* pending EXIT, CYCLE, RETURN, STOP, GOTO */
    int failed;
    double cutoff;                /* EngineOptions.cutoff: 0, or the clock that ends the run */
    struct EngineMemo *gmemo;     /* EngineOptions.memo */
    int cut;                      /* a clock passed the cutoff: the run was ended there */
    int depth;                    /* procedure calls walked, nested */
    long long visits, extrapolated;
    /* the FORALL nest being interpreted */
    const SpLoop *loop;
    double *n_all, *n_true;       /* per processor: iterations run, those under the mask */
    double n_max;                 /* the most iterations a processor runs (n_all's maximum) */
    double *lvl[MAX_RANK];        /* per level: trips per processor */
    const double *nest_mult;      /* the multiplier the nest was entered with */
    struct GatherCache *gcache;   /* pairs of invariant gathers, by communication entry */
    int ngcache;
    struct IxCache *ixc;          /* FORALL index trips, by index (open hash) */
    size_t ixcap, ixused;
    Trace *tr;                    /* the timelines being recorded, or NULL */
    Bbv *bbv;                     /* the interval vectors being recorded, or NULL */
    double ws;                    /* scratch: the working set of the Seq being costed */
    int io_done;                  /* an I/O statement ran: the run time's I/O is set up */
    int in_comm;                  /* inside en_comm: its steps' charges are not executions
                                     of their own (Aau.xmost) */
    int red_done, bcast_done;     /* a reduction, a broadcast ran: MPI's collective is set up */
    int started;                  /* the program's start (rt.start) is charged */
    double first_touch;           /* scratch: pages touched for the first time by the Seq
                                     being costed, their time (charged once) */
    int inline_calls;             /* EngineOptions.inline_calls */
    PtrVec laid;                  /* SpTmpl of ALLOCATABLE arrays allocated now */
    const EngineTrips *trips;     /* EngineOptions.trips */
    int ntrips;
    int in_trips;                 /* loops with a given trip count being walked */
    int unroll;                   /* EngineOptions.unroll */
    int elementwise;              /* gathers counted element by element only (a test) */
    EngineResult *res;            /* where the settled loops are noted */
    int nloops;                   /* loops walked iteration by iteration, nested: */
    struct { const Aau *a; long long iter, trips; } loops[4];   /* the outermost */
    void **pool;                  /* free vectors of P doubles, reused */
    int npool, cappool;
    struct SeqMemo *memo;         /* by AAU id - 1: what a Seq's costs need (lazily) */
    struct PcCache *pcc;          /* counts of recent FORALLs (PC_KEEP) */
    struct LcCache *lcc;          /* by AAU id - 1: counts of FORALL nests that cannot change */
    size_t lcc_doubles;           /* their size, at most LC_MAX_DOUBLES */
    int npcc;
    signed char *ginv;            /* by communication id - 1: gather_class, 0: not yet */
    struct KeptSched *kept;       /* by communication id - 1: the schedules libhpfrt keeps */
    long kept_clock;
    const Aau *at;                /* the AAU being walked (for en_outside's message) */
    double red_len;               /* the elements of the inline reduction being walked
                                     (a row's chain: red.window), or 0 */
} Eng;

/* The counts (n_all, n_true, then by level) of a FORALL nest whose counts
 * cannot change, and the fi steps computing them took. */
typedef struct LcCache {
    double *v;
    long long steps;
    double n_max;                 /* n_all's maximum */
} LcCache;
enum { LC_MAX_DOUBLES = 1 << 21 };

/* What one execution of a Seq AAU costs that cannot change during a run:
 * its operations and library calls, and per access its cache variable and
 * (when the array's extents are constants) its footprint. */
typedef struct SeqMemo {
    int ready;
    double fixed;
    int *cv;                      /* per access: index into e->cvar, -1: none */
    double *fp;                   /* per access: its footprint when fixed */
    signed char *fpk;             /* per access: 1 fixed, -1 evaluated each time, 0 not yet */
    long long *fp_steps;          /* per access: the fi steps evaluating it took */
    double *cost;                 /* per access: time of its loads and of its stores
                                     when found in the cache, then when not */
    double overlap;               /* in a FORALL: its loop's own work an iteration, which
                                     streams along with the data (ops_time()) */
    double div;                   /* the divides' share of fixed */
    double chain;                 /* a reduction's element: the wait for the one before,
                                     less the loop's own work; 0: none */
} SeqMemo;

/* Vectors of P values (doubles, or ints in the same room) come from a pool:
 * at hundreds of thousands of processors, fresh pages cost more than the
 * interpretation functions. */
static inline void *buf_get(Eng *e)
{
    if (e->npool) {
        void *v = e->pool[--e->npool];
        memset(v, 0, (size_t)e->P * sizeof(double));
        return v;
    }
    return xcalloc((size_t)e->P, sizeof(double));
}

/* A vector from the pool that its user fills whole (not cleared). */
static inline void *buf_raw(Eng *e)
{
    if (e->npool)
        return e->pool[--e->npool];
    return xcalloc((size_t)e->P, sizeof(double));
}

static inline void buf_put(Eng *e, void *v)
{
    if (!v)
        return;
    if (e->npool == e->cappool) {
        e->cappool = e->cappool ? 2 * e->cappool : 16;
        e->pool = xrealloc(e->pool, (size_t)e->cappool * sizeof *e->pool);
    }
    e->pool[e->npool++] = v;
}

/* One round of a pair list in one direction, ready for en_exchange_round():
 * the senders and the receivers in increasing order, and by processor
 * their partners, the bytes sent and the hops. */
typedef struct {
    int ns, nr;
    int *snd, *rcv;
    int *dst, *src, *hops;
    double *bytes;
    /* by processor, what en_exchange() computes from them: the cost of the
       send, the time of the hops, the copy out of a dynamic buffer */
    double *send_t, *hop_t, *dyn_t;
} Round;

/* How a FORALL index picks its processor: template cell A*i + B of the
 * distributed template dimension hd, on grid dimension gd (-1: unbound). */
typedef struct {
    int gd;
    const HpfDim *hd;
    long long A, B;
} IxMap;

/* The trips of a FORALL index by coordinate, kept for the next execution
 * with the same bounds and mapping (an unrolled loop runs its FORALLs
 * again and again). */
typedef struct IxCache {
    const SpIndex *ix;
    long long lo, hi, st, A, B;
    const HpfDim *hd;
    int n;
    double *c;
    signed char inv;              /* bounds and mapping cannot change: 1; 0: not known yet */
    long long steps;              /* fi steps their evaluation took */
} IxCache;

/* ---- what the files give each other (en_) ---- */

/* engine.c: processor classes, metrics, trace events, dispatch */
void en_charge_all(Eng *e, Aau *a, int m, double t, const double *mult);
void en_charge_once(Eng *e, Aau *a, int m, double t, const double *mult);
int en_class_of_rank(const Eng *e, int rank);
void en_cut_at(Eng *e, int d, long c);
void en_end(Eng *e, Aau *a, double execs, double most);
double most_of(const Eng *e, const double *mult);
/* The overhead of an entry into iterative AAU a (a FORALL level's: the
 * loop's set-up, the run time's iteration sets and region calls). */
double en_level_setup(const Params *pr, const Aau *a);
void en_isolate(Eng *e, const int *co);
int en_proc_of(const Eng *e, int rank, const int *shape, const int *co);
__attribute__((noinline)) void en_record(Eng *e, const Aau *a, TraceKind k, int p, double t0,
                                         double t1, int peer, long msg, double bytes);
void en_walk(Eng *e, Aau *a, const double *mult);
void en_walk_list(Eng *e, const PtrVec *l, const double *mult);
void en_walk_from(Eng *e, const PtrVec *l, int start, const double *mult);
void en_outside(Eng *e);

/* engine_sag.c: the SAG parameters */
void en_read_params(Params *p, const SagUnit *n);

/* engine_net.c: network, grids and templates, messages */
void en_align_coef(Eng *e, const SpArr *a, int d, long long *ca, long long *cb);
Grid *en_arr_grid(Eng *e, const SpArr *a);
void en_broadcast(Eng *e, Aau *a, int root, double bytes);
long en_cell_of(Eng *e, const SpArr *a, int d, long long s);
long long en_eval_int(Eng *e, const Node *n, long long dflt, int line, const char *what);
void en_exchange(Eng *e, Aau *a, const int *dst, const int *src, const double *bytes,
                 const int *hops);
void en_exchange_round(Eng *e, Aau *a, const Round *r);
int en_grid_shape(Eng *e, const SpProcs *pr, int *shape);
/* The bytes of a's I/O items that only the run sizes (aag.h io_dyn),
 * evaluated now; an item not known here counts the AAG's estimate. */
double en_io_dyn_bytes(Eng *e, const Aau *a);
int en_latest_partner(const Eng *e, int p, int d, int delta, int flip, int wrap,
                      int (*ok)(const void *, int), const void *arg, double bytes);
double en_local_elems(Eng *e, const SpArr *a, int p, int d_skip);
void en_owner_coords(Eng *e, const SpArr *a, const long long *sub, int *coord);
int en_rank_hops(const Eng *e, int a, int b);
void en_alltoall(Eng *e, Aau *a, double each);
int en_contention(Eng *e, const int *dst, const double *bytes, double *factor);
void en_reduce_all(Eng *e, Aau *a, int op, double bytes, Type ty);
double en_sync_all(Eng *e, Aau *a);
Tmpl *en_tmpl_of(Eng *e, const SpTmpl *t);

/* engine_space.c: FORALL iteration spaces and owner counts */
const double *en_index_counts(Eng *e, const SpIndex *ix, int line, int *ncoord);
void en_index_maps(Eng *e, const SpLoop *l, IxMap *map);
IxCache *en_ix_cached(Eng *e, const SpIndex *ix);
void en_loop_counts(Eng *e, const SpLoop *l, int line);
void en_point_coords(Eng *e, const SpLoop *l, const IxMap *map, const Grid *g, const FiSpace *sp, long pt,
                     int *coord);
void en_spread_counts(Eng *e, const SpLoop *l, const Grid *g, const int *bound, double *out);
void en_space_free(Eng *e);

/* engine_seq.c: Seq costs and the cache model */
double en_ops_time(Eng *e, const Aau *a);

/* engine_walk.c: the walk: loops, FORALL levels, branches, calls */
void en_call(Eng *e, Aau *a, const double *mult);
void en_condt(Eng *e, Aau *a, const double *mult);
void en_do_loop(Eng *e, Aau *a, const double *mult);
void en_effect(Eng *e, Aau *a);
void en_forall_level(Eng *e, Aau *a, const double *outer);
void en_forall_nest(Eng *e, Aau *a, const double *mult);
void en_red_loop(Eng *e, Aau *a, const double *mult);
void en_seq(Eng *e, Aau *a, const double *mult);
void en_while_loop(Eng *e, Aau *a, const double *mult);

/* engine_comm.c: communication AAUs */
int en_affine_in(Eng *e, const Node *n, const SpLoop *l, const Symbol **var, long long *alpha,
                 long long *beta);
int en_call2(const Node *n, const char *id, const Node **x, const Node **y);
void en_comm(Eng *e, Aau *a);
int en_fixed_owner(Eng *e, const CommEntry *c, const Symbol *only, int *own);
int en_mentions_index(const Node *n, const SpLoop *l);
int en_reads_only(const Node *n, const Symbol *var);
void en_comm_free(Eng *e);
/* Whether libhpfrt keeps the schedule of invariant gather c (it has run
 * before), or of keyed gather c for its scalars' present values: hpfc's
 * code then neither counts nor records its index vector. */
int en_gather_kept(Eng *e, const CommEntry *c);

/* ---- charging and small helpers, inline ---- */

/* The owner of template cell t of dimension d. A cell outside the template
 * (a subscript or a FORALL index out of its array's bounds) is an error of
 * the program: en_outside reports it and the run fails; 0 is returned so
 * that the caller's counts stay in range. */
static inline int owner_of(Eng *e, const HpfDim *d, long t)
{
    int p = hpfmap_owner(d, t);
    if (p >= 0)
        return p;
    en_outside(e);
    return 0;
}

/* Processors standing behind interpreted processor p. */
static inline double weight(const Eng *e, int p)
{
    return e->cnt ? e->cnt[p] : 1;
}

/* The processor rank interpreted as p. */
static inline int rank_of(const Eng *e, int p)
{
    return e->rep ? e->rep[p] : p;
}

static inline int bits_for(int n)
{
    int b = 0;
    while ((1L << b) < n)
        b++;
    return b;
}

static inline double startup(const Params *p, double bytes, int dynamic)
{
    if (bytes <= p->short_max)
        return dynamic ? p->dy_start_s : p->st_start_s;
    return dynamic ? p->dy_start : p->st_start;
}

static inline void begin(Eng *e)
{
    memset(e->ex, 0, (size_t)e->P * sizeof *e->ex);
}

/* One charge of t on processor p: its clock, the metric's accumulator acc,
 * the execution's time *ex and the AAU's sum *sum (weighted by the class
 * sizes cnt; NULL: one processor each). Every charging path goes through
 * it, so that the additions are the same, in the same order, whichever
 * path a charge takes; callers that charge in a loop keep ex and sum in
 * locals. */
static inline __attribute__((always_inline)) void
add_charge(double *clock, double *acc, double *ex, double *sum, const double *cnt, int p,
           double t)
{
    if (t <= 0)
        return;
    clock[p] += t;
    acc[p] += t;
    *ex += t;
    *sum += cnt ? t * cnt[p] : t * 1.0;
}

/* charge() with the AAU's sum of metric m in *sum: a caller that charges
 * in a loop keeps it in a register (the same additions, in the same order)
 * and stores it back. It records nothing: untraced runs only (traced, the
 * callers charge()). */
static inline void charge_to(Eng *e, double *sum, int m, int p, double t)
{
    add_charge(e->clock, e->acc[m], &e->ex[p], sum, e->cnt, p, t);
}

/* t of metric m on processor p for a; traced, an event of the trace. */
static inline void charge(Eng *e, Aau *a, int m, int p, double t)
{
    if (t <= 0)
        return;
    charge_to(e, &a->m_sum[m], m, p, t);
    if (e->tr) {
        /* communication charged outside a message (the all-to-all of a
           gather's counts): a send without a partner */
        static const TraceKind kind[M_N] = {TR_COMP, TR_SEND, TR_OVHD, TR_WAIT};
        en_record(e, a, kind[m], p, e->clock[p] - t, e->clock[p], -1, -1, 0);
    }
}

/* The sum over all processors of mult (NULL: 1 each). */
static inline double sum_of(const Eng *e, const double *mult)
{
    double s = 0;
    for (int p = 0; p < e->P; p++)
        s += (mult ? mult[p] : 1) * weight(e, p);
    return s;
}

static inline int elsize(Type t)
{
    int k = t.kind ? t.kind : 4;
    return t.base == TY_COMPLEX ? 2 * k : k;
}

/* Whether a (a FORALL's body or innermost level, analysis/aag.c
 * vectorizable()) runs vectorized on this machine: the SAG has a vector
 * unit and the vector variants of the library functions it calls
 * (vec.lib.NAME), and the trip count is a multiple of the elements of a
 * vector. */
static inline int vectorized(const Eng *e, const Aau *a)
{
    if (!(e->pr.vec_width > 0) || a->vec_el <= 0 || (a->vec_lib & ~e->pr.vec_lib_have))
        return 0;
    long long lanes = (long long)(e->pr.vec_width / a->vec_el);
    return lanes >= 2 && (a->vec_trips < 0 || a->vec_trips % lanes == 0);
}

static inline int stopping(const Eng *e)
{
    return e->ctl != 0 || fi_stopped(e->fi);
}

static inline double *vec_new(Eng *e)
{
    return buf_get(e);
}

#endif
