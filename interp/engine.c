/* engine.c - the interpretation engine: the interpretation function of each
 * AAU class applied over the AAG against the SAG parameters of the node unit,
 * with a clock and the four metric accumulators per processor (Parashar &
 * Hariri, section 2.3; doc/predict.md).
 *
 * Every processor's state is a vector of P values, and every interpretation
 * function works on whole vectors, so one walk interprets all processors.
 * Inside an IterD AAU (no communication, deterministic) there is no
 * interaction between processors: its body is walked once with a
 * per-processor multiplier (the closed form setup + n x (iteration + body),
 * n per processor for the owned iterations of a FORALL). Synchronized loops
 * are walked iteration by iteration; once an iteration advanced every clock
 * by the same amount and repeated the previous iteration's increments, the
 * rest is extrapolated: the interpretation functions only ever add costs and
 * take maxima of clocks, so a uniform shift of all clocks repeats exactly.
 *
 * Every charge is one add_charge(). Untraced, the charges go through loops
 * fused per case (charge_once(), a FORALL level's charges, the rounds of a
 * cached gather); traced, every one of them takes the generic path instead:
 * charge() for each charge, each an event of the trace, and exchange()
 * numbering the messages (the same additions in the same order). */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hpfmap.h"
#include "hpfrt.h"

const char *const metric_name[M_N] = {"computation", "communication", "overhead", "waiting"};

enum { ALG_TREE, ALG_RDOUBLING, ALG_LINEAR };
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
    double io_start, io_pb, io_fmt, io_fmt_first;
    /* the memory hierarchy by bandwidth (hpfcalibrate's cache.lN.* and
       mem.bandwidth*; nlev = 0 when the SAG gives none): per level its
       capacity, the processors sharing one, its read and write bandwidth
       for one processor; then main memory, also for all at once */
    int nlev;
    double lev_size[4], lev_shared[4], lev_rd[4], lev_wr[4];
    double lev_fetch[4];          /* a line fetched from the level (from level 2) */
    double mem_rd, mem_wr, mem_node;
    /* the extensions of doc/validation.md, all 0 when the SAG does not give
       them: the vector unit (vec.*: its width in bytes, an element of a
       vectorized copy loop, the operations there, and the factor for the
       operations and intrinsics not measured there), the run-time
       library's own costs (rt.*), the first store to a page */
    double vec_width, vec_iter, vec_op[OPC_N], vec_ratio, vec_fetch, vec_store;
    double rt_region, rt_loop, rt_gather, rt_gather_elem, rt_gather_remote, rt_shift, rt_start;
    double page, page_first;
    double prefetch;              /* the largest stride the prefetchers follow (0: none) */
    double red_sum, red_max;      /* an element of a REAL sum (product), maximum (minimum) */
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
static const int *coords_of(const Grid *g, int p)
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
    double *v1;                   /* scratch: send times in exchange() */
    double *last_sync;            /* each processor's clock after its last communication */
    PtrVec grids, tmpls;          /* Grid *, Tmpl * (heap) */
    CacheVar *cvar;
    int ncvar, capcvar;
    double volume;                /* bytes touched by the busiest processor so far */
    long long naccess;            /* accesses of cache variables so far */
    int ctl, ctl_target;          /* pending EXIT, CYCLE, RETURN, STOP, GOTO */
    int failed;
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
    double ws;                    /* scratch: the working set of the Seq being costed */
    int io_done;                  /* an I/O statement ran: the run time's I/O is set up */
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
    signed char *ginv;            /* by communication id - 1: gather_invariant, 0: not yet */
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
    double chain;                 /* a reduction's element: the wait for the one before,
                                     less the loop's own work; 0: none */
} SeqMemo;

/* Vectors of P values (doubles, or ints in the same room) come from a pool:
 * at hundreds of thousands of processors, fresh pages cost more than the
 * interpretation functions. */
static void *buf_get(Eng *e)
{
    if (e->npool) {
        void *v = e->pool[--e->npool];
        memset(v, 0, (size_t)e->P * sizeof(double));
        return v;
    }
    return xcalloc((size_t)e->P, sizeof(double));
}

/* A vector from the pool that its user fills whole (not cleared). */
static void *buf_raw(Eng *e)
{
    if (e->npool)
        return e->pool[--e->npool];
    return xcalloc((size_t)e->P, sizeof(double));
}

static void buf_put(Eng *e, void *v)
{
    if (!v)
        return;
    if (e->npool == e->cappool) {
        e->cappool = e->cappool ? 2 * e->cappool : 16;
        e->pool = xrealloc(e->pool, (size_t)e->cappool * sizeof *e->pool);
    }
    e->pool[e->npool++] = v;
}

/* ---- processor classes ---------------------------------------------------- */

EngineClasses *engine_classes_new(void)
{
    return xcalloc(1, sizeof(EngineClasses));
}

void engine_classes_free(EngineClasses *c)
{
    if (!c)
        return;
    for (int d = 0; d < MAX_RANK; d++)
        free(c->cut[d]);
    free(c);
}

long engine_classes_count(const EngineClasses *c)
{
    return c ? c->used : 0;
}

/* Processors standing behind interpreted processor p. */
static double weight(const Eng *e, int p)
{
    return e->cnt ? e->cnt[p] : 1;
}

/* The interpreted processor of grid coordinates (class grid shape). */
static int class_of_coords(const Eng *e, const int *co)
{
    int v = 0, stride = 1;
    for (int d = 0; d < e->ec->rank; d++) {
        v += e->of[d][co[d]] * stride;
        stride *= e->nint[d];
    }
    return v;
}

/* The interpreted processor that processor rank stands in. */
static int class_of_rank(const Eng *e, int rank)
{
    if (!e->ec)
        return rank;
    int co[MAX_RANK];
    hpfmap_coords(rank, e->ec->rank, e->ec->shape, co);
    return class_of_coords(e, co);
}

/* The processor rank interpreted as p. */
static int rank_of(const Eng *e, int p)
{
    return e->rep ? e->rep[p] : p;
}

/* Makes coordinate c of dimension d start an interval (a refinement: the
 * run goes on, and is repeated). */
static void cut_at(Eng *e, int d, long c)
{
    EngineClasses *k = e->ec;
    if (k && c > 0 && c < k->shape[d] && !k->cut[d][c]) {
        k->cut[d][c] = 1;
        k->pending = 1;
    }
}

/* Makes the processor with coordinates co a class of its own. */
static void isolate(Eng *e, const int *co)
{
    for (int d = 0; e->ec && d < e->ec->rank; d++) {
        cut_at(e, d, co[d]);
        cut_at(e, d, (long)co[d] + 1);
    }
}

/* The interpreted processor of coordinates in grid g (with classes, every
 * grid has the class grid's shape). */
static int proc_of(const Eng *e, int rank, const int *shape, const int *co)
{
    return e->ec ? class_of_coords(e, co) : hpfmap_rank(rank, shape, co);
}

/* ---- SAG parameters ---------------------------------------------------- */

static int keyword_is(const SagUnit *u, const char *name, const char *word)
{
    const SagParam *p = sag_lookup(u, name);
    return p && p->kind == SAG_KEYWORD && strcmp(p->keyword, word) == 0;
}

static int alg_of(const SagUnit *u, const char *name)
{
    if (keyword_is(u, name, "linear"))
        return ALG_LINEAR;
    if (keyword_is(u, name, "recursive_doubling"))
        return ALG_RDOUBLING;
    return ALG_TREE;
}

/* Missing parameters fall back to documented defaults (doc/predict.md): an
 * operation one cycle, a library function twenty, no memory penalty. */
static void read_params(Params *p, const SagUnit *n)
{
    double clock = sag_value(n, "cpu.clock", 1e9), cyc = 1.0 / clock;
    for (int k = 0; k < OPC_N; k++)
        p->op[k] = sag_seconds(n, opc_param[k], cyc);
    p->loop_setup = sag_seconds(n, "loop.setup", 0);
    p->loop_iter = sag_seconds(n, "loop.iter", 0);
    p->loop_step = sag_seconds(n, "loop.step", 0);
    p->cond_test = sag_seconds(n, "cond.test", 0);
    p->cond_taken = sag_seconds(n, "cond.taken", 0);
    p->call_ovhd = sag_seconds(n, "call.overhead", 0);
    p->call_arg = sag_seconds(n, "call.per_arg", 0);
    p->lib_default = 20 * cyc;
    p->fetch_hit = sag_seconds(n, "mem.fetch.hit", 0);
    p->fetch_miss = sag_seconds(n, "mem.fetch.miss", p->fetch_hit);
    p->store_hit = sag_seconds(n, "mem.store.hit", 0);
    p->store_miss = sag_seconds(n, "mem.store.miss", p->store_hit);
    p->dc_size = sag_value(n, "dcache.size", 0);
    p->dc_block = sag_value(n, "dcache.block", 32);
    double assoc = sag_value(n, "dcache.assoc", 1);
    /* effective capacity: conflicts take a share that falls with the ways;
       random replacement evicts live lines more often than LRU */
    double keep = assoc <= 1 ? 0.5 : 1.0 - 1.0 / (2.0 * assoc);
    if (keyword_is(n, "dcache.replacement", "random") && assoc > 1)
        keep = 1.0 - 1.0 / (assoc + 1.0);
    p->dc_eff = p->dc_size * keep;
    p->short_max = sag_value(n, "net.short_max", 0);
    p->st_start = sag_seconds(n, "net.static.startup", 0);
    p->st_start_s = sag_seconds(n, "net.static.startup.short", p->st_start);
    p->st_pb = sag_seconds(n, "net.static.per_byte", 0);
    if (p->st_pb == 0 && sag_value(n, "net.bandwidth", 0) > 0)
        p->st_pb = 1.0 / sag_value(n, "net.bandwidth", 0);
    p->st_ph = sag_seconds(n, "net.static.per_hop", 0);
    p->st_recv = sag_seconds(n, "net.static.receive", 0);
    p->dy_start = sag_seconds(n, "net.dynamic.startup", p->st_start);
    p->dy_start_s = sag_seconds(n, "net.dynamic.startup.short", p->st_start_s);
    p->dy_pb = sag_seconds(n, "net.dynamic.per_byte", p->st_pb);
    p->dy_ph = sag_seconds(n, "net.dynamic.per_hop", p->st_ph);
    p->dy_recv = sag_seconds(n, "net.dynamic.receive", p->st_recv);
    p->dy_buffer = sag_value(n, "net.dynamic.buffer", 1e18);
    /* a background load rho on the channels (--set net.load=rho): a loaded
       channel carries a message 1/(1 - rho) slower, the growth of an M/M/1
       queue's time in the system, steep as rho nears 1 (doc/sag.md) */
    double rho = sag_value(n, "net.load", 0);
    if (rho > 0 && rho < 1) {
        double slow = 1.0 / (1.0 - rho);
        p->st_pb *= slow;
        p->dy_pb *= slow;
        p->st_ph *= slow;
        p->dy_ph *= slow;
    }
    p->sync = sag_seconds(n, "sync.overhead", 0);
    p->bcast_alg = alg_of(n, "coll.broadcast");
    p->red_alg = alg_of(n, "coll.reduction");
    p->topo = keyword_is(n, "net.topology", "hypercube") ? TOPO_HYPERCUBE
            : keyword_is(n, "net.topology", "ring") ? TOPO_RING
            : keyword_is(n, "net.topology", "mesh") || keyword_is(n, "net.topology", "torus")
              ? TOPO_MESH : TOPO_FLAT;
    p->nlev = 0;
    for (int l = 1; l <= 3; l++) {
        char name[64];
        snprintf(name, sizeof name, "cache.l%d.size", l);
        double size = sag_value(n, name, 0);
        snprintf(name, sizeof name, "cache.l%d.bandwidth", l);
        double rd = sag_value(n, name, 0);
        if (size <= 0 || rd <= 0)
            break;
        snprintf(name, sizeof name, "cache.l%d.bandwidth.write", l);
        p->lev_wr[p->nlev] = sag_value(n, name, rd);
        snprintf(name, sizeof name, "cache.l%d.shared", l);
        p->lev_shared[p->nlev] = fmax(1, sag_value(n, name, 1));
        snprintf(name, sizeof name, "cache.l%d.fetch", l);
        p->lev_fetch[p->nlev] = sag_seconds(n, name, -1);
        p->lev_size[p->nlev] = size;
        p->lev_rd[p->nlev++] = rd;
    }
    p->mem_rd = sag_value(n, "mem.bandwidth", 0);
    p->mem_wr = sag_value(n, "mem.bandwidth.write", p->mem_rd);
    p->mem_node = sag_value(n, "mem.bandwidth.node", 0);
    if (p->mem_rd <= 0)
        p->nlev = 0;
    p->io_start = sag_seconds(n, "io.startup", 0);
    p->io_fmt = sag_seconds(n, "io.format", 0);
    p->io_fmt_first = sag_seconds(n, "io.format.first", 0);
    p->io_pb = sag_seconds(n, "io.per_byte", 0);
    if (p->io_pb == 0 && sag_value(n, "io.bandwidth", 0) > 0)
        p->io_pb = 1.0 / sag_value(n, "io.bandwidth", 0);
    /* vectorized loops: the operations measured there (vec.op.dadd ...),
       the others scaled as the REAL(8) add is */
    p->vec_iter = sag_seconds(n, "vec.iter", 0);
    p->vec_width = p->vec_iter > 0 ? sag_value(n, "vec.width", 16) : 0;
    double vadd = sag_seconds(n, "vec.op.dadd", -1);
    p->vec_ratio = vadd >= 0 && p->op[OPC_DADD] > 0 ? vadd / p->op[OPC_DADD] : 1;
    for (int k = 0; k < OPC_N; k++) {
        char name[64];
        snprintf(name, sizeof name, "vec.%s", opc_param[k]);
        double v = sag_seconds(n, name, -1);
        p->vec_op[k] = v >= 0 ? v : p->op[k] * p->vec_ratio;
    }
    p->vec_fetch = sag_seconds(n, "vec.fetch", p->fetch_hit * p->vec_ratio);
    p->vec_store = sag_seconds(n, "vec.store", p->store_hit * p->vec_ratio);
    p->rt_region = sag_seconds(n, "rt.region", 0);
    p->rt_loop = sag_seconds(n, "rt.loop", 0);
    p->rt_gather = sag_seconds(n, "rt.gather", 0);
    p->rt_gather_elem = sag_seconds(n, "rt.gather.elem", 0);
    p->rt_gather_remote = sag_seconds(n, "rt.gather.remote", 0);
    p->rt_shift = sag_seconds(n, "rt.shift", 0);
    p->rt_start = sag_seconds(n, "rt.start", 0);
    p->page = sag_value(n, "mem.page", 4096);
    p->page_first = sag_seconds(n, "mem.page.first", 0);
    p->prefetch = sag_value(n, "mem.prefetch.stride", 0);
    p->red_sum = sag_seconds(n, "red.sum", 0);
    p->red_max = sag_seconds(n, "red.max", 0);
    p->jitter = sag_value(n, "comm.jitter", 0);
    p->jitter_tau = sag_seconds(n, "comm.jitter.interval", 30e-6);
    p->first_red = sag_seconds(n, "coll.first.reduction", 0);
    p->first_bcast = sag_seconds(n, "coll.first.broadcast", 0);
}

const SagUnit *engine_node_unit(const SagGraph *sag)
{
    for (int i = 0; i < sag_nunits(sag); i++)
        if (sag_unit_count(sag_unit(sag, i)) > 1)
            return sag_unit(sag, i);
    for (int i = 0; i < sag_nunits(sag); i++) {
        const SagUnit *u = sag_unit(sag, i);
        for (int k = 0; k < sag_nparams(u, SAG_PROCESSING); k++)
            if (strcmp(sag_param(u, SAG_PROCESSING, k)->name, "cpu.clock") == 0)
                return u;
    }
    return sag_root(sag);
}

/* ---- the network ------------------------------------------------------- */

int engine_hops(unsigned a, unsigned b)
{
    return __builtin_popcount(a ^ b);
}

unsigned engine_gray(unsigned c)
{
    return c ^ (c >> 1);
}

static int bits_for(int n)
{
    int b = 0;
    while ((1L << b) < n)
        b++;
    return b;
}

unsigned engine_embed(int rank, const int *shape, const int *coords)
{
    unsigned addr = 0;
    int shift = 0;
    for (int d = 0; d < rank; d++) {
        addr |= engine_gray((unsigned)coords[d]) << shift;
        shift += bits_for(shape[d]);
    }
    return addr;
}

static double startup(const Params *p, double bytes, int dynamic)
{
    if (bytes <= p->short_max)
        return dynamic ? p->dy_start_s : p->st_start_s;
    return dynamic ? p->dy_start : p->st_start;
}

double engine_msg_time(const SagUnit *node, double bytes, int hops)
{
    Params p;
    read_params(&p, node);
    return startup(&p, bytes, 0) + bytes * p.st_pb + hops * p.st_ph;
}

/* Hops between two processes that are not neighbours of a grid: on a
 * hypercube the processes sit on the nodes of their rank. */
static int rank_hops(const Eng *e, int a, int b)
{
    if (a == b)
        return 0;
    switch (e->pr.topo) {
    case TOPO_HYPERCUBE: return engine_hops((unsigned)a, (unsigned)b);
    case TOPO_RING: {
        int d = abs(a - b);
        return d < e->NP - d ? d : e->NP - d;
    }
    case TOPO_MESH: {
        int side = (int)ceil(sqrt((double)e->NP));
        return abs(a % side - b % side) + abs(a / side - b / side);
    }
    default: return 1;
    }
}

/* When processor p receives `bytes` from q (the exchange() model): its
 * clock after the receive. */
static double recv_finish(const Eng *e, int p, int q, double bytes)
{
    const Params *pr = &e->pr;
    double f = 1.0 - e->overlap;
    double arrive = e->clock[q] + f * (startup(pr, bytes, 0) + bytes * pr->st_pb) + pr->st_ph;
    if (arrive <= e->clock[p])
        return e->clock[p] + pr->dy_recv + f * bytes * (pr->dy_pb > pr->st_pb ? pr->dy_pb - pr->st_pb : 0);
    return arrive + pr->st_recv;
}

/* With classes, the processors of a class talk to partners in several
 * classes: the class follows its slowest member, so its partner is the one
 * it would finish the receive of `bytes` latest with. Class p's members
 * have coordinates in dimension d in an interval; their partners'
 * coordinates along d are the members' moved by `delta` (or with the bits
 * `flip` flipped). Returns that partner's class, or -1 when no member has a
 * partner (ok(c): the coordinate c can be a partner). */
static int latest_partner(const Eng *e, int p, int d, int delta, int flip,
                          int (*ok)(const void *, int), const void *arg, double bytes)
{
    int co[MAX_RANK];
    hpfmap_coords(rank_of(e, p), e->ec->rank, e->ec->shape, co);
    int i = e->of[d][co[d]], best = -1;
    int lo = e->ilo[d][i], hi = e->ihi[d][i], n = e->ec->shape[d];
    for (int c = lo; c <= hi; c++) {
        int cn = flip ? c ^ flip : c + delta;
        if (cn < 0 || cn >= n || (ok && !ok(arg, cn)))
            continue;
        int q = p + (e->of[d][cn] - i) * e->stride[d];
        if (best < 0 || recv_finish(e, p, q, bytes) > recv_finish(e, p, best, bytes))
            best = q;
        if (!flip)                /* the rest of cn's interval: the same class */
            c = e->ihi[d][e->of[d][cn]] - delta;
    }
    return best;
}

/* ---- metrics ----------------------------------------------------------- */

static void begin(Eng *e)
{
    memset(e->ex, 0, (size_t)e->P * sizeof *e->ex);
}

/* One event of the trace on processor p (classes are off when tracing:
 * p is the processor's rank). */
static __attribute__((noinline)) void record(Eng *e, const Aau *a, TraceKind k, int p, double t0,
                                             double t1, int peer, long msg, double bytes)
{
    TraceEvent ev = {t0, t1, p, k, a ? a->line : 0, a ? a->id : -1, peer, msg, bytes,
                     a ? aau_class_name[a->cls] : NULL};
    trace_add(e->tr, &ev);
}

/* charge() with the AAU's sum of metric m in *sum: a caller that charges
 * in a loop keeps it in a register (the same additions, in the same order)
 * and stores it back. It records nothing: untraced runs only (traced, the
 * callers charge()). */
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
        record(e, a, kind[m], p, e->clock[p] - t, e->clock[p], -1, -1, 0);
    }
}

/* Ends one execution of a on the processors in mult (NULL: all); execs
 * counts the executions. */
static void end(Eng *e, Aau *a, double execs)
{
    double mx = 0, mn = INFINITY;
    for (int p = 0; p < e->P; p++) {
        if (e->ex[p] > mx)
            mx = e->ex[p];
        if (e->ex[p] < mn)
            mn = e->ex[p];
    }
    a->m_max += mx;
    a->m_min += mn == INFINITY ? 0 : mn;
    a->execs += execs;
    e->visits++;
}

/* t on every processor, times mult[p] (NULL: once). */
static void charge_all(Eng *e, Aau *a, int m, double t, const double *mult)
{
    if (e->tr) {
        /* traced: charge() records each charge */
        for (int p = 0; p < e->P; p++)
            charge(e, a, m, p, mult ? t * mult[p] : t);
        return;
    }
    /* charge() on every processor, the AAU's sum kept in a register (the
       same additions in the same order) */
    double *clock = e->clock, *acc = e->acc[m], *ex = e->ex, sum = a->m_sum[m];
    for (int p = 0; p < e->P; p++)
        add_charge(clock, acc, &ex[p], &sum, e->cnt, p, mult ? t * mult[p] : t);
    a->m_sum[m] = sum;
}

/* One execution of a that costs t (times mult[p]) of metric m on every
 * processor: begin(), charge_all() and end(e, a, sum_of(e, mult)) in one
 * pass (the same additions in the same order; the execution's times are
 * those charge() would leave in e->ex, kept in registers). */
static inline __attribute__((always_inline)) void
charge_once_with(Eng *e, Aau *a, int m, double t, const double *mult, const double *cnt)
{
    double *clock = e->clock, *acc = e->acc[m], sum = a->m_sum[m];
    double mx = 0, mn = INFINITY, execs = 0;
    for (int p = 0; p < e->P; p++) {
        double ex = 0;
        add_charge(clock, acc, &ex, &sum, cnt, p, mult ? t * mult[p] : t);
        if (ex > mx)
            mx = ex;
        if (ex < mn)
            mn = ex;
        execs += (mult ? mult[p] : 1) * (cnt ? cnt[p] : 1);
    }
    a->m_sum[m] = sum;
    a->m_max += mx;
    a->m_min += mn == INFINITY ? 0 : mn;
    a->execs += execs;
    e->visits++;
}

static double sum_of(const Eng *e, const double *mult);

static void charge_once(Eng *e, Aau *a, int m, double t, const double *mult)
{
    if (e->tr) {
        /* traced: each charge recorded (charge_all) */
        begin(e);
        charge_all(e, a, m, t, mult);
        end(e, a, sum_of(e, mult));
        return;
    }
    /* the loop made for each case of mult and classes */
    if (e->cnt)
        charge_once_with(e, a, m, t, mult, e->cnt);
    else if (mult)
        charge_once_with(e, a, m, t, mult, NULL);
    else
        charge_once_with(e, a, m, t, NULL, NULL);
}

/* The sum over all processors of mult (NULL: 1 each). */
static double sum_of(const Eng *e, const double *mult)
{
    double s = 0;
    for (int p = 0; p < e->P; p++)
        s += (mult ? mult[p] : 1) * weight(e, p);
    return s;
}

/* ---- grids and templates ---------------------------------------------- */

/* The shape of a processor arrangement (NULL: the default 1-D one) on
 * NP processors; returns its rank. */
static int grid_shape(Eng *e, const SpProcs *pr, int *shape)
{
    int rank = pr ? pr->rank : 1;
    long decl[MAX_RANK];
    for (int d = 0; d < rank; d++) {
        long long v = 0;
        decl[d] = pr && pr->ext[d] && fi_eval_int(e->fi, pr->ext[d], &v) ? (long)v : 0;
    }
    hpfmap_grid_shape(e->NP, rank, pr ? decl : NULL, shape);
    return rank;
}

static Grid *grid_of(Eng *e, const SpProcs *pr)
{
    for (int i = 0; i < e->grids.n; i++) {
        Grid *g = e->grids.v[i];
        if (g->procs == pr)
            return g;
    }
    Grid *g = xcalloc(1, sizeof *g);
    g->procs = pr;
    g->rank = grid_shape(e, pr, g->shape);
    /* the coordinates of the interpreted processors (representatives) */
    g->coords = xmalloc((size_t)e->P * (size_t)g->rank * sizeof *g->coords);
    for (int p = 0; p < e->P; p++)
        hpfmap_coords(rank_of(e, p), g->rank, g->shape, g->coords + (size_t)p * (size_t)g->rank);
    vec_push(NULL, &e->grids, g);
    return g;
}

static long long eval_int(Eng *e, const Node *n, long long dflt, int line, const char *what)
{
    long long v;
    if (!n)
        return dflt;
    if (fi_eval_int(e->fi, n, &v))
        return v;
    fi_missing(e->fi, n, line, what);
    e->failed = 1;
    return dflt;
}

static Tmpl *tmpl_of(Eng *e, const SpTmpl *t)
{
    for (int i = 0; i < e->tmpls.n; i++) {
        Tmpl *m = e->tmpls.v[i];
        if (m->t == t)
            return m;
    }
    Tmpl *m = xcalloc(1, sizeof *m);
    m->t = t;
    m->grid = grid_of(e, t->onto);
    for (int d = 0; d < t->rank; d++) {
        long long lo = eval_int(e, t->lo[d], 1, 0, "template bound");
        long long hi = eval_int(e, t->hi[d], lo, 0, "template bound");
        long long k = t->k[d] ? eval_int(e, t->k[d], 1, 0, "distribution block") : 0;
        int gd = t->gdim[d];
        int np = gd >= 0 && gd < m->grid->rank ? m->grid->shape[gd] : 1;
        int fmt = gd >= 0 ? t->fmt[d] : HPFMAP_STAR;
        if (hpfmap_dim_init(&m->d[d], fmt, (long)k, (long)lo, (long)(hi - lo + 1 > 0 ? hi - lo + 1 : 0),
                            np) != 0)
            hpfmap_dim_init(&m->d[d], HPFMAP_STAR, 0, (long)lo, 0, 1);
    }
    vec_push(NULL, &e->tmpls, m);
    return m;
}

static Grid *arr_grid(Eng *e, const SpArr *a)
{
    return a && a->tmpl ? tmpl_of(e, a->tmpl)->grid : NULL;
}

/* The template cell of subscript s of array dimension d. */
/* Array dimension d sits in template cell ca*i + cb. */
static void align_coef(Eng *e, const SpArr *a, int d, long long *ca, long long *cb)
{
    *ca = a->ca[d];
    *cb = a->cb[d];
    if (!a->cknown[d]) {
        *ca = eval_int(e, a->alpha[d], 1, 0, "alignment");
        *cb = eval_int(e, a->beta[d], 0, 0, "alignment");
    }
}

static long cell_of(Eng *e, const SpArr *a, int d, long long s)
{
    long long ca, cb;
    align_coef(e, a, d, &ca, &cb);
    return (long)(ca * s + cb);
}

/* Grid coordinates of the owners of an element: coord[gd] = -1 where the
 * array is replicated (every coordinate holds it). */
static void owner_coords(Eng *e, const SpArr *a, const long long *sub, int *coord)
{
    Tmpl *m = tmpl_of(e, a->tmpl);
    for (int gd = 0; gd < m->grid->rank; gd++)
        coord[gd] = -1;
    int aligned[MAX_RANK] = {0};
    for (int d = 0; d < a->rank; d++) {
        int t = a->tdim[d];
        if (t < 0)
            continue;
        aligned[t] = 1;
        int gd = a->tmpl->gdim[t];
        if (gd >= 0)
            coord[gd] = hpfmap_owner(&m->d[t], cell_of(e, a, d, sub[d]));
    }
    for (int t = 0; t < a->tmpl->rank; t++) {
        int gd = a->tmpl->gdim[t];
        if (aligned[t] || gd < 0 || !a->fix[t])
            continue;
        coord[gd] = hpfmap_owner(&m->d[t], (long)eval_int(e, a->fix[t], 1, 0, "alignment"));
    }
}

/* Elements of a held on processor p (the most any processor holds when p
 * < 0), for message and cache sizes. */
static double local_elems(Eng *e, const SpArr *a, int p, int d_skip)
{
    double n = 1;
    Grid *g = arr_grid(e, a);
    int coords[MAX_RANK] = {0};
    if (g && p >= 0)
        memcpy(coords, coords_of(g, p), (size_t)g->rank * sizeof *coords);
    for (int d = 0; d < a->rank; d++) {
        if (d == d_skip)
            continue;
        int t = a->tmpl ? a->tdim[d] : -1;
        if (t >= 0 && a->tmpl->gdim[t] >= 0) {
            Tmpl *m = tmpl_of(e, a->tmpl);
            n *= p >= 0 ? (double)hpfmap_count(&m->d[t], coords[a->tmpl->gdim[t]])
                        : (double)hpfmap_count_max(&m->d[t]);
        } else {
            long long lo = eval_int(e, a->lo[d], 1, 0, "array bound");
            long long hi = eval_int(e, a->hi[d], lo, 0, "array bound");
            n *= hi >= lo ? (double)(hi - lo + 1) : 0;
        }
    }
    return n;
}

static int elsize(Type t)
{
    int k = t.kind ? t.kind : 4;
    return t.base == TY_COMPLEX ? 2 * k : k;
}

/* ---- point-to-point messages -------------------------------------------- */

/* One round in which processor p sends at most one message (bytes[p] to
 * dst[p]) and receives at most one (from src[p]); hops[p] for the message
 * p receives. The sends go out at each sender's clock; a message that
 * arrived before its receive was posted went to a dynamic (system) buffer and
 * is copied out, one that arrives later is waited for in the posted
 * (static) buffer; one larger than the dynamic buffer waits for its
 * receive (rendezvous). Traced, the messages are numbered and each send,
 * wait and receive is an event. */
/* Whether time a is not after time b: a message that arrives as its
 * receive is posted arrived, a receiver ready as its sender sends was
 * ready. Equal times (a ring shift, every processor alike) come out of
 * different sums, which round differently: within a picosecond a second
 * they are taken as equal, so that the model's decisions do not depend on
 * rounding (nor, then, on how far the clocks are from 0: a steady state
 * extrapolated repeats exactly what an interpreted iteration does). */
static inline int not_after(double a, double b)
{
    return a <= b + 1e-12 * fabs(b) + 1e-15;
}

static void exchange(Eng *e, Aau *a, const int *dst, const int *src, const double *bytes,
                     const int *hops)
{
    const Params *pr = &e->pr;
    double f = 1.0 - e->overlap;
    double *sent = e->v1;
    /* the sums kept in registers; traced, each charge is recorded too, the
       messages numbered */
    double sw = a->m_sum[M_WAIT], sc = a->m_sum[M_COMM], so = a->m_sum[M_OVHD];
    long *msg = e->tr ? buf_get(e) : NULL;
    for (int p = 0; p < e->P; p++)
        sent[p] = e->clock[p];
    /* a rendezvous send starts when its receiver is ready */
    for (int p = 0; p < e->P; p++)
        if (dst[p] >= 0 && bytes[p] > pr->dy_buffer && !not_after(e->clock[dst[p]], sent[p])) {
            charge_to(e, &sw, M_WAIT, p, e->clock[dst[p]] - sent[p]);
            if (msg)
                record(e, a, TR_WAIT, p, sent[p], e->clock[p], -1, -1, 0);
            sent[p] = e->clock[p];
        }
    for (int p = 0; p < e->P; p++)
        if (dst[p] >= 0) {
            charge_to(e, &sc, M_COMM, p, f * (startup(pr, bytes[p], 0) + bytes[p] * pr->st_pb));
            if (msg) {
                msg[p] = trace_message(e->tr);
                record(e, a, TR_SEND, p, sent[p], e->clock[p], dst[p], msg[p], bytes[p]);
            }
        }
    for (int p = 0; p < e->P; p++) {
        int q = src[p];
        if (q < 0)
            continue;
        double b = bytes[q];
        double arrive = sent[q] + f * (startup(pr, b, 0) + b * pr->st_pb) + hops[p] * pr->st_ph;
        double r0 = e->clock[p];
        if (not_after(arrive, e->clock[p])) {
            charge_to(e, &so, M_OVHD, p, pr->dy_recv);
            charge_to(e, &sc, M_COMM, p, f * b * (pr->dy_pb > pr->st_pb ? pr->dy_pb - pr->st_pb : 0));
        } else {
            charge_to(e, &sw, M_WAIT, p, arrive - e->clock[p]);
            if (msg)
                record(e, a, TR_WAIT, p, r0, e->clock[p], -1, -1, 0);
            r0 = e->clock[p];
            charge_to(e, &so, M_OVHD, p, pr->st_recv);
        }
        if (msg)
            record(e, a, TR_RECV, p, r0, e->clock[p], q, msg[q], b);
    }
    a->m_sum[M_WAIT] = sw;
    a->m_sum[M_COMM] = sc;
    a->m_sum[M_OVHD] = so;
    if (msg)
        buf_put(e, msg);
}

/* One round of a pair list in one direction, ready for exchange_round():
 * the senders and the receivers in increasing order, and by processor
 * their partners, the bytes sent and the hops. */
typedef struct {
    int ns, nr;
    int *snd, *rcv;
    int *dst, *src, *hops;
    double *bytes;
    /* by processor, what exchange() computes from them: the cost of the
       send, the time of the hops, the copy out of a dynamic buffer */
    double *send_t, *hop_t, *dyn_t;
} Round;


/* exchange() of a round whose pairs agree (dst[p] = q exactly when
 * src[q] = p): only the processors that send or receive are visited, in
 * the order exchange() visits them, with the same operations. */
static inline __attribute__((always_inline)) void
exchange_round_with(Eng *e, Aau *a, const Round *r, const double *cnt)
{
    const Params *pr = &e->pr;
    double *sent = e->v1, *clock = e->clock, *ex = e->ex;
    double *aw = e->acc[M_WAIT], *ac = e->acc[M_COMM], *ao = e->acc[M_OVHD];
    double sw = a->m_sum[M_WAIT], sc = a->m_sum[M_COMM], so = a->m_sum[M_OVHD];
    const int *snd = r->snd, *rcv = r->rcv, *dst = r->dst, *src = r->src;
    const double *bytes = r->bytes, *send_t = r->send_t, *hop_t = r->hop_t, *dyn_t = r->dyn_t;
    int ns = r->ns, nr = r->nr;
    for (int i = 0; i < ns; i++) {
        int p = snd[i];
        sent[p] = clock[p];
    }
    for (int i = 0; i < ns; i++) {
        int p = snd[i];
        if (bytes[p] > pr->dy_buffer && !not_after(clock[dst[p]], sent[p])) {
            add_charge(clock, aw, &ex[p], &sw, cnt, p, clock[dst[p]] - sent[p]);
            sent[p] = clock[p];
        }
    }
    for (int i = 0; i < ns; i++) {
        int p = snd[i];
        add_charge(clock, ac, &ex[p], &sc, cnt, p, send_t[p]);
    }
    for (int i = 0; i < nr; i++) {
        int p = rcv[i], q = src[p];
        double arrive = sent[q] + send_t[q] + hop_t[p];
        if (not_after(arrive, clock[p])) {
            add_charge(clock, ao, &ex[p], &so, cnt, p, pr->dy_recv);
            add_charge(clock, ac, &ex[p], &sc, cnt, p, dyn_t[p]);
        } else {
            add_charge(clock, aw, &ex[p], &sw, cnt, p, arrive - clock[p]);
            add_charge(clock, ao, &ex[p], &so, cnt, p, pr->st_recv);
        }
    }
    a->m_sum[M_WAIT] = sw;
    a->m_sum[M_COMM] = sc;
    a->m_sum[M_OVHD] = so;
}

static void exchange_round(Eng *e, Aau *a, const Round *r)
{
    if (e->tr) {
        /* traced: exchange() numbers and records the messages (the round's
           vectors are whole: by processor, -1 or 0 where it takes no part) */
        exchange(e, a, r->dst, r->src, r->bytes, r->hops);
        return;
    }
    if (e->cnt)
        exchange_round_with(e, a, r, e->cnt);
    else
        exchange_round_with(e, a, r, NULL);
}

/* All processors wait for the last one (a synchronizing collective). */
static double sync_all(Eng *e, Aau *a)
{
    double mx = 0;
    for (int p = 0; p < e->P; p++)
        if (e->clock[p] > mx)
            mx = e->clock[p];
    if (e->tr) {
        /* traced: charge() records each wait */
        for (int p = 0; p < e->P; p++)
            charge(e, a, M_WAIT, p, mx - e->clock[p]);
        return mx;
    }
    double sw = a->m_sum[M_WAIT], *clock = e->clock, *aw = e->acc[M_WAIT], *ex = e->ex;
    const double *cnt = e->cnt;
    for (int p = 0; p < e->P; p++)
        add_charge(clock, aw, &ex[p], &sw, cnt, p, mx - clock[p]);
    a->m_sum[M_WAIT] = sw;
    return mx;
}

/* Broadcast of `bytes` from root by the SAG's algorithm. */
static void broadcast(Eng *e, Aau *a, int root, double bytes)
{
    int NP = e->NP;
    if (NP == 1)
        return;
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *b = buf_get(e);
    for (int p = 0; p < e->P; p++)
        b[p] = bytes;
    if (e->ec && weight(e, class_of_rank(e, root)) > 1) {
        int co[MAX_RANK];
        hpfmap_coords(root, e->ec->rank, e->ec->shape, co);
        isolate(e, co);
    }
    if (e->pr.bcast_alg == ALG_LINEAR) {
        /* the root sends to each in turn: NP-1 rounds of one message (no
           classes: see engine_run) */
        for (int k = 1; k < NP; k++) {
            for (int p = 0; p < NP; p++)
                dst[p] = src[p] = -1;
            int q = (root + k) % NP;
            dst[root] = q;
            src[q] = root;
            hops[q] = rank_hops(e, root, q);
            exchange(e, a, dst, src, b, hops);
        }
    } else {
        /* binomial tree over the ranks relative to the root: in the round
           of s, relative rank r < s sends to r + s */
        for (long s = 1; s < NP; s <<= 1) {
            for (int p = 0; p < e->P; p++) {
                long r = (rank_of(e, p) - root + NP) % NP;
                dst[p] = src[p] = -1;
                if (r < s && r + s < NP)
                    dst[p] = class_of_rank(e, (int)((r + s + root) % NP));
                else if (r >= s && r < 2 * s) {
                    int from = (int)((r - s + root) % NP);
                    src[p] = class_of_rank(e, from);
                    hops[p] = rank_hops(e, from, rank_of(e, p));
                }
            }
            exchange(e, a, dst, src, b, hops);
        }
    }
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, b);
}

/* One round of an allreduce: processor rank r sends to rank to(r) and
 * receives from rank from(r) (-1: none), combining what it receives. */
typedef struct {
    int kind;                     /* RD_FOLD, RD_STEP, RD_UNFOLD, RT_STEP */
    long s;                       /* the step's distance */
    int pow2;
} RedRound;
enum { RD_FOLD, RD_STEP, RD_UNFOLD, RT_STEP };

static void red_partners(const RedRound *k, int NP, long r, long *to, long *from)
{
    *to = *from = -1;
    switch (k->kind) {
    case RD_FOLD:                 /* those beyond the largest power of two fold in */
        if (r >= k->pow2)
            *to = r - k->pow2;
        else if (r < NP - k->pow2)
            *from = r + k->pow2;
        break;
    case RD_STEP:                 /* recursive doubling: exchange with r ^ s */
        if (r < k->pow2)
            *to = *from = r ^ k->s;
        break;
    case RD_UNFOLD:               /* and get the result back */
        if (r < NP - k->pow2)
            *to = r + k->pow2;
        else if (r >= k->pow2)
            *from = r - k->pow2;
        break;
    case RT_STEP:                 /* tree to rank 0: r + s sends to r < s */
        if (r < k->s && r + k->s < NP)
            *from = r + k->s;
        else if (r >= k->s && r < 2 * k->s)
            *to = r - k->s;
        break;
    }
}

static void red_round(Eng *e, Aau *a, const RedRound *k, double bytes, double comb)
{
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *b = buf_get(e);
    /* with classes, a step of recursive doubling flips one bit of the
       rank: one bit of one coordinate when the grid's extents are powers
       of two */
    int fd = -1, fbit = 0;
    if (e->ec && k->kind == RD_STEP)
        for (int d = 0, st = 1; d < e->ec->rank; st *= e->ec->shape[d], d++)
            if ((e->ec->shape[d] & (e->ec->shape[d] - 1)) == 0 && k->s >= st &&
                k->s < (long)st * e->ec->shape[d] && (k->pow2 == e->NP)) {
                fd = d;
                fbit = (int)(k->s / st);
            }
    for (int p = 0; p < e->P; p++) {
        long to, from, r = rank_of(e, p);
        red_partners(k, e->NP, r, &to, &from);
        b[p] = bytes;
        dst[p] = to >= 0 ? class_of_rank(e, (int)to) : -1;
        src[p] = from >= 0 ? class_of_rank(e, (int)from) : -1;
        if (fd >= 0)
            dst[p] = src[p] = latest_partner(e, p, fd, 0, fbit, NULL, NULL, bytes);
        if (from >= 0)
            hops[p] = rank_hops(e, (int)from, (int)r);
    }
    exchange(e, a, dst, src, b, hops);
    if (k->kind != RD_UNFOLD)
        for (int p = 0; p < e->P; p++)
            if (src[p] >= 0)
                charge(e, a, M_COMP, p, comb);
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, b);
}

/* Combining `count` values of type ty with op on every processor, the
 * result on every processor (allreduce). */
static void reduce_all(Eng *e, Aau *a, int op, double bytes, Type ty)
{
    int NP = e->NP;
    double comb = ty.base == TY_INTEGER || ty.base == TY_LOGICAL
                ? e->pr.op[op == HPFRT_PRODUCT ? OPC_IMUL : OPC_IADD]
                : ty.kind == 8 ? e->pr.op[op == HPFRT_PRODUCT ? OPC_DMUL : OPC_DADD]
                               : e->pr.op[op == HPFRT_PRODUCT ? OPC_FMUL : OPC_FADD];
    if (NP == 1)
        return;
    if (e->pr.red_alg == ALG_LINEAR) {
        /* to processor 0 one by one (no classes: see engine_run), then a
           broadcast */
        int *dst = buf_get(e), *src = buf_get(e);
        int *hops = buf_get(e);
        double *b = buf_get(e);
        for (int p = 0; p < NP; p++)
            b[p] = bytes;
        for (int q = 1; q < NP; q++) {
            for (int p = 0; p < NP; p++)
                dst[p] = src[p] = -1;
            dst[q] = 0;
            src[0] = q;
            hops[0] = rank_hops(e, q, 0);
            exchange(e, a, dst, src, b, hops);
            charge(e, a, M_COMP, 0, comb);
        }
        buf_put(e, dst);
        buf_put(e, src);
        buf_put(e, hops);
        buf_put(e, b);
        broadcast(e, a, 0, bytes);
        return;
    }
    if (e->pr.red_alg == ALG_TREE) {
        long top = 1;
        while (top < NP)
            top <<= 1;
        for (long s = top >> 1; s >= 1; s >>= 1)
            red_round(e, a, &(RedRound){RT_STEP, s, 0}, bytes, comb);
        broadcast(e, a, 0, bytes);
        return;
    }
    /* recursive doubling; the processes beyond the largest power of two
       fold their values into the first ones before and get the result after */
    int pow2 = 1;
    while (pow2 * 2 <= NP)
        pow2 *= 2;
    if (pow2 < NP)
        red_round(e, a, &(RedRound){RD_FOLD, 0, pow2}, bytes, comb);
    for (int s = 1; s < pow2; s <<= 1)
        red_round(e, a, &(RedRound){RD_STEP, s, pow2}, bytes, comb);
    if (pow2 < NP)
        red_round(e, a, &(RedRound){RD_UNFOLD, 0, pow2}, bytes, comb);
}

/* ---- FORALL nests: iterations per processor ------------------------------ */

/* The grid dimension a FORALL index is bound to, or -1. */
static int index_gdim(const SpIndex *ix)
{
    if (!ix->dist || !ix->arr || !ix->arr->tmpl)
        return -1;
    int t = ix->arr->tdim[ix->dim];
    return t >= 0 ? ix->arr->tmpl->gdim[t] : -1;
}

/* How a FORALL index picks its processor: template cell A*i + B of the
 * distributed template dimension hd, on grid dimension gd (-1: unbound). */
typedef struct {
    int gd;
    const HpfDim *hd;
    long long A, B;
} IxMap;

static void index_map(Eng *e, const SpIndex *ix, int line, IxMap *m)
{
    m->gd = index_gdim(ix);
    if (m->gd < 0)
        return;
    const SpArr *arr = ix->arr;
    long long a = ix->a_const ? eval_int(e, ix->a, 1, line, "subscript") : 0;
    long long b = eval_int(e, ix->b, 0, line, "subscript");
    long long ca, cb;
    align_coef(e, arr, ix->dim, &ca, &cb);
    m->hd = &tmpl_of(e, arr->tmpl)->d[arr->tdim[ix->dim]];
    m->A = ca * a;
    m->B = ca * b + cb;
}

static void index_maps(Eng *e, const SpLoop *l, IxMap *map)
{
    for (int k = 0; k < l->nidx; k++)
        index_map(e, &l->idx[k], 0, &map[k]);
}

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

static IxCache *ix_cached(Eng *e, const SpIndex *ix)
{
    size_t h = ((uintptr_t)ix >> 4) * 0x9E3779B97F4A7C15ull;
    if (!e->ixcap) {
        e->ixcap = 256;
        e->ixc = xcalloc(e->ixcap, sizeof *e->ixc);
    }
    for (size_t i = h & (e->ixcap - 1);; i = (i + 1) & (e->ixcap - 1))
        if (e->ixc[i].ix == ix)
            return &e->ixc[i];
        else if (!e->ixc[i].ix) {
            if (2 * (e->ixused + 1) > e->ixcap) {
                IxCache *old = e->ixc;
                size_t oc = e->ixcap;
                e->ixcap *= 2;
                e->ixc = xcalloc(e->ixcap, sizeof *e->ixc);
                e->ixused = 0;
                for (size_t j = 0; j < oc; j++)
                    if (old[j].ix)
                        *ix_cached(e, old[j].ix) = old[j];
                free(old);
                return ix_cached(e, ix);
            }
            e->ixused++;
            e->ixc[i].ix = ix;
            e->ixc[i].n = -1;
            return &e->ixc[i];
        }
}

/* Trips of index ix for each coordinate of its grid dimension (*ncoord of
 * them; the engine's, not to be freed). */
static int invariant(const Node *n);

/* Whether the trips of ix can change during the run: its bounds, stride,
 * subscript coefficients and alignment are constants. */
static int index_invariant(const SpIndex *ix)
{
    if (!invariant(ix->lo) || !invariant(ix->hi) || !invariant(ix->st))
        return 0;
    if (index_gdim(ix) < 0)
        return 1;
    return (!ix->a_const || invariant(ix->a)) && invariant(ix->b) &&
           (ix->arr->cknown[ix->dim] ||
            (invariant(ix->arr->alpha[ix->dim]) && invariant(ix->arr->beta[ix->dim])));
}

static const double *index_counts(Eng *e, const SpIndex *ix, int line, int *ncoord)
{
    IxCache *k0 = ix_cached(e, ix);
    if (k0->n >= 0 && k0->inv > 0 && (!k0->steps || fi_spend(e->fi, k0->steps))) {
        *ncoord = k0->n;
        return k0->c;
    }
    long long steps0 = fi_steps(e->fi);
    long long lo = eval_int(e, ix->lo, 1, line, "FORALL bound");
    long long hi = eval_int(e, ix->hi, 0, line, "FORALL bound");
    long long st = eval_int(e, ix->st, 1, line, "FORALL stride");
    if (st == 0)
        st = 1;
    IxMap m;
    index_map(e, ix, line, &m);
    long long steps = fi_steps(e->fi) - steps0;
    IxCache *k = ix_cached(e, ix);
    if (k->n >= 0 && k->lo == lo && k->hi == hi && k->st == st &&
        (m.gd < 0 ? !k->hd : k->hd == m.hd && k->A == m.A && k->B == m.B)) {
        *ncoord = k->n;
        return k->c;
    }
    free(k->c);
    signed char inv = k->inv ? k->inv : index_invariant(ix) ? 1 : -1;
    *k = (IxCache){ix, lo, hi, st, 0, 0, NULL, 1, NULL, e->failed ? -1 : inv, steps};
    if (m.gd < 0) {
        k->c = xmalloc(sizeof *k->c);
        k->c[0] = (double)hpfmap_trip((long)lo, (long)hi, (long)st);
        *ncoord = 1;
        return k->c;
    }
    int np = m.hd->nprocs;
    double *c = xcalloc((size_t)np, sizeof *c);
    HpfSeg buf[64], *seg = buf;
    long max = 64;
    for (int p = 0; p < np; p++) {
        long ns;
        while ((ns = hpfmap_segments(m.hd, p, (long)m.A, (long)m.B, (long)lo, (long)hi, (long)st,
                                     seg, max)) > max) {
            max = ns;
            seg = xrealloc(seg == buf ? NULL : seg, (size_t)max * sizeof *seg);
        }
        for (long j = 0; j < ns; j++)
            c[p] += (double)((seg[j].i2 - seg[j].i1) / seg[j].is + 1);
    }
    if (seg != buf)
        free(seg);
    k->hd = m.hd;
    k->A = m.A;
    k->B = m.B;
    k->n = np;
    k->c = c;
    *ncoord = np;
    return c;
}

/* Grid coordinates of the processor that runs iteration point pt (bound
 * dimensions only; others stay 0). */
static void point_coords(const SpLoop *l, const IxMap *map, const Grid *g, const FiSpace *sp,
                         long pt, int *coord)
{
    for (int d = 0; d < g->rank; d++)
        coord[d] = 0;
    for (int k = 0; k < l->nidx; k++)
        if (map[k].gd >= 0)
            coord[map[k].gd] = hpfmap_owner(map[k].hd, (long)(map[k].A * sp->idx[k][pt] + map[k].B));
}

/* The counts of the last masked FORALLs without guards, for the next
 * one with the same iteration space and mapping (the statements of a
 * WHERE construct share their mask). */
enum { PC_KEEP = 4 };
typedef struct PcCache {
    const SpLoop *l;              /* the loop counted (NULL: free) */
    int masked;
    const Grid *g;
    IxMap map[MAX_RANK];
    double *out;
} PcCache;

static int same_maps(const SpLoop *l, const IxMap *a, const IxMap *b)
{
    for (int k = 0; k < l->nidx; k++)
        if (a[k].gd != b[k].gd ||
            (a[k].gd >= 0 && (a[k].hd != b[k].hd || a[k].A != b[k].A || a[k].B != b[k].B)))
            return 0;
    return 1;
}

/* Counts of the points of the space on the processors with zero
 * coordinates in the unbound grid dimensions (no guards): the owner of an
 * index value from a table when the values span a small range. */
static void count_points(Eng *e, const SpLoop *l, const Grid *g, const IxMap *map,
                         const FiSpace *sp, int masked, double *out)
{
    int linear = !e->ec, used[MAX_RANK] = {0};
    long long vmin[MAX_RANK], span[MAX_RANK], spans = 0;
    int *tab[MAX_RANK] = {0};
    long gmul[MAX_RANK];
    long m = 1;
    for (int d = 0; d < g->rank; d++) {
        gmul[d] = m;
        m *= g->shape[d];
    }
    for (int k = 0; k < l->nidx; k++) {
        if (map[k].gd < 0)
            continue;
        if (used[map[k].gd]++)
            linear = 0;           /* two indices on one grid dimension: the last wins */
        /* the space is the whole product of the index ranges, first index
           fastest: each index takes its extreme values at the first and
           the last point */
        const long long *x = sp->idx[k];
        long long a = sp->n ? x[0] : 0, b = sp->n ? x[sp->n - 1] : 0;
        vmin[k] = a < b ? a : b;
        span[k] = (a < b ? b - a : a - b) + 1;
        spans += span[k];
    }
    if (spans * 8 > sp->n)
        linear = 0;               /* few points for the table's entries */
    if (linear) {
        /* hpfmap_rank is linear in the coordinates: each index adds its own
           part of the rank */
        for (int k = 0; k < l->nidx; k++) {
            if (map[k].gd < 0)
                continue;
            tab[k] = xmalloc((size_t)span[k] * sizeof *tab[k]);
            for (long long v = 0; v < span[k]; v++)
                tab[k][v] = hpfmap_owner(map[k].hd, (long)(map[k].A * (vmin[k] + v) + map[k].B)) *
                            (int)gmul[map[k].gd];
        }
        const unsigned char *mk = masked ? sp->mask : NULL;
        int nt = 0, tk[MAX_RANK];
        for (int k = 0; k < l->nidx; k++)
            if (tab[k])
                tk[nt++] = k;
        if (nt == 1) {
            const int *t0 = tab[tk[0]];
            const long long *x0 = sp->idx[tk[0]], v0 = vmin[tk[0]];
            for (long pt = 0; pt < sp->n; pt++)
                if (!mk || mk[pt])
                    out[t0[x0[pt] - v0]] += 1;
        } else {
            for (long pt = 0; pt < sp->n; pt++) {
                if (mk && !mk[pt])
                    continue;
                int r = 0;
                for (int i = 0; i < nt; i++)
                    r += tab[tk[i]][sp->idx[tk[i]][pt] - vmin[tk[i]]];
                out[r] += 1;
            }
        }
        for (int k = 0; k < l->nidx; k++)
            free(tab[k]);
        return;
    }
    for (long pt = 0; pt < sp->n; pt++) {
        if (masked && sp->mask && !sp->mask[pt])
            continue;
        int coord[MAX_RANK];
        point_coords(l, map, g, sp, pt, coord);
        out[proc_of(e, g->rank, g->shape, coord)] += 1;
    }
}

/* Counts by processor counted on the processors with zero coordinates in
 * the grid dimensions no index is bound to (bound[d] 0): with classes the
 * mean of a class, then copied along those dimensions (none but the first
 * copy of a primary loop's driver counts). */
static void spread_counts(Eng *e, const SpLoop *l, const Grid *g, const int *bound, double *out)
{
    for (int p = 0; e->cnt && p < e->P; p++)
        out[p] /= e->cnt[p];
    for (int p = 0; p < e->P; p++) {
        int coord[MAX_RANK];
        memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
        int base = 1;
        for (int d = 0; d < g->rank; d++)
            if (!bound[d] && coord[d]) {
                base = 0;
                coord[d] = 0;
            }
        if (!base)
            out[p] = out[proc_of(e, g->rank, g->shape, coord)];
    }
    if (l->primary)
        for (int p = 0; p < e->P; p++) {
            int coord[MAX_RANK];
            memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
            for (int d = 0; d < g->rank; d++)
                if (!bound[d] && coord[d])
                    out[p] = 0;
        }
}

/* Counts by processor of the points of the loop (under the mask when
 * masked is set, inside the guards): counted on the processors with zero
 * coordinates in the unbound grid dimensions, then copied along them. */
static void point_counts(Eng *e, const SpLoop *l, int masked, double *out, int line)
{
    FiSpace sp;
    memset(out, 0, (size_t)e->P * sizeof *out);
    IxMap map[MAX_RANK];
    int have_map = 0;
    Grid *g = arr_grid(e, l->arr);
    PcCache *pc = NULL;
    if (!l->nguard && g) {
        if (!e->pcc)
            e->pcc = xcalloc(PC_KEEP, sizeof *e->pcc);
        for (int i = 0; i < PC_KEEP; i++) {
            PcCache *c = &e->pcc[i];
            if (!c->l || c->masked != masked || c->g != g || c->l->nidx != l->nidx ||
                c->l->primary != l->primary)
                continue;
            int k = 0;
            while (k < l->nidx && index_gdim(&c->l->idx[k]) == index_gdim(&l->idx[k]))
                k++;
            if (k < l->nidx || !fi_space_share(e->fi, c->l, l))
                continue;
            /* fi holds l's space now, as fi_space would have made it */
            index_maps(e, l, map);
            have_map = 1;
            if (same_maps(l, map, c->map)) {
                memcpy(out, c->out, (size_t)e->P * sizeof *out);
                c->l = l;
                return;
            }
            break;
        }
    }
    if (!fi_space(e->fi, l, &sp)) {
        fi_missing_space(e->fi, l, line);
        e->failed = 1;
        return;
    }
    if (!g) {
        long n = 0;
        for (long pt = 0; pt < sp.n; pt++)
            n += !masked || !sp.mask || sp.mask[pt];
        for (int p = 0; p < e->P; p++)
            out[p] = (double)n;
        return;
    }
    int bound[MAX_RANK] = {0};
    for (int k = 0; k < l->nidx; k++)
        if (index_gdim(&l->idx[k]) >= 0)
            bound[index_gdim(&l->idx[k])] = 1;
    unsigned char *keep = NULL;
    int gcoord_all = 0;
    long long *gsub[MAX_RANK] = {0};
    if (l->nguard) {
        /* guards: the left-hand element must be held here */
        FiRefs rf;
        keep = xcalloc((size_t)sp.n, 1);
        if (fi_refs(e->fi, l, l->lhs, l->ctx_iter, &rf)) {
            for (int d = 0; d < rf.rank; d++) {
                gsub[d] = xmalloc((size_t)sp.n * sizeof **gsub);
                for (long i = 0; i < rf.n; i++)
                    gsub[d][rf.point[i]] = rf.sub[d][i];
            }
            for (long i = 0; i < rf.n; i++)
                keep[rf.point[i]] = 1;
            gcoord_all = 1;
        }
        const SpRef *r = l->lhs->ir;
        for (int k = 0; k < l->nguard; k++) {
            int t = r->arr->tdim[l->guard[k].dim];
            if (t >= 0 && r->arr->tmpl->gdim[t] >= 0)
                bound[r->arr->tmpl->gdim[t]] = 1;
        }
    }
    if (!have_map)
        index_maps(e, l, map);
    if (!keep) {
        count_points(e, l, g, map, &sp, masked, out);
    } else {
        for (long pt = 0; pt < sp.n; pt++) {
            if (masked && sp.mask && !sp.mask[pt])
                continue;
            if (keep && !keep[pt])
                continue;
            int coord[MAX_RANK];
            point_coords(l, map, g, &sp, pt, coord);
            if (gcoord_all) {
                const SpRef *r = l->lhs->ir;
                Tmpl *m = tmpl_of(e, r->arr->tmpl);
                for (int k = 0; k < l->nguard; k++) {
                    int d = l->guard[k].dim, t = r->arr->tdim[d];
                    if (t >= 0 && r->arr->tmpl->gdim[t] >= 0)
                        coord[r->arr->tmpl->gdim[t]] =
                            hpfmap_owner(&m->d[t], cell_of(e, r->arr, d, gsub[d][pt]));
                }
            }
            out[proc_of(e, g->rank, g->shape, coord)] += 1;
        }
    }
    for (int d = 0; d < MAX_RANK; d++)
        free(gsub[d]);
    free(keep);
    spread_counts(e, l, g, bound, out);
    if (!l->nguard && !e->failed) {
        /* kept for a loop of the same space and mapping */
        if (!pc) {
            pc = &e->pcc[e->npcc++ % PC_KEEP];
            if (!pc->out)
                pc->out = xmalloc((size_t)e->P * sizeof *pc->out);
        }
        pc->l = l;
        pc->masked = masked;
        pc->g = g;
        memcpy(pc->map, map, sizeof pc->map);
        memcpy(pc->out, out, (size_t)e->P * sizeof *out);
    }
}

/* Fills e->lvl, e->n_all and e->n_true for the loop. */
static void loop_counts(Eng *e, const SpLoop *l, int line)
{
    Grid *g = arr_grid(e, l->arr);
    int coord[MAX_RANK] = {0};
    for (int k = 0; k < l->nidx; k++) {
        int nc;
        const double *c = index_counts(e, &l->idx[k], line, &nc);
        int gd = index_gdim(&l->idx[k]);
        /* with classes: the trips must not change inside an interval */
        for (int q = 1; e->ec && gd >= 0 && q < nc; q++)
            if (c[q] != c[q - 1] && e->of[gd][q] == e->of[gd][q - 1])
                cut_at(e, gd, q);
        for (int p = 0; p < e->P; p++) {
            if (gd >= 0 && g) {
                int cg = coords_of(g, p)[gd];
                e->lvl[k][p] = cg < nc ? c[cg] : 0;
            } else
                e->lvl[k][p] = c[0];
        }
    }
    for (int p = 0; p < e->P; p++) {
        double n = 1;
        for (int k = 0; k < l->nidx; k++)
            n *= e->lvl[k][p];
        e->n_all[p] = n;
    }
    if (l->primary && g) {
        int bound[MAX_RANK] = {0};
        for (int k = 0; k < l->nidx; k++)
            if (index_gdim(&l->idx[k]) >= 0)
                bound[index_gdim(&l->idx[k])] = 1;
        for (int p = 0; p < e->P; p++) {
            memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
            for (int d = 0; d < g->rank; d++)
                if (!bound[d] && coord[d]) {
                    e->n_all[p] = 0;
                    for (int k = 0; k < l->nidx; k++)
                        e->lvl[k][p] = 0;
                }
        }
    }
    if (l->nguard)
        point_counts(e, l, 0, e->n_all, line);
    if (l->mask)
        point_counts(e, l, 1, e->n_true, line);
    else
        memcpy(e->n_true, e->n_all, (size_t)e->P * sizeof *e->n_true);
}

/* ---- Seq costs and the cache model ------------------------------------- */

static CacheVar *cache_var(Eng *e, const char *name)
{
    unsigned h = 2166136261u;
    for (const char *c = name; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    for (int i = 0; i < e->ncvar; i++)
        if (e->cvar[i].hash == h && strcmp(e->cvar[i].name, name) == 0)
            return &e->cvar[i];
    if (e->ncvar == e->capcvar) {
        e->capcvar = e->capcvar ? 2 * e->capcvar : 32;
        e->cvar = xrealloc(e->cvar, (size_t)e->capcvar * sizeof *e->cvar);
    }
    e->cvar[e->ncvar] = (CacheVar){name, h, -INFINITY, 0, 0};
    return &e->cvar[e->ncvar++];
}

/* Bytes of a variable held by the busiest processor. */
static double footprint(Eng *e, const AauAccess *x)
{
    if (x->arr)
        return local_elems(e, x->arr, -1, -1) * x->elsize;
    if (x->sym && x->sym->rank) {
        double n = 1;
        for (int d = 0; d < x->sym->rank; d++)
            n *= x->sym->bounds_known[d] ? (double)(x->sym->hi[d] - x->sym->lo[d] + 1) : 1e6;
        return n * x->elsize;
    }
    return 1e18;                  /* a temporary buffer: streamed */
}

static int invariant(const Node *n);

/* Whether the footprint of x cannot change during the run. */
static int footprint_fixed(const AauAccess *x)
{
    if (x->arr)
        for (int d = 0; d < x->arr->rank; d++) {
            int t = x->arr->tmpl ? x->arr->tdim[d] : -1;
            if (!(t >= 0 && x->arr->tmpl->gdim[t] >= 0) &&
                (!invariant(x->arr->lo[d]) || !invariant(x->arr->hi[d])))
                return 0;
        }
    return 1;
}

/* The footprint of access i: evaluated the first time; when fixed, kept,
 * and later only the steps of its evaluation are charged. */
static double memo_footprint(Eng *e, SeqMemo *mm, int i, const AauAccess *x)
{
    if (mm->fpk[i] > 0 && (!mm->fp_steps[i] || fi_spend(e->fi, mm->fp_steps[i])))
        return mm->fp[i];
    long long steps0 = fi_steps(e->fi);
    double fp = footprint(e, x);
    if (!mm->fpk[i] && !e->failed) {
        mm->fpk[i] = footprint_fixed(x) ? 1 : -1;
        mm->fp[i] = fp;
        mm->fp_steps[i] = fi_steps(e->fi) - steps0;
    }
    return fp;
}

/* Whether a (a FORALL's body or innermost level, analysis/aag.c
 * vectorizable()) runs vectorized on this machine: the SAG has a vector
 * unit, and the trip count is a multiple of the elements of a vector. */
static int vectorized(const Eng *e, const Aau *a)
{
    if (!(e->pr.vec_width > 0) || a->vec_el <= 0)
        return 0;
    long long lanes = (long long)(e->pr.vec_width / a->vec_el);
    return lanes >= 2 && a->vec_trips % lanes == 0;
}

static SeqMemo *seq_memo(Eng *e, const Aau *a)
{
    if (!e->memo)
        e->memo = xcalloc((size_t)e->g->naau, sizeof *e->memo);
    SeqMemo *m = &e->memo[a->id - 1];
    if (m->ready)
        return m;
    const AauOps *o = &a->ops;
    int vec = vectorized(e, a);
    double t = 0;
    for (int k = 0; k < OPC_N; k++)
        t += o->op[k] * (vec ? e->pr.vec_op[k] : e->pr.op[k]);
    for (int i = 0; i < o->nlib; i++)
        t += o->lib[i].n * sag_seconds(e->node, o->lib[i].param, e->pr.lib_default) *
             (vec ? e->pr.vec_ratio : 1);
    m->fixed = t;
    m->overlap = a->loop ? (vec ? e->pr.vec_iter : e->pr.loop_iter) : 0;
    m->chain = a->chain ? (a->chain == HPFRT_MAX || a->chain == HPFRT_MIN ? e->pr.red_max
                                                                          : e->pr.red_sum) -
                              e->pr.loop_iter
                        : 0;
    m->cv = xmalloc((size_t)(o->nacc ? o->nacc : 1) * sizeof *m->cv);
    m->fp = xmalloc((size_t)(o->nacc ? o->nacc : 1) * sizeof *m->fp);
    m->fpk = xcalloc((size_t)(o->nacc ? o->nacc : 1), sizeof *m->fpk);
    m->fp_steps = xcalloc((size_t)(o->nacc ? o->nacc : 1), sizeof *m->fp_steps);
    m->cost = xmalloc((size_t)(o->nacc ? o->nacc : 1) * 4 * sizeof *m->cost);
    const Params *pr = &e->pr;
    /* a hit: in a vectorized loop, a share of a vector's load or store */
    double fh = vec ? pr->vec_fetch : pr->fetch_hit, sh = vec ? pr->vec_store : pr->store_hit;
    for (int i = 0; i < o->nacc; i++) {
        const AauAccess *x = &o->acc[i];
        for (int f = 0; f < 2; f++) {
            double miss = 0;
            if (f)
                miss = pr->dc_block > 0 ? fmin(1.0, (double)llabs(x->stride) / pr->dc_block) : 1;
            m->cost[4 * i + 2 * f] = x->loads * (miss * pr->fetch_miss + (1 - miss) * fh);
            m->cost[4 * i + 2 * f + 1] = x->stores * (miss * pr->store_miss + (1 - miss) * sh);
        }
        m->cv[i] = -1;
        m->fp[i] = NAN;
        if (x->scalar || x->stride == 0)
            continue;
        m->cv[i] = (int)(cache_var(e, x->var) - e->cvar);
    }
    m->ready = 1;
    return m;
}

/* With the memory hierarchy of the SAG: the time to fetch a line of data
 * of which `need` bytes must be held (the data and what was touched since
 * its last use), from the first level past the first that holds it, or
 * from memory; -1 when the SAG does not say. */
/* The processors that run at once on one node and share its caches and
 * memory: the node's processors, or fewer when the run has fewer. */
static double node_sharing(const Eng *e)
{
    double node = sag_unit_count(e->node) > 0 ? sag_unit_count(e->node) : 1;
    return fmin(e->NP, node);
}

static double level_fetch(const Eng *e, double need)
{
    const Params *pr = &e->pr;
    double sharing = node_sharing(e);
    for (int l = 1; l < pr->nlev; l++)
        if (need <= pr->lev_size[l] / fmin(pr->lev_shared[l], sharing))
            return pr->lev_fetch[l];
    return pr->fetch_miss;
}

/* Memory time of one execution of the accesses, by the paper's heuristic:
 * a program-level count of the bytes touched, and per variable the count
 * at its last access. A variable whose data, plus everything touched since
 * its last access, fits in the effective cache is found there; otherwise
 * each access misses as often as its stride crosses cache lines. */
static double memory_time(Eng *e, const AauOps *o, SeqMemo *mm)
{
    const Params *pr = &e->pr;
    double t = 0, touched = 0;
    for (int i = 0; i < o->nacc; i++) {
        const AauAccess *x = &o->acc[i];
        if (x->scalar)
            continue;
        int missed = 0;
        double need = 0;
        if (x->stride != 0) {
            CacheVar *cv = &e->cvar[mm->cv[i]];
            double fp = memo_footprint(e, mm, i, x);
            if (!cv->touched && (x->arr || (x->sym && x->sym->rank))) {
                /* the program's own arrays: their pages are mapped at the
                   first store (temporaries reuse the heap) */
                cv->touched = 1;
                if (pr->page_first > 0 && fp < 1e17)
                    e->first_touch += ceil(fp / pr->page) * pr->page_first;
            }
            need = e->volume - cv->last + fp;
            int fits = pr->dc_eff > 0 && need <= pr->dc_eff;
            missed = !fits;
            cv->last = e->volume;
            cv->at = ++e->naccess;
            touched += fp < 1e17 ? fp : 0;
            /* a temporary buffer holds an element of each iteration of its
               loop: its share of the working set (the cache heuristic above
               keeps the paper's rule: streamed) */
            e->ws += fp < 1e17 ? fp : e->n_max * x->elsize;
        }
        if (missed && pr->nlev > 1 && llabs(x->stride) <= pr->prefetch) {
            /* a stream the prefetchers follow: its lines arrive ahead of
               the accesses, at the bandwidth of traffic_time() */
            t += mm->cost[4 * i] + mm->cost[4 * i + 1];
            continue;
        }
        if (missed && e->pr.nlev > 1) {
            /* with the hierarchy: a miss of the first level is served by
               the level the data, and what was touched since, fit in */
            double lat = level_fetch(e, need);
            if (lat >= 0) {
                double miss = pr->dc_block > 0 ? fmin(1.0, (double)llabs(x->stride) / pr->dc_block) : 1;
                t += x->loads * (miss * lat + (1 - miss) * pr->fetch_hit);
                t += x->stores * (miss * lat + (1 - miss) * pr->store_hit);
                continue;
            }
        }
        t += mm->cost[4 * i + 2 * missed];
        t += mm->cost[4 * i + 2 * missed + 1];
    }
    e->volume += touched;
    return t;
}

/* The bandwidth bound of one execution (doc/validation.md, "The model on
 * a modern processor"): the bytes its accesses stream, read and written,
 * over the bandwidth of the level its working set fits in. A processor
 * whose cache level is shared by k others, all running, has 1/k of it;
 * main memory gives each of the P processors of a node at most a P-th of
 * the node's bandwidth. Elements used again at each iteration (stride 0)
 * stay in registers or the first level and are not counted. */
static double traffic_time(Eng *e, const AauOps *o, double ws)
{
    const Params *pr = &e->pr;
    double rd = 0, wr = 0;
    for (int i = 0; i < o->nacc; i++) {
        const AauAccess *x = &o->acc[i];
        if (x->scalar || x->stride == 0)
            continue;
        /* a variable's references of one execution (a stencil's
           neighbours) share its lines: its data streams once, a line per
           element at most */
        double b = fmin((double)llabs(x->stride), pr->dc_block > 0 ? pr->dc_block : 64);
        rd += x->loads > 0 ? b : 0;
        wr += x->stores > 0 ? b : 0;
    }
    if (rd + wr <= 0)
        return 0;
    double sharing = node_sharing(e);
    for (int l = 0; l < pr->nlev; l++)
        if (ws <= pr->lev_size[l] / fmin(pr->lev_shared[l], sharing))
            return rd / pr->lev_rd[l] + wr / pr->lev_wr[l];
    double share = pr->mem_node > 0 ? pr->mem_node / sharing : INFINITY;
    return rd / fmin(pr->mem_rd, share) + wr / fmin(pr->mem_wr, share);
}

static double ops_time(Eng *e, const Aau *a)
{
    SeqMemo *m = seq_memo(e, a);
    /* calls of the program's functions: their overhead and bodies are the
       Call AAUs that follow */
    e->ws = 0;
    e->first_touch = 0;
    double t = m->fixed + memory_time(e, &a->ops, m);
    if (e->pr.nlev) {
        /* the processor computes while the data streams: the slower of the
           two bounds the execution; in a FORALL the loop's own work of the
           iteration (charged by its level) streams along too */
        double tb = traffic_time(e, &a->ops, e->ws) - m->overlap;
        if (tb > t)
            t = tb;
    }
    /* a reduction's chain: an element waits for the one before, the
       latency of the combining operation (red.*: the loop's own work
       included, which its level charges) */
    if (m->chain > t)
        t = m->chain;
    return t;
}

/* ---- the walk ------------------------------------------------------------ */

static void walk_list(Eng *e, const PtrVec *l, const double *mult);
static void walk(Eng *e, Aau *a, const double *mult);

static int stopping(const Eng *e)
{
    return e->ctl != 0 || fi_stopped(e->fi);
}

/* Runs the functional effect of a's statement(s) when they define critical
 * variables (only outside closed forms: a closed-form body defines none). */
static void effect(Eng *e, Aau *a)
{
    if (!a->critical)
        return;
    if (a->nparts) {
        for (int i = 0; i < a->nparts; i++)
            fi_exec(e->fi, a->parts[i].stmt);
    } else if (a->tail && a->stmt)
        fi_exec(e->fi, a->stmt);
}

/* An ALLOCATE lays out the templates of the mapped ALLOCATABLE arrays it
 * allocates anew: their bounds are the ALLOCATE's (the old layout stays
 * allocated, unmatched, so that nothing cached takes its address). */
static void relayout(Eng *e, const SpStmt *s)
{
    for (int i = 0; i < s->u.alloc.items.n; i++) {
        const Node *ref = s->u.alloc.items.v[i];
        const SpRef *r = ref->ir;
        if (!r || !r->arr || !r->arr->at_alloc || !r->arr->tmpl->at_alloc)
            continue;
        int own = r->arr->tmpl->array == r->arr->sym, laid = -1;
        for (int k = 0; k < e->laid.n && laid < 0; k++)
            if (e->laid.v[k] == r->arr->tmpl)
                laid = k;
        if (s->kind == SP_DEALLOC) {
            if (own && laid >= 0)
                e->laid.v[laid] = e->laid.v[--e->laid.n];
            continue;
        }
        if (!own) {
            /* laid out by the array it is aligned with, which must be allocated */
            if (laid < 0) {
                fi_error_once(e->fi, s, s->loc, "'%s' is allocated before '%s', which it is "
                              "aligned with (the SPMD program stops here)", r->arr->sym->name,
                              r->arr->tmpl->name);
                e->failed = 1;
            }
            continue;
        }
        if (laid < 0)
            vec_push(NULL, &e->laid, (void *)r->arr->tmpl);
        for (int k = 0; k < e->tmpls.n; k++) {
            Tmpl *m = e->tmpls.v[k];
            if (m->t == r->arr->tmpl)
                m->t = NULL;
        }
        /* laid out now, with the bounds this unit gave: a procedure the
           array is passed to uses the layout without them */
        tmpl_of(e, r->arr->tmpl);
    }
}

static void seq(Eng *e, Aau *a, const double *mult)
{
    if (a->stmt && (a->stmt->kind == SP_ALLOC || a->stmt->kind == SP_DEALLOC))
        relayout(e, a->stmt);
    if (a->ctl) {
        /* applied, at no cost of its own: the branch is its IF's */
        begin(e);
        end(e, a, sum_of(e, mult));
        e->ctl = a->ctl;
        e->ctl_target = a->ctl_target;
        return;
    }
    double t = ops_time(e, a), ft = e->first_touch;
    if (a->on != ON_IO && !(a->on == ON_OWNER && a->elem && a->elem->ir)) {
        if (ft > 0) {
            /* the first store to the pages of arrays: once, not per
               iteration (mem.page.first) */
            begin(e);
            charge_all(e, a, M_COMP, t, mult);
            charge_all(e, a, M_COMP, ft, NULL);
            end(e, a, sum_of(e, mult));
        } else {
            charge_once(e, a, M_COMP, t, mult);
        }
        if (!mult)
            effect(e, a);
        return;
    }
    begin(e);
    if (a->on == ON_IO) {
        double m = mult ? mult[0] : 1;
        charge(e, a, M_COMP, 0, t * m);
        if (a->io) {
            /* a formatted statement's own cost, and the Fortran run time's
               I/O set-up at the first of the process (io.format*,
               hpfcalibrate; 0 when the SAG does not give them) */
            charge(e, a, M_COMM, 0,
                   (e->pr.io_start + a->io_bytes * e->pr.io_pb + e->pr.io_fmt) * m +
                   (e->io_done ? 0 : e->pr.io_fmt_first));
            e->io_done = 1;
        }
        end(e, a, m);
    } else if (a->on == ON_OWNER && a->elem && a->elem->ir) {
        const SpRef *r = a->elem->ir;
        long long sub[MAX_RANK];
        int ok = 1;
        for (int d = 0; d < r->arr->rank; d++)
            if (!fi_eval_int(e->fi, r->sub[d], &sub[d])) {
                fi_missing(e->fi, r->sub[d], a->line, "the owner of an element");
                e->failed = 1;
                ok = 0;
            }
        if (ok && r->arr->tmpl) {
            int own[MAX_RANK], coord[MAX_RANK];
            Grid *g = arr_grid(e, r->arr);
            owner_coords(e, r->arr, sub, own);
            for (int d = 0; e->ec && d < g->rank; d++)
                if (own[d] >= 0) {
                    cut_at(e, d, own[d]);
                    cut_at(e, d, (long)own[d] + 1);
                }
            double n = 0;
            for (int p = 0; p < e->P; p++) {
                memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
                int mine = 1;
                for (int d = 0; d < g->rank; d++)
                    if (own[d] >= 0 && own[d] != coord[d])
                        mine = 0;
                if (mine) {
                    charge(e, a, M_COMP, p, t * (mult ? mult[p] : 1));
                    n += (mult ? mult[p] : 1) * weight(e, p);
                }
            }
            end(e, a, n);
        } else {
            charge_all(e, a, M_COMP, t, mult);
            end(e, a, sum_of(e, mult));
        }
    }
    if (!mult)
        effect(e, a);
}

static double *vec_new(Eng *e)
{
    return buf_get(e);
}

/* The FORALL nest from its outermost index AAU: the closed form of each
 * level (setup per entry, per-iteration overhead per trip) with the
 * processor's own trip counts, the mask as a weighted conditional. */
/* The entries and trips of a FORALL level on every processor (outer: the
 * entries, NULL: one each), and its own execution charged: begin(), two
 * charges per processor, end(e, a, sum_of(e, entries)), the execution's
 * times in registers as in charge_once(). */
/* A FORALL level's overhead per entry: the loop's set-up and its
 * segment's call (hpfrt_seg), and at the statement's outermost level the
 * run-time library's own calls (rt.*) once an execution: the region's
 * timers around it, the iteration set of each distributed dimension
 * (hpfrt_loop, before the nest). */
static double level_setup(const Eng *e, const Aau *a)
{
    double t = e->pr.loop_setup + e->pr.call_ovhd;
    const SpLoop *l = a->loop;
    if (a->iter == ITER_FORALL && l && a->level == l->nidx - 1) {
        t += e->pr.rt_region;
        for (int k = 0; k < l->nidx; k++)
            t += l->idx[k].dist ? e->pr.rt_loop : 0;
    }
    return t;
}

/* A FORALL level's overhead per iteration: a vectorized loop's element
 * (vec.iter), else loop.iter. */
static double level_iter(const Eng *e, const Aau *a)
{
    return vectorized(e, a) ? e->pr.vec_iter : e->pr.loop_iter;
}

static inline __attribute__((always_inline)) void
level_charge_with(Eng *e, Aau *a, const double *outer, const double *cnt, double *entries,
                  double *trips)
{
    const double *n = a->iter == ITER_COPY ? e->n_all : e->lvl[a->level];
    double so = a->m_sum[M_OVHD], mx = 0, mn = INFINITY, execs = 0;
    double *clock = e->clock, *acc = e->acc[M_OVHD];
    double setup = level_setup(e, a), iter = level_iter(e, a);
    for (int p = 0; p < e->P; p++) {
        double m = outer ? outer[p] : 1;
        entries[p] = m;
        trips[p] = m * n[p];
        double ex = 0;
        add_charge(clock, acc, &ex, &so, cnt, p, entries[p] * setup);
        add_charge(clock, acc, &ex, &so, cnt, p, trips[p] * iter);
        if (ex > mx)
            mx = ex;
        if (ex < mn)
            mn = ex;
        execs += entries[p] * (cnt ? cnt[p] : 1);
    }
    a->m_sum[M_OVHD] = so;
    a->m_max += mx;
    a->m_min += mn == INFINITY ? 0 : mn;
    a->execs += execs;
    e->visits++;
}

static void forall_level(Eng *e, Aau *a, const double *outer)
{
    const SpLoop *l = a->loop;
    double *entries = buf_raw(e), *trips = buf_raw(e);
    if (e->tr) {
        /* traced: the same charges one by one, each recorded by charge() */
        const double *n = a->iter == ITER_COPY ? e->n_all : e->lvl[a->level];
        for (int p = 0; p < e->P; p++) {
            entries[p] = outer ? outer[p] : 1;
            trips[p] = entries[p] * n[p];
        }
        begin(e);
        double setup = level_setup(e, a), iter = level_iter(e, a);
        for (int p = 0; p < e->P; p++) {
            charge(e, a, M_OVHD, p, entries[p] * setup);
            charge(e, a, M_OVHD, p, trips[p] * iter);
        }
        end(e, a, sum_of(e, entries));
    } else if (e->cnt)
        level_charge_with(e, a, outer, e->cnt, entries, trips);
    else if (outer)
        level_charge_with(e, a, outer, NULL, entries, trips);
    else
        level_charge_with(e, a, NULL, NULL, entries, trips);
    /* the innermost level's body runs once per point: the product of the
       levels, or the guarded count */
    int innermost = a->iter == ITER_COPY || a->level == 0;
    const double *nm = e->nest_mult;
    if (innermost && a->iter != ITER_COPY && l->nguard)
        for (int p = 0; p < e->P; p++)
            trips[p] = (nm ? nm[p] : 1) * e->n_all[p];
    for (int i = 0; i < a->kids.n && !e->failed; i++) {
        Aau *k = a->kids.v[i];
        if (k->cls == AAU_CONDTD && k->mask) {
            /* the mask: tested at every point, the body where it holds */
            double *tr = vec_new(e);
            begin(e);
            if (e->tr)
                for (int p = 0; p < e->P; p++) {
                    charge(e, k, M_OVHD, p, trips[p] * e->pr.cond_test);
                    tr[p] = (nm ? nm[p] : 1) * e->n_true[p];
                    charge(e, k, M_OVHD, p, tr[p] * e->pr.cond_taken);
                }
            else {
                double ko = k->m_sum[M_OVHD];
                for (int p = 0; p < e->P; p++) {
                    charge_to(e, &ko, M_OVHD, p, trips[p] * e->pr.cond_test);
                    tr[p] = (nm ? nm[p] : 1) * e->n_true[p];
                    charge_to(e, &ko, M_OVHD, p, tr[p] * e->pr.cond_taken);
                }
                k->m_sum[M_OVHD] = ko;
            }
            end(e, k, sum_of(e, trips));
            /* the mask's own computation, at every point */
            for (int b = 0; b < k->nbranch; b++)
                if (k->bpre)
                    walk_list(e, &k->bpre[b], trips);
            for (int b = 0; b < k->nbranch; b++)
                walk_list(e, &k->bbody[b], tr);
            buf_put(e, tr);
        } else if (k->iter == ITER_FORALL && k->cls != AAU_SEQ)
            forall_level(e, k, trips);
        else
            walk(e, k, trips);
    }
    buf_put(e, entries);
    buf_put(e, trips);
}

/* Whether loop_counts() of l gives the same counts at every execution:
 * no mask, no guards, every index's trips invariant (known once its
 * counts were computed). */
static int counts_invariant(Eng *e, const SpLoop *l)
{
    if (l->mask || l->nguard)
        return 0;
    for (int k = 0; k < l->nidx; k++) {
        const IxCache *c = ix_cached(e, &l->idx[k]);
        if (c->n < 0 || c->inv <= 0)
            return 0;
    }
    return 1;
}

static void forall_nest(Eng *e, Aau *a, const double *mult)
{
    const SpLoop *saved = e->loop;
    const double *sv_mult = e->nest_mult;
    double sv_max = e->n_max;
    double *sv_all = e->n_all, *sv_true = e->n_true, *sv_lvl[MAX_RANK];
    memcpy(sv_lvl, e->lvl, sizeof sv_lvl);
    e->loop = a->loop;
    e->nest_mult = mult;
    int nidx = a->loop->nidx;
    if (!e->lcc)
        e->lcc = xcalloc((size_t)e->g->naau, sizeof *e->lcc);
    LcCache *lc = &e->lcc[a->id - 1];
    if (lc->v && (!lc->steps || fi_spend(e->fi, lc->steps))) {
        /* the counts of the last execution, which cannot have changed: the
           steps their evaluation took charged */
        e->n_all = lc->v;
        e->n_true = lc->v + e->P;
        for (int k = 0; k < nidx; k++)
            e->lvl[k] = lc->v + (size_t)(2 + k) * (size_t)e->P;
        e->n_max = lc->n_max;
        forall_level(e, a, mult);
    } else {
        /* filled whole by loop_counts */
        e->n_all = buf_raw(e);
        e->n_true = buf_raw(e);
        for (int k = 0; k < nidx; k++)
            e->lvl[k] = buf_raw(e);
        long long steps0 = fi_steps(e->fi);
        loop_counts(e, a->loop, a->line);
        if (!lc->v && !e->failed && counts_invariant(e, a->loop) &&
            e->lcc_doubles + (size_t)(2 + nidx) * (size_t)e->P <= LC_MAX_DOUBLES) {
            lc->v = xmalloc((size_t)(2 + nidx) * (size_t)e->P * sizeof *lc->v);
            size_t b = (size_t)e->P * sizeof *lc->v;
            memcpy(lc->v, e->n_all, b);
            memcpy(lc->v + e->P, e->n_true, b);
            for (int k = 0; k < nidx; k++)
                memcpy(lc->v + (size_t)(2 + k) * (size_t)e->P, e->lvl[k], b);
            lc->steps = fi_steps(e->fi) - steps0;
            e->lcc_doubles += (size_t)(2 + nidx) * (size_t)e->P;
        }
        e->n_max = 0;
        for (int p = 0; p < e->P; p++)
            if (e->n_all[p] > e->n_max)
                e->n_max = e->n_all[p];
        if (lc->v)
            lc->n_max = e->n_max;
        if (!e->failed)
            forall_level(e, a, mult);
        buf_put(e, e->n_all);
        buf_put(e, e->n_true);
        for (int k = 0; k < nidx; k++)
            buf_put(e, e->lvl[k]);
    }
    e->loop = saved;
    e->nest_mult = sv_mult;
    e->n_max = sv_max;
    e->n_all = sv_all;
    e->n_true = sv_true;
    memcpy(e->lvl, sv_lvl, sizeof sv_lvl);
}

static int mentions_index(const Node *n, const SpLoop *l);
static int affine_in(Eng *e, const Node *n, const SpLoop *l, const Symbol **var,
                     long long *alpha, long long *beta);
static int call2(const Node *n, const char *id, const Node **x, const Node **y);

/* The trips of an inline reduction whose length varies with an index of
 * its FORALL (sum(a(1:i, 1)): max(0, alpha i + beta)), by processor: summed
 * over the points each runs, times the nest's multiplier, in m. 0 when the
 * length is not of that form, or the loop has a mask or guards. */
static int red_trips_varying(Eng *e, const Aau *a, double *m)
{
    const SpLoop *l = e->loop;
    const Node *n = a->red->n, *z, *x;
    if (!l || l->mask || l->nguard || !mentions_index(n, l))
        return 0;
    int clamp = call2(n, "max", &z, &x);
    long long a0, b0, alpha, beta;
    const Symbol *none = NULL, *iv = NULL;
    if (clamp && (!affine_in(e, z, l, &none, &a0, &b0) || a0 || b0 != 0))
        return 0;
    if (!affine_in(e, clamp ? x : n, l, &iv, &alpha, &beta) || !iv)
        return 0;
    int ki = -1;
    for (int k = 0; k < l->nidx; k++)
        if (l->idx[k].var == iv)
            ki = k;
    FiSpace sp;
    if (ki < 0 || !fi_space(e->fi, l, &sp))
        return 0;
    memset(m, 0, (size_t)e->P * sizeof *m);
    Grid *g = arr_grid(e, l->arr);
    IxMap map[MAX_RANK];
    int bound[MAX_RANK] = {0};
    if (g) {
        index_maps(e, l, map);
        for (int k = 0; k < l->nidx; k++)
            if (map[k].gd >= 0)
                bound[map[k].gd] = 1;
    }
    for (long pt = 0; pt < sp.n; pt++) {
        long long v = alpha * sp.idx[ki][pt] + beta;
        if (v <= 0)
            continue;
        int coord[MAX_RANK];
        if (g)
            point_coords(l, map, g, &sp, pt, coord);
        m[g ? proc_of(e, g->rank, g->shape, coord) : 0] += (double)v;
    }
    if (g)
        spread_counts(e, l, g, bound, m);
    else
        for (int p = 1; p < e->P; p++)
            m[p] = m[0];
    const double *nm = e->nest_mult;
    for (int p = 0; nm && p < e->P; p++)
        m[p] *= nm[p];
    return 1;
}

/* An inline reduction inside a FORALL body: its trips per execution. */
static void red_loop(Eng *e, Aau *a, const double *mult)
{
    double *m = vec_new(e);
    if (!red_trips_varying(e, a, m)) {
        long long n = eval_int(e, a->red->n, 0, a->line, "reduction length");
        for (int p = 0; p < e->P; p++)
            m[p] = (mult ? mult[p] : 1) * (double)(n > 0 ? n : 0);
    }
    begin(e);
    charge_all(e, a, M_OVHD, e->pr.loop_setup, mult);
    for (int p = 0; p < e->P; p++)
        charge(e, a, M_OVHD, p, m[p] * e->pr.loop_iter);
    end(e, a, sum_of(e, mult));
    for (int i = 0; i < a->kids.n; i++) {
        Aau *k = a->kids.v[i];
        if (k->cls == AAU_CONDTD || k->cls == AAU_CONDTSYNC) {
            /* the reduction's mask: taken as always true for the cost */
            begin(e);
            charge_all(e, k, M_OVHD, e->pr.cond_test + e->pr.cond_taken, m);
            end(e, k, sum_of(e, m));
            for (int b = 0; b < k->nbranch; b++)
                walk_list(e, &k->bbody[b], m);
        } else
            walk(e, k, m);
    }
    buf_put(e, m);
}

/* Every AAU below a (its kids, branches and pre lists), for snapshots, and
 * the bodies of the procedures its Calls call (charged as the loop runs,
 * so extrapolated with it), each callee once (in seen). */
static void subtree_in(const Eng *e, Aau *a, PtrVec *out, PtrVec *seen)
{
    vec_push(NULL, out, a);
    for (int i = 0; i < a->kids.n; i++)
        subtree_in(e, a->kids.v[i], out, seen);
    for (int b = 0; b < a->nbranch; b++) {
        if (a->bpre)
            for (int i = 0; i < a->bpre[b].n; i++)
                subtree_in(e, a->bpre[b].v[i], out, seen);
        for (int i = 0; i < a->bbody[b].n; i++)
            subtree_in(e, a->bbody[b].v[i], out, seen);
    }
    if (a->cls != AAU_CALL || !a->callee)
        return;
    for (int i = 0; i < seen->n; i++)
        if (seen->v[i] == a->callee)
            return;
    vec_push(NULL, seen, (void *)a->callee);
    int listed = !a->home || a->home == a;
    for (int i = 0; i < out->n && !listed; i++)
        listed = out->v[i] == a->home;
    if (!listed)
        vec_push(NULL, out, a->home);     /* its calls counted */
    const PtrVec *body = aag_unit_body(e->g, a->callee);
    for (int i = 0; body && i < body->n; i++)
        subtree_in(e, body->v[i], out, seen);
}

static void subtree(const Eng *e, Aau *a, PtrVec *out)
{
    PtrVec seen = {0};
    subtree_in(e, a, out, &seen);
    free(seen.v);
}

static int has_ctl(const Aau *a)
{
    if (a->ctl || a->cls == AAU_CALL)
        return 1;
    for (int i = 0; i < a->kids.n; i++)
        if (has_ctl(a->kids.v[i]))
            return 1;
    for (int b = 0; b < a->nbranch; b++)
        for (int i = 0; i < a->bbody[b].n; i++)
            if (has_ctl(a->bbody[b].v[i]))
                return 1;
    return 0;
}

typedef struct {
    double m[8];
} Snap;

static void snap_take(const PtrVec *sub, Snap *s)
{
    for (int i = 0; i < sub->n; i++) {
        const Aau *a = sub->v[i];
        memcpy(s[i].m, a->m_sum, sizeof a->m_sum);
        s[i].m[4] = a->m_max;
        s[i].m[5] = a->m_min;
        s[i].m[6] = a->execs;
        s[i].m[7] = a->calls;
    }
}

/* Handles the control transfer pending after one iteration: 1 to leave. */
static int loop_ctl(Eng *e)
{
    if (e->ctl == AST_CYCLE) {
        e->ctl = 0;
        return 0;
    }
    if (e->ctl == AST_EXIT) {
        e->ctl = 0;
        return 1;
    }
    return e->ctl != 0 || fi_stopped(e->fi);
}

static int same_vec(const double *a, const double *b, int n)
{
    for (int i = 0; i < n; i++)
        if (fabs(a[i] - b[i]) > 1e-12 * (fabs(a[i]) + fabs(b[i])) + 1e-18)
            return 0;
    return 1;
}

/* A DO loop: closed form for IterD, iteration by iteration with the steady
 * state extrapolated for IterSync, fully unrolled for IterND. */
static int fixed_owner(Eng *e, const CommEntry *c, const Symbol *only, int *own);

/* Whether expression n reads the variable var. */
static int reads_var(const Node *n, const Symbol *var)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_NAME:
        return n->u.name.sym == var;
    case AST_BINARY:
        return reads_var(n->u.binary.lhs, var) || reads_var(n->u.binary.rhs, var);
    case AST_UNARY: case AST_PAREN:
        return reads_var(n->u.unary.operand, var);
    case AST_KEYWORD_ARG:
        return reads_var(n->u.kwarg.value, var);
    case AST_REF:
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (reads_var(n->u.ref.args.v[i], var))
                return 1;
        return 0;
    default:
        return 0;
    }
}

static int reads_only(const Node *n, const Symbol *var);

/* What an iteration of a periodic loop (Aau.periodic) depends on: the
 * values of the expressions of its body that read its variable, each of
 * which reads nothing else (a branch condition, a bound), and the owners
 * of the elements its gathers fetch. */
typedef struct {
    PtrVec expr;                  /* const Node *: evaluated as integers */
    PtrVec gather;                /* const CommEntry *: their owners */
    int ok;                       /* 0: something else depends on the variable */
} Probes;

static void probe_expr(Probes *pr, const Node *n, const Symbol *var)
{
    if (!n || !reads_var(n, var))
        return;
    if (!reads_only(n, var))
        pr->ok = 0;
    else
        vec_push(NULL, &pr->expr, (void *)n);
}

static void probes_of(Probes *pr, const Aau *a, const Symbol *var)
{
    if (a->cls == AAU_CALL || a->while_cond) {
        pr->ok = 0;               /* what a procedure or a DO WHILE does with it */
        return;
    }
    if (a->cls == AAU_COMM && a->comm && a->comm->kind == CM_GATHER) {
        const CommEntry *c = a->comm;
        const SpRef *r = c->g ? c->g->r : NULL;
        int reads = 0;
        for (int d = 0; r && r->arr && d < r->arr->rank; d++)
            reads |= reads_var(r->sub[d], var);
        for (int t = 0; r && r->arr && r->arr->tmpl && t < r->arr->tmpl->rank; t++)
            reads |= reads_var(r->arr->fix[t], var);
        if (reads)
            vec_push(NULL, &pr->gather, (void *)c);
    } else if (a->cls == AAU_COMM || a->cls == AAU_SYNC || a->cls == AAU_SYNCSEQ) {
        if (a->comm && (reads_var(a->comm->elem, var)))
            pr->ok = 0;
    }
    if (a->on == ON_OWNER && a->elem && reads_var(a->elem, var))
        pr->ok = 0;
    if (a->stmt && a->head && a->stmt->kind == SP_DO && a != NULL) {
        probe_expr(pr, a->stmt->u.do_.lo, var);
        probe_expr(pr, a->stmt->u.do_.hi, var);
        probe_expr(pr, a->stmt->u.do_.st, var);
    }
    if (a->loop && a->iter == ITER_FORALL && a->level < a->loop->nidx) {
        const SpIndex *ix = &a->loop->idx[a->level];
        probe_expr(pr, ix->lo, var);
        probe_expr(pr, ix->hi, var);
        probe_expr(pr, ix->st, var);
        if (a->level == 0 && a->loop->mask && reads_var(a->loop->mask, var))
            pr->ok = 0;
    }
    if (a->red && reads_var(a->red->n, var))
        pr->ok = 0;
    for (int b = 0; b < a->nbranch; b++) {
        probe_expr(pr, a->bcond[b], var);
        for (int i = 0; a->bpre && i < a->bpre[b].n; i++)
            probes_of(pr, a->bpre[b].v[i], var);
        for (int i = 0; i < a->bbody[b].n; i++)
            probes_of(pr, a->bbody[b].v[i], var);
    }
    for (int i = 0; i < a->kids.n; i++)
        probes_of(pr, a->kids.v[i], var);
}

enum { PERIOD_MAX = 64, PERIOD_TRIPS = 1 << 20 };

/* A periodic loop's iterations, as its variable runs lo, lo + st, ... (n
 * trips): what each depends on (its signature, w values), computed for
 * every trip before the first (no element is evaluated), and the block
 * length L (1 .. PERIOD_MAX) by which its walk is extrapolated: the one
 * whose consecutive blocks differ the fewest times (CYCLIC owners: P, a
 * branch taken at one step: 1). NULL when the signature cannot be had. */
static long long *iter_signature(Eng *e, const Aau *a, const Symbol *var, long long lo,
                                 long long st, long long n, int *w, long long *L)
{
    Probes pr = {{0}, {0}, 1};
    for (int i = 0; i < a->kids.n; i++)
        probes_of(&pr, a->kids.v[i], var);
    long long *sig = NULL;
    *w = pr.expr.n + MAX_RANK * pr.gather.n;
    if (pr.ok && *w && n >= 3 && n <= PERIOD_TRIPS) {
        sig = xmalloc((size_t)n * (size_t)*w * sizeof *sig);
        for (long long t = 0; t < n && sig; t++) {
            fi_set_int(e->fi, var, lo + t * st);
            long long *row = sig + (size_t)t * (size_t)*w;
            int ok = 1;
            for (int i = 0; i < pr.expr.n && ok; i++)
                ok = fi_eval_int(e->fi, pr.expr.v[i], &row[i]);
            for (int g = 0; g < pr.gather.n && ok; g++) {
                int own[MAX_RANK];
                ok = fixed_owner(e, pr.gather.v[g], var, own);
                for (int d = 0; ok && d < MAX_RANK; d++)
                    row[pr.expr.n + g * MAX_RANK + d] = own[d];
            }
            if (!ok) {
                free(sig);
                sig = NULL;
            }
        }
    }
    if (sig) {
        long long best = -1;
        *L = 1;
        for (long long p = 1; p <= PERIOD_MAX && 3 * p <= n; p++) {
            size_t bw = (size_t)p * (size_t)*w * sizeof *sig;
            long long breaks = 0;
            for (long long b = 1; (b + 1) * p <= n; b++)
                breaks += memcmp(sig + (size_t)(b - 1) * (size_t)p * (size_t)*w,
                                 sig + (size_t)b * (size_t)p * (size_t)*w, bw) != 0;
            if (best < 0 || breaks < best) {
                best = breaks;
                *L = p;
            }
            if (!breaks)
                break;
        }
    }
    free(pr.expr.v);
    free(pr.gather.v);
    return sig;
}

/* The cache model across k extrapolated repetitions of the iterations
 * that began with the volume counter at v0 and the access counter at n0:
 * the volume grows k times as much again, and the variables accessed
 * there were last accessed that much later (the others keep their last
 * access, further back than before). */
static void cache_extrapolate(Eng *e, double v0, long long n0, double k)
{
    double dv = e->volume - v0;
    for (int i = 0; i < e->ncvar; i++)
        if (e->cvar[i].at > n0)
            e->cvar[i].last += k * dv;
    e->volume += k * dv;
}

/* A settling loop extrapolated: its iterations interpreted and not. */
static void note_settled(Eng *e, const Aau *a, long long done, long long rest)
{
    EngineResult *r = e->res;
    int k = 0;
    while (k < r->nsettled && r->settled[k].line != a->line)
        k++;
    if (k == r->nsettled) {
        if (k == (int)(sizeof r->settled / sizeof r->settled[0]))
            return;
        r->settled[r->nsettled++].line = a->line;
    }
    r->settled[k].interpreted += done;
    r->settled[k].extrapolated += rest;
}

/* The trip count --trips gives the loop of a, or NULL. */
static const EngineTrips *trips_of(const Eng *e, const Aau *a)
{
    for (int i = 0; i < e->ntrips; i++)
        if (e->trips[i].line == a->line)
            return &e->trips[i];
    return NULL;
}

/* A loop walked iteration by iteration: kept for the message when the
 * interpretation stops inside (the outermost few). */
static int loop_push(Eng *e, const Aau *a, long long trips)
{
    int k = e->nloops++;
    if (k < (int)(sizeof e->loops / sizeof e->loops[0]))
        e->loops[k].a = a, e->loops[k].iter = 0, e->loops[k].trips = trips;
    return k;
}

static void loop_iter(Eng *e, int k, long long it)
{
    if (k < (int)(sizeof e->loops / sizeof e->loops[0]))
        e->loops[k].iter = it;
}

static void loop_pop(Eng *e)
{
    /* a stop leaves the stack as it was, for engine_run's result */
    if (!e->failed && !fi_stopped(e->fi))
        e->nloops--;
}

static void do_loop(Eng *e, Aau *a, const double *mult)
{
    const SpStmt *s = a->stmt;
    long long lo = eval_int(e, s->u.do_.lo, 1, a->line, "loop bound");
    long long hi = eval_int(e, s->u.do_.hi, 0, a->line, "loop bound");
    long long st = eval_int(e, s->u.do_.st, 1, a->line, "loop step");
    if (e->failed || st == 0)
        return;
    long long n = (hi - lo + st) / st;
    if (n < 0)
        n = 0;
    const EngineTrips *tr = trips_of(e, a);
    if (tr && tr->n != ENGINE_TRIPS_MAX && tr->n < n)
        n = tr->n;
    const Symbol *var = s->u.do_.var ? s->u.do_.var->u.name.sym : NULL;
    begin(e);
    charge_all(e, a, M_OVHD, e->pr.loop_setup, mult);
    charge_all(e, a, M_OVHD, (double)n * (e->pr.loop_iter + (st != 1 ? e->pr.loop_step : 0)),
               mult);
    end(e, a, sum_of(e, mult));
    int closed = (a->cls == AAU_ITERD || mult) && !a->varying && !has_ctl(a);
    if (closed) {
        if (n > 0) {
            if (var)
                fi_set_int(e->fi, var, lo);
            double *m = vec_new(e);
            for (int p = 0; p < e->P; p++)
                m[p] = (mult ? mult[p] : 1) * (double)n;
            walk_list(e, &a->kids, m);
            buf_put(e, m);
        }
        if (var)
            fi_set_int(e->fi, var, lo + n * st);
        return;
    }
    /* a traced run shows every iteration (until the trace is full) */
    int tracing = e->tr && e->tr->n < e->tr->max;
    int steady = a->cls == AAU_ITERSYNC && !a->varying && !mult && !tracing;
    /* a loop whose only variation is the owner of gathered elements is
       steady over a period of its iterations, when the owners have one */
    long long L = 1;
    int sw = 0;
    long long *sig = NULL;
    if (!steady && a->periodic && !mult && !tracing && !tr && var &&
        (sig = iter_signature(e, a, var, lo, st, n, &sw, &L)))
        steady = 1;
    /* a loop whose data decide its costs (a WHERE mask): once three
       iterations in a row repeated the one before, the rest is taken to
       repeat them too (a steady state of its data, noted in the report);
       --unroll interprets every iteration */
    int settling = !steady && a->settles && a->varying && !mult && !tracing && !tr && !e->unroll;
    if (settling)
        steady = 1;
    int need = settling ? 3 : 1, run = 0;
    int kept = steady;            /* the snapshots below are allocated */
    PtrVec sub = {0};
    Snap *s0 = NULL, *s1 = NULL;
    double *c0 = NULL, *d0 = NULL, *acc0[M_N] = {0}, *dacc0[M_N] = {0};
    if (steady) {
        for (int i = 0; i < a->kids.n; i++)
            subtree(e, a->kids.v[i], &sub);
        s0 = xmalloc((size_t)(sub.n + 1) * sizeof *s0);
        s1 = xmalloc((size_t)(sub.n + 1) * sizeof *s1);
        c0 = vec_new(e);
        d0 = vec_new(e);
        for (int m = 0; m < M_N; m++) {
            acc0[m] = vec_new(e);
            dacc0[m] = vec_new(e);
        }
    }
    long long it;
    int have_prev = 0;
    double vol0 = 0;
    long long nacc0 = 0;
    int lk = loop_push(e, a, n);
    e->in_trips += tr != NULL;
    for (it = 0; it < n; it++) {
        loop_iter(e, lk, it + 1);
        if (var)
            fi_set_int(e->fi, var, lo + it * st);
        if (steady && it % L == 0) {
            /* a block of L iterations begins */
            vol0 = e->volume;
            nacc0 = e->naccess;
            memcpy(c0, e->clock, (size_t)e->P * sizeof *c0);
            for (int m = 0; m < M_N; m++)
                memcpy(acc0[m], e->acc[m], (size_t)e->P * sizeof(double));
            snap_take(&sub, s0);
        }
        walk_list(e, &a->kids, mult);
        if (loop_ctl(e) || e->failed) {
            it++;
            break;
        }
        if (!steady || it % L != L - 1)
            continue;
        /* the increments of this iteration */
        double d = e->clock[0] - c0[0];
        int uniform = 1;
        for (int p = 0; p < e->P && uniform; p++)
            if (fabs(e->clock[p] - c0[p] - d) > 1e-12 * (fabs(d) + 1e-30) + 1e-18)
                uniform = 0;
        int same = have_prev && uniform;
        for (int p = 0; p < e->P; p++) {
            double dc = e->clock[p] - c0[p];
            if (same && fabs(dc - d0[p]) > 1e-12 * (fabs(dc) + 1e-30) + 1e-18)
                same = 0;
            d0[p] = dc;
        }
        for (int m = 0; m < M_N; m++) {
            for (int p = 0; p < e->P; p++)
                acc0[m][p] = e->acc[m][p] - acc0[m][p];
            if (same && !same_vec(acc0[m], dacc0[m], e->P))
                same = 0;
            double *t = dacc0[m];
            dacc0[m] = acc0[m];
            acc0[m] = t;
        }
        snap_take(&sub, s1);
        run = same ? run + 1 : 0;
        if (same && run < need) {
            have_prev = uniform;
            continue;
        }
        if (same && settling)
            note_settled(e, a, it + 1, n - it - 1);
        if (!same) {
            have_prev = uniform;
            continue;
        }
        /* steady: the iterations that follow repeat this block of L, all
           of them, or (with a signature) the whole blocks that have this
           block's signature, the next then walked */
        long long blocks = (n - it - 1) / L;
        if (sig) {
            size_t bw = (size_t)L * (size_t)sw;
            const long long *cur = sig + (size_t)(it + 1 - L) * (size_t)sw;
            blocks = 0;
            while (it + 1 + (blocks + 1) * L <= n &&
                   !memcmp(cur, sig + (size_t)(it + 1 + blocks * L) * (size_t)sw,
                           bw * sizeof *sig))
                blocks++;
        }
        double k = (double)blocks;
        for (int p = 0; p < e->P; p++) {
            e->clock[p] += k * d0[p];
            for (int m = 0; m < M_N; m++)
                e->acc[m][p] += k * dacc0[m][p];
        }
        for (int i = 0; i < sub.n; i++) {
            Aau *b = sub.v[i];
            for (int m = 0; m < M_N; m++)
                b->m_sum[m] += k * (s1[i].m[m] - s0[i].m[m]);
            b->m_max += k * (s1[i].m[4] - s0[i].m[4]);
            b->m_min += k * (s1[i].m[5] - s0[i].m[5]);
            b->execs += k * (s1[i].m[6] - s0[i].m[6]);
            b->calls += k * (s1[i].m[7] - s0[i].m[7]);
        }
        cache_extrapolate(e, vol0, nacc0, k);
        e->extrapolated += blocks * L;
        it += blocks * L;
        if (!sig) {
            it = n;                /* nothing is left */
            break;
        }
        have_prev = uniform;
    }
    e->in_trips -= tr != NULL;
    loop_pop(e);
    if (var && !e->ctl)
        fi_set_int(e->fi, var, lo + it * st);
    free(sig);
    if (kept) {
        free(sub.v);
        free(s0);
        free(s1);
        buf_put(e, c0);
        buf_put(e, d0);
        for (int m = 0; m < M_N; m++) {
            buf_put(e, acc0[m]);
            buf_put(e, dacc0[m]);
        }
    }
}

static void while_loop(Eng *e, Aau *a, const double *mult)
{
    begin(e);
    charge_all(e, a, M_OVHD, e->pr.loop_setup, mult);
    end(e, a, sum_of(e, mult));
    const EngineTrips *tr = trips_of(e, a);
    int lk = loop_push(e, a, tr && tr->n != ENGINE_TRIPS_MAX ? tr->n : -1);
    e->in_trips += tr != NULL;
    for (long long it = 0;; it++) {
        loop_iter(e, lk, it + 1);
        int i = 0;
        for (; i < a->kids.n && ((Aau *)a->kids.v[i])->pre; i++)
            walk(e, a->kids.v[i], mult);
        if (stopping(e) || e->failed)
            break;
        int go = 1;
        if (tr && tr->n != ENGINE_TRIPS_MAX) {
            go = it < tr->n;       /* N iterations, whatever the condition */
        } else if (a->while_cond && !fi_eval_bool(e->fi, a->while_cond, &go)) {
            if (tr) {
                go = 1;            /* max: only a known condition ends it */
            } else {
                fi_missing(e->fi, a->while_cond, a->line, "the DO WHILE condition");
                e->failed = 1;
                break;
            }
        }
        begin(e);
        charge_all(e, a, M_OVHD, e->pr.cond_test + e->pr.loop_iter, mult);
        end(e, a, 0);
        if (!go)
            break;
        for (; i < a->kids.n && !stopping(e); i++)
            walk(e, a->kids.v[i], mult);
        if (loop_ctl(e) || e->failed)
            break;
    }
    e->in_trips -= tr != NULL;
    loop_pop(e);
}

/* Whether a branch only transfers control (EXIT, CYCLE, GOTO, RETURN,
 * STOP), as a convergence test's. */
static int only_ctl(const PtrVec *body)
{
    for (int i = 0; i < body->n; i++)
        if (!((const Aau *)body->v[i])->ctl)
            return 0;
    return body->n > 0;
}

static void condt(Eng *e, Aau *a, const double *mult)
{
    for (int b = 0; b < a->nbranch; b++) {
        walk_list(e, &a->bpre[b], mult);
        if (stopping(e))
            return;
        int taken = 1;
        if (a->bcond[b]) {
            if (!fi_eval_bool(e->fi, a->bcond[b], &taken)) {
                if (e->in_trips && only_ctl(&a->bbody[b])) {
                    taken = 0;     /* --trips: an exit not known is not taken */
                } else {
                    fi_missing(e->fi, a->bcond[b], a->line, "a branch condition");
                    e->failed = 1;
                    return;
                }
            }
            begin(e);
            charge_all(e, a, M_OVHD, e->pr.cond_test + (taken ? e->pr.cond_taken : 0), mult);
            end(e, a, sum_of(e, mult));
        }
        if (taken) {
            walk_list(e, &a->bbody[b], mult);
            return;
        }
    }
}

/* Whether the AAUs of l make no call and no communication. */
static int leaf(const PtrVec *l)
{
    for (int i = 0; i < l->n; i++) {
        const Aau *a = l->v[i];
        if (a->cls == AAU_CALL || a->cls == AAU_COMM || a->cls == AAU_SYNC ||
            a->cls == AAU_SYNCSEQ || !leaf(&a->kids))
            return 0;
        for (int b = 0; b < a->nbranch; b++)
            if (!leaf(&a->bpre[b]) || !leaf(&a->bbody[b]))
                return 0;
    }
    return 1;
}

/* LBOUND (ub 0) or UBOUND (ub 1) of dimension d of the array named by
 * actual, in the functional interpreter's frame now; 0 when unknown. */
static int actual_bound(Eng *e, const Node *actual, int d, int ub, long long *v)
{
    Node dn = {0}, ref = {0};
    dn.kind = AST_INT_CONST;
    dn.type = (Type){TY_INTEGER, 4};
    dn.u.konst.ival = d + 1;
    void *args[2] = {(void *)actual, &dn};
    ref.kind = AST_REF;
    ref.loc = actual->loc;
    ref.type = dn.type;
    ref.u.ref.id = ub ? "ubound" : "lbound";
    ref.u.ref.what = REF_INTRINSIC;
    ref.u.ref.args = (PtrVec){args, 2, 2};
    return fi_eval_int(e->fi, &ref, v);
}

/* A mapped ALLOCATABLE array passed whole goes to a dummy of its bounds
 * (passing.c); the SPMD program stops where they differ, and so does the
 * prediction. bounds: the actuals' bounds, taken in the caller's frame;
 * this is called in the callee's. */
static void check_passed_bounds(Eng *e, const Aau *a, const long long (*bounds)[2])
{
    const PtrVec *passed = &a->callee->passed;
    for (int i = 0, k = 0; i < passed->n; i++) {
        const SpArr *r = passed->v[i];
        for (int d = 0; r->passed >= 2 && d < r->rank; d++, k++) {
            long long lo, hi;
            if (bounds[k][0] > bounds[k][1] + 1 || !fi_eval_int(e->fi, r->lo[d], &lo)
                || !fi_eval_int(e->fi, r->hi[d], &hi))
                continue;             /* not known: no check */
            if (lo != bounds[k][0] || hi != bounds[k][1]) {
                fi_error_once(e->fi, a, a->call->loc, "the array of bounds %lld:%lld in "
                              "dimension %d is passed to the dummy '%s' of bounds %lld:%lld "
                              "(the SPMD program stops here: hpfc passes a mapped ALLOCATABLE "
                              "array to a dummy of its bounds)", bounds[k][0], bounds[k][1],
                              d + 1, r->name, lo, hi);
                e->failed = 1;
            }
        }
    }
}

enum { MAX_CALL_DEPTH = 200 };   /* as the functional interpreter's (fi.c MAX_DEPTH) */

static void call(Eng *e, Aau *a, const double *mult)
{
    const PtrVec *body = aag_unit_body(e->g, a->callee);
    int nargs = a->call ? a->call->u.ref.args.n : 0;
    begin(e);
    /* an inlined call costs its body only */
    if (!(e->inline_calls && body && leaf(body)))
        charge_all(e, a, M_OVHD, e->pr.call_ovhd + nargs * e->pr.call_arg, mult);
    end(e, a, sum_of(e, mult));
    if (a->home)
        a->home->calls += sum_of(e, mult) / e->NP;
    if (!body)
        return;
    long long bounds[4 * MAX_RANK][2];
    int nb = 0;
    for (int i = 0; a->call && i < a->callee->passed.n; i++) {
        const SpArr *r = a->callee->passed.v[i];
        const Node *act = r->dummy <= a->call->u.ref.args.n
                          ? a->call->u.ref.args.v[r->dummy - 1] : NULL;
        for (int d = 0; r->passed >= 2 && d < r->rank; d++) {
            long long *b = nb < 4 * MAX_RANK ? bounds[nb++] : NULL;
            if (b && (!act || !actual_bound(e, act, d, 0, &b[0])
                      || !actual_bound(e, act, d, 1, &b[1]))) {
                b[0] = 1;             /* unknown: marked empty, not checked */
                b[1] = -1;
            }
        }
    }
    if (e->depth >= MAX_CALL_DEPTH) {
        /* recursion the program does not end (or ends too deep) */
        fi_error_once(e->fi, a, a->stmt ? a->stmt->loc : (Loc){0}, "procedure calls nested "
                      "more than %d deep: the prediction stops there", MAX_CALL_DEPTH);
        e->failed = 1;
        return;
    }
    fi_enter(e->fi, a->callee, a->call);
    if (nb && nb <= 4 * MAX_RANK)
        check_passed_bounds(e, a, (const long long (*)[2])bounds);
    e->depth++;
    walk_list(e, body, mult);
    e->depth--;
    if (e->ctl == AST_RETURN)
        e->ctl = 0;
    fi_leave(e->fi);
}

/* ---- communication ------------------------------------------------------- */

static int holds(const void *hd, int c)
{
    return hpfmap_count(hd, c) > 0;
}

static void overlap_shift(Eng *e, Aau *a, const CommEntry *c)
{
    const SpArr *arr = c->arr;
    Grid *g = arr_grid(e, arr);
    int t = arr->tdim[c->dim];
    if (!g || t < 0 || arr->tmpl->gdim[t] < 0)
        return;
    int gd = arr->tmpl->gdim[t];
    Tmpl *m = tmpl_of(e, arr->tmpl);
    if (g->shape[gd] > 1)
        /* the run-time library's own work around the messages (rt.shift):
           the slabs packed and unpacked, the buffers, the element type */
        charge_all(e, a, M_OVHD, e->pr.rt_shift, NULL);
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *bytes = buf_get(e);
    int coord[MAX_RANK];
    for (int dir = 0; dir < 2; dir++) {
        /* dir 0: the top `below` cells go up; dir 1: the bottom `above` go
           down. Each (interpreted) processor holding cells sends to its
           neighbour on one side and receives from the one on the other,
           when those hold cells too. */
        int w = dir == 0 ? c->below : c->above;
        if (w <= 0)
            continue;
        for (int p = 0; p < e->P; p++) {
            dst[p] = src[p] = -1;
            memcpy(coord, coords_of(g, p), (size_t)g->rank * sizeof *coord);
            int c0 = coord[gd];
            if (hpfmap_count(&m->d[t], c0) == 0)
                continue;
            unsigned ap = engine_embed(g->rank, g->shape, coord);
            for (int side = 0; side < 2; side++) {
                int cn = c0 + ((dir == 0) == (side == 0) ? 1 : -1);
                if (cn < 0 || cn >= g->shape[gd] || hpfmap_count(&m->d[t], cn) == 0)
                    continue;
                coord[gd] = cn;
                int q = e->ec ? latest_partner(e, p, gd, cn - c0, 0, holds, &m->d[t],
                                                 (double)w * local_elems(e, arr, p, c->dim) *
                                                     elsize(arr->type))
                              : proc_of(e, g->rank, g->shape, coord);
                if (side == 0) {
                    dst[p] = q;
                    bytes[p] = (double)w * local_elems(e, arr, p, c->dim) * elsize(arr->type);
                } else {
                    src[p] = q;
                    unsigned aq = engine_embed(g->rank, g->shape, coord);
                    hops[p] = e->pr.topo == TOPO_HYPERCUBE ? engine_hops(ap, aq) : 1;
                }
                coord[gd] = c0;
            }
        }
        exchange(e, a, dst, src, bytes, hops);
    }
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, bytes);
}

/* Pairs (receiver, sender) with element counts, in a small open hash. */
typedef struct {
    uint64_t *key;
    double *n;
    size_t cap, used;
} PairMap;

/* The same pairs as a list by round: round k (0 .. P-1) holds the pairs
 * whose receiver is k places after its sender, (dst - src) mod P = k;
 * round 0 is the local copies. */
typedef struct {
    int *dst, *src;
    double *n;
    int *hops;                    /* between dst and src */
    long *start;                  /* P + 1: round k is start[k] .. start[k+1]-1 */
} PairList;

typedef struct GatherCache {
    const CommEntry *c;
    PairList pl;
    int nround;                   /* -1: not made (too large), 0: not yet */
    Round *round;                 /* requests (a gather), then values, by round */
} GatherCache;

static void pm_add(PairMap *m, int dst, int src, double n)
{
    if (2 * (m->used + 1) > m->cap) {
        PairMap b = {0};
        b.cap = m->cap ? 2 * m->cap : 1024;
        b.key = xmalloc(b.cap * sizeof *b.key);
        b.n = xcalloc(b.cap, sizeof *b.n);
        for (size_t i = 0; i < b.cap; i++)
            b.key[i] = UINT64_MAX;
        for (size_t i = 0; i < m->cap; i++)
            if (m->key[i] != UINT64_MAX)
                pm_add(&b, (int)(m->key[i] >> 32), (int)(m->key[i] & 0xffffffffu), m->n[i]);
        free(m->key);
        free(m->n);
        *m = b;
    }
    uint64_t k = (uint64_t)(unsigned)dst << 32 | (unsigned)src;
    size_t h = (size_t)(k * 0x9E3779B97F4A7C15ull) & (m->cap - 1);
    while (m->key[h] != UINT64_MAX && m->key[h] != k)
        h = (h + 1) & (m->cap - 1);
    if (m->key[h] == UINT64_MAX) {
        m->key[h] = k;
        m->used++;
    }
    m->n[h] += n;
}

/* The list of the pairs of m by round (m is freed). */
static void pl_of_map(const Eng *e, PairMap *m, PairList *pl)
{
    int P = e->P;
    size_t n = m->used ? m->used : 1;
    pl->hops = xmalloc(n * sizeof *pl->hops);
    pl->dst = xmalloc(n * sizeof *pl->dst);
    pl->src = xmalloc(n * sizeof *pl->src);
    pl->n = xmalloc(n * sizeof *pl->n);
    pl->start = xcalloc((size_t)P + 1, sizeof *pl->start);
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i] != UINT64_MAX) {
            int d = (int)(m->key[i] >> 32), s = (int)(m->key[i] & 0xffffffffu);
            pl->start[(d - s + P) % P + 1]++;
        }
    for (int k = 0; k < P; k++)
        pl->start[k + 1] += pl->start[k];
    long *fill = xmalloc((size_t)P * sizeof *fill);
    memcpy(fill, pl->start, (size_t)P * sizeof *fill);
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i] != UINT64_MAX) {
            int d = (int)(m->key[i] >> 32), s = (int)(m->key[i] & 0xffffffffu);
            long j = fill[(d - s + P) % P]++;
            pl->dst[j] = d;
            pl->src[j] = s;
            pl->n[j] = m->n[i];
            pl->hops[j] = rank_hops(e, s, d);
        }
    free(fill);
    free(m->key);
    free(m->n);
    *m = (PairMap){0};
}

static void pl_free(PairList *pl)
{
    free(pl->hops);
    free(pl->dst);
    free(pl->src);
    free(pl->n);
    free(pl->start);
}

/* Messages of a gather or scatter: every processor first learns how much
 * each other sends it (an all-to-all of counts), then the requests
 * (indices) go to the owners and the values come back (gather), or values
 * and indices go to the owners (scatter). */
/* The rounds of pl ready for exchange_round() (gc->nround of them, the
 * requests first when req_bytes > 0), when they are few enough to keep. */
static void make_rounds(Eng *e, GatherCache *gc, double req_bytes, double val_bytes)
{
    const PairList *pl = &gc->pl;
    int P = e->P, n = 0;
    for (int k = 1; k < P; k++)
        n += pl->start[k] != pl->start[k + 1];
    n *= req_bytes > 0 ? 2 : 1;
    if ((double)n * P > 65536) {
        gc->nround = -1;
        return;
    }
    gc->round = xcalloc((size_t)(n ? n : 1), sizeof *gc->round);
    int i = 0;
    for (int phase = req_bytes > 0 ? 0 : 1; phase < 2; phase++)
        for (int k = 1; k < P; k++) {
            if (pl->start[k] == pl->start[k + 1])
                continue;
            Round *r = &gc->round[i++];
            r->dst = xmalloc((size_t)P * sizeof *r->dst);
            r->src = xmalloc((size_t)P * sizeof *r->src);
            r->hops = xcalloc((size_t)P, sizeof *r->hops);
            r->bytes = xcalloc((size_t)P, sizeof *r->bytes);
            for (int p = 0; p < P; p++)
                r->dst[p] = r->src[p] = -1;
            for (long j = pl->start[k]; j < pl->start[k + 1]; j++) {
                int d = pl->dst[j], s = pl->src[j];
                int from = phase == 0 ? d : s, to = phase == 0 ? s : d;
                r->dst[from] = to;
                r->src[to] = from;
                r->bytes[from] = pl->n[j] * (phase == 0 ? req_bytes : val_bytes);
                r->hops[to] = pl->hops[j];
            }
            r->snd = xmalloc((size_t)P * sizeof *r->snd);
            r->rcv = xmalloc((size_t)P * sizeof *r->rcv);
            r->send_t = xcalloc((size_t)P, sizeof *r->send_t);
            r->hop_t = xcalloc((size_t)P, sizeof *r->hop_t);
            r->dyn_t = xcalloc((size_t)P, sizeof *r->dyn_t);
            const Params *pr = &e->pr;
            double f = 1.0 - e->overlap;
            double dyx = pr->dy_pb > pr->st_pb ? pr->dy_pb - pr->st_pb : 0;
            for (int p = 0; p < P; p++) {
                if (r->dst[p] >= 0) {
                    r->snd[r->ns++] = p;
                    r->send_t[p] = f * (startup(pr, r->bytes[p], 0) + r->bytes[p] * pr->st_pb);
                }
                if (r->src[p] >= 0) {
                    r->rcv[r->nr++] = p;
                    r->hop_t[p] = r->hops[p] * pr->st_ph;
                    r->dyn_t[p] = f * r->bytes[r->src[p]] * dyx;
                }
            }
        }
    gc->nround = n;
}

static void rounds_free(GatherCache *gc)
{
    for (int i = 0; i < gc->nround; i++) {
        Round *r = &gc->round[i];
        free(r->snd);
        free(r->rcv);
        free(r->dst);
        free(r->src);
        free(r->hops);
        free(r->bytes);
        free(r->send_t);
        free(r->hop_t);
        free(r->dyn_t);
    }
    free(gc->round);
}

static void pairs_exchange(Eng *e, Aau *a, const PairList *pl, double req_bytes, double val_bytes,
                           const GatherCache *gc)
{
    int P = e->P;
    const Params *pr = &e->pr;
    int rt = pr->rt_gather > 0 || pr->rt_gather_elem > 0 || pr->rt_gather_remote > 0;
    if (rt) {
        /* the run-time library's own work (rt.gather*): every processor
           calls it; its inspector visits every element asked for and
           copies the local ones; a remote one costs the requester and its
           owner the packing of the request and of the answer, half each */
        charge_all(e, a, M_OVHD, pr->rt_gather, NULL);
        for (long j = pl->start[0]; j < pl->start[P]; j++) {
            int local = j < pl->start[1];
            charge(e, a, M_OVHD, pl->dst[j],
                   pl->n[j] * (pr->rt_gather_elem + (local ? 0 : pr->rt_gather_remote / 2)));
            if (!local)
                charge(e, a, M_OVHD, pl->src[j], pl->n[j] * pr->rt_gather_remote / 2);
        }
    }
    if (P > 1) {
        sync_all(e, a);
        double t = (double)(P - 1) * (startup(pr, 4, 0) + 4 * pr->st_pb);
        charge_all(e, a, M_COMM, (1 - e->overlap) * t, NULL);
    }
    /* without rt.gather*, the local copies as loads and stores */
    if (!rt && e->tr) {
        for (long j = pl->start[0]; j < pl->start[1]; j++)
            charge(e, a, M_COMP, pl->dst[j], pl->n[j] * (pr->fetch_hit + pr->store_hit));
    } else if (!rt) {
        double sc = a->m_sum[M_COMP];
        for (long j = pl->start[0]; j < pl->start[1]; j++)
            charge_to(e, &sc, M_COMP, pl->dst[j], pl->n[j] * (pr->fetch_hit + pr->store_hit));
        a->m_sum[M_COMP] = sc;
    }
    if (gc && gc->nround >= 0) {
        for (int i = 0; i < gc->nround; i++)
            exchange_round(e, a, &gc->round[i]);
        return;
    }
    int *dst = buf_get(e), *src = buf_get(e);
    int *hops = buf_get(e);
    double *bytes = buf_get(e);
    /* by round: in round k, p talks to (p + k) mod P; each processor has at
       most one partner a round, so a round is one exchange. A gather:
       requests from the receiver d to the owner s, then the values back; a
       scatter: values only */
    for (int phase = req_bytes > 0 ? 0 : 1; phase < 2; phase++)
        for (int k = 1; k < P; k++) {
            if (pl->start[k] == pl->start[k + 1])
                continue;
            for (int p = 0; p < P; p++)
                dst[p] = src[p] = -1;
            for (long j = pl->start[k]; j < pl->start[k + 1]; j++) {
                int d = pl->dst[j], s = pl->src[j];
                int from = phase == 0 ? d : s, to = phase == 0 ? s : d;
                dst[from] = to;
                src[to] = from;
                bytes[from] = pl->n[j] * (phase == 0 ? req_bytes : val_bytes);
                hops[to] = pl->hops[j];   /* rank_hops(e, from, to): symmetric */
            }
            exchange(e, a, dst, src, bytes, hops);
        }
    buf_put(e, dst);
    buf_put(e, src);
    buf_put(e, hops);
    buf_put(e, bytes);
}

/* The element counts a gather or scatter moves, by (receiver, sender).
 * Returns 0 when a value needed was not known. */
/* The loop of gather_pairs() with the owners computed directly (no fi
 * evaluation: constant alignments only) and the pairs counted in a P x P
 * table, then entered in the map in the order of their first occurrence
 * with their counts (the same map, slot for slot). 0 when it does not
 * apply (nothing done). */
static int pairs_dense(Eng *e, const CommEntry *c, const SpLoop *l, const SpArr *arr,
                       const Grid *lg, const Grid *rg, const IxMap *map, const FiSpace *sp,
                       const FiRefs *rf, PairList *pl)
{
    int P = e->P;
    if (e->ec || P > 256 || (rg && rf->rank != arr->rank))
        return 0;
    /* the owner of the referenced element: per array dimension its grid
       dimension, template dimension and alignment; the fixed cells of the
       template dimensions no array dimension is aligned with */
    int gd_of[MAX_RANK], fixc[MAX_RANK];
    const HpfDim *hd_of[MAX_RANK];
    long long ca[MAX_RANK], cb[MAX_RANK];
    if (rg) {
        const SpTmpl *tp = arr->tmpl;
        Tmpl *m = tmpl_of(e, tp);
        int aligned[MAX_RANK] = {0};
        for (int gd = 0; gd < rg->rank; gd++)
            fixc[gd] = -1;
        for (int d = 0; d < arr->rank; d++) {
            int t = arr->tdim[d];
            gd_of[d] = -1;
            if (t < 0)
                continue;
            aligned[t] = 1;
            if (tp->gdim[t] < 0)
                continue;
            if (!arr->cknown[d])
                return 0;
            gd_of[d] = tp->gdim[t];
            hd_of[d] = &m->d[t];
            ca[d] = arr->ca[d];
            cb[d] = arr->cb[d];
        }
        for (int t = 0; t < tp->rank; t++) {
            int gd = tp->gdim[t];
            if (aligned[t] || gd < 0 || !arr->fix[t])
                continue;
            if (arr->fix[t]->kind != AST_INT_CONST)
                return 0;
            fixc[gd] = hpfmap_owner(&m->d[t], (long)arr->fix[t]->u.konst.ival);
        }
    }
    double *cnt = xcalloc((size_t)P * (size_t)P, sizeof *cnt);
    int *first = xmalloc((size_t)(rf->n ? rf->n : 1) * sizeof *first);
    long nfirst = 0;
    int ok = 1;
    for (long i = 0; i < rf->n && ok; i++) {
        int coord[MAX_RANK], own[MAX_RANK];
        int runner = 0;
        if (lg) {
            point_coords(l, map, lg, sp, rf->point[i], coord);
            runner = hpfmap_rank(lg->rank, lg->shape, coord);
        }
        int owner = runner;
        if (rg) {
            memcpy(own, fixc, (size_t)rg->rank * sizeof *own);
            for (int d = 0; d < arr->rank; d++)
                if (gd_of[d] >= 0)
                    own[gd_of[d]] = hpfmap_owner(hd_of[d], (long)(ca[d] * rf->sub[d][i] + cb[d]));
            for (int d = 0; d < rg->rank; d++)
                if (own[d] < 0)
                    own[d] = rg == lg ? coord[d] : 0;
            owner = hpfmap_rank(rg->rank, rg->shape, own);
        }
        if (runner >= P || owner >= P)
            continue;
        if (runner < 0 || owner < 0) {
            ok = 0;               /* the general loop's keys */
            break;
        }
        int dst = c->kind == CM_SCATTER ? owner : runner, src = c->kind == CM_SCATTER ? runner : owner;
        int key = dst * P + src;
        if (!cnt[key]++)
            first[nfirst++] = key;
    }
    if (ok) {
        PairMap pm = {0};
        for (long j = 0; j < nfirst; j++)
            pm_add(&pm, first[j] / P, first[j] % P, cnt[first[j]]);
        pl_of_map(e, &pm, pl);
    }
    free(cnt);
    free(first);
    return ok;
}

/* Whether expression n mentions an index of loop l. */
static int mentions_index(const Node *n, const SpLoop *l)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_NAME:
        for (int k = 0; k < l->nidx; k++)
            if (n->u.name.sym && n->u.name.sym == l->idx[k].var)
                return 1;
        return 0;
    case AST_BINARY:
        return mentions_index(n->u.binary.lhs, l) || mentions_index(n->u.binary.rhs, l);
    case AST_UNARY: case AST_PAREN:
        return mentions_index(n->u.unary.operand, l);
    case AST_REF:
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (mentions_index(n->u.ref.args.v[i], l))
                return 1;
        return 0;
    case AST_KEYWORD_ARG:
        return mentions_index(n->u.kwarg.value, l);
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST:
        return 0;
    default:
        return 1;                 /* not known not to */
    }
}

/* The points of a loop by runner, in closed form: each index's trips by
 * grid coordinate (index_counts), the runners having 0 in the grid
 * dimensions no index is bound to. */
typedef struct {
    IxMap map[MAX_RANK];
    const double *cnt[MAX_RANK];
    int ncnt[MAX_RANK], used[MAX_RANK];
} Runners;

/* 0 when two indices share a grid dimension or a bound is not known. */
static int runners_init(Eng *e, const SpLoop *l, const Grid *lg, int line, Runners *r)
{
    memset(r->used, 0, sizeof r->used);
    if (lg)
        index_maps(e, l, r->map);
    for (int k = 0; k < l->nidx; k++) {
        int gd = lg ? r->map[k].gd : -1;
        if (gd >= 0 && r->used[gd]++)
            return 0;
        r->cnt[k] = index_counts(e, &l->idx[k], line, &r->ncnt[k]);
        if (e->failed)
            return 0;
    }
    return 1;
}

/* The points processor p runs (its coordinates in coord), over every index
 * but skip (-1: none). */
static double runner_points(const Runners *r, const SpLoop *l, const Grid *lg, int p, int skip,
                            int *coord)
{
    memset(coord, 0, MAX_RANK * sizeof *coord);
    if (lg)
        memcpy(coord, coords_of(lg, p), (size_t)lg->rank * sizeof *coord);
    for (int d = 0; lg && d < lg->rank; d++)
        if ((!r->used[d] && coord[d]) || coord[d] >= lg->shape[d])
            return 0;
    double n = 1;
    for (int k = 0; k < l->nidx && n > 0; k++) {
        if (k == skip)
            continue;
        int gd = lg ? r->map[k].gd : -1;
        int x = gd >= 0 ? coord[gd] : 0;
        n *= x < r->ncnt[k] ? r->cnt[k][x] : 0;
    }
    return n;
}

/* The pairs of a gather whose element's owner is the same at every point
 * of its loop: the subscripts of the distributed dimensions of the array
 * it reads mention no index of the loop (the column a(:, k) of a rank-1
 * update at step k, broadcast to every processor). Then each processor's
 * evaluations all come from that owner, and there are as many as the points
 * it runs: their counts per grid coordinate in closed form from the
 * mapping (index_counts), per step, not one evaluation per element. The
 * same pairs as gather_pairs() counts. 0 when it does not apply (no mask,
 * no guard, the reference evaluated at every point, no classes). */
/* Whether expression n reads no variable but var (and PARAMETERs). */
static int reads_only(const Node *n, const Symbol *var)
{
    if (!n)
        return 1;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST:
        return 1;
    case AST_NAME:
        return n->u.name.sym && (n->u.name.sym == var || n->u.name.sym->kind == SYM_PARAMETER);
    case AST_BINARY:
        return reads_only(n->u.binary.lhs, var) && reads_only(n->u.binary.rhs, var);
    case AST_UNARY: case AST_PAREN:
        return reads_only(n->u.unary.operand, var);
    case AST_REF:
        if (n->u.ref.what != REF_INTRINSIC || n->ir)
            return 0;
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (!reads_only(n->u.ref.args.v[i], var))
                return 0;
        return 1;
    default:
        return 0;
    }
}

/* The owner's grid coordinates (-1: any, the array replicated along that
 * grid dimension) of the element a gather fetches, when it is the same at
 * every point of its loop: the subscripts of the array's distributed
 * dimensions mention no index of the loop (and, with only set, read no
 * variable but only). 0 when it is not, or not known. */
static int fixed_owner(Eng *e, const CommEntry *c, const Symbol *only, int *own)
{
    const SpLoop *l = c->loop;
    if (c->kind != CM_GATHER || !c->g || l->mask || l->nguard || c->g->ctx != l->ctx_iter ||
        e->ec || !c->g->r || !c->g->r->arr || !c->g->r->arr->tmpl || !arr_grid(e, c->g->r->arr))
        return 0;
    const SpRef *r = c->g->r;
    const SpArr *arr = r->arr;
    long long sub[MAX_RANK];
    for (int d = 0; d < arr->rank; d++) {
        int t = arr->tdim[d];
        sub[d] = 1;
        if (t < 0 || arr->tmpl->gdim[t] < 0)
            continue;
        if (!r->sub[d] || mentions_index(r->sub[d], l) || (only && !reads_only(r->sub[d], only))
            || !fi_eval_int(e->fi, r->sub[d], &sub[d]))
            return 0;
    }
    for (int t = 0; t < arr->tmpl->rank; t++)
        if (arr->tmpl->gdim[t] >= 0 && arr->fix[t] &&
            (mentions_index(arr->fix[t], l) || (only && !reads_only(arr->fix[t], only))))
            return 0;
    Grid *rg = arr_grid(e, arr);
    for (int d = rg->rank; d < MAX_RANK; d++)
        own[d] = -1;
    owner_coords(e, arr, sub, own);
    return 1;
}

static int pairs_fixed_owner(Eng *e, const CommEntry *c, PairList *pl, int line)
{
    int own0[MAX_RANK];
    if (!fixed_owner(e, c, NULL, own0))
        return 0;
    const SpLoop *l = c->loop;
    const SpArr *arr = c->g->r->arr;
    Grid *lg = arr_grid(e, l->arr), *rg = arr_grid(e, arr);
    Runners ru;
    if (!runners_init(e, l, lg, line, &ru))
        return 0;
    PairMap pm = {0};
    int P = e->P;
    for (int p = 0; p < (lg ? P : 1); p++) {
        int coord[MAX_RANK];
        double n = runner_points(&ru, l, lg, p, -1, coord);
        if (n <= 0)
            continue;
        int own[MAX_RANK];
        for (int d = 0; d < rg->rank; d++)
            own[d] = own0[d] >= 0 ? own0[d] : rg == lg ? coord[d] : 0;
        int owner = hpfmap_rank(rg->rank, rg->shape, own);
        if (owner < P)
            pm_add(&pm, p, owner, n);
    }
    pl_of_map(e, &pm, pl);
    return 1;
}

/* n as alpha * var + beta, var an index of loop l, the rest evaluated by fi
 * (no other index of l). 0 when it is not so (or not known). */
static int affine_in(Eng *e, const Node *n, const SpLoop *l, const Symbol **var,
                     long long *alpha, long long *beta)
{
    long long a1, b1, a2, b2;
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_INT_CONST:
        *alpha = 0;
        *beta = n->u.konst.ival;
        return 1;
    case AST_PAREN:
        return affine_in(e, n->u.unary.operand, l, var, alpha, beta);
    case AST_UNARY:
        if (n->u.unary.op != OP_NEG && n->u.unary.op != OP_PLUS)
            break;
        if (!affine_in(e, n->u.unary.operand, l, var, alpha, beta))
            return 0;
        if (n->u.unary.op == OP_NEG)
            *alpha = -*alpha, *beta = -*beta;
        return 1;
    case AST_BINARY:
        if (n->u.binary.op != OP_ADD && n->u.binary.op != OP_SUB && n->u.binary.op != OP_MUL)
            break;
        if (!affine_in(e, n->u.binary.lhs, l, var, &a1, &b1) ||
            !affine_in(e, n->u.binary.rhs, l, var, &a2, &b2))
            return 0;
        if (n->u.binary.op == OP_MUL) {
            if (a1 && a2)
                return 0;
            *alpha = a1 * b2 + a2 * b1;
            *beta = b1 * b2;
        } else {
            int sg = n->u.binary.op == OP_ADD ? 1 : -1;
            *alpha = a1 + sg * a2;
            *beta = b1 + sg * b2;
        }
        return 1;
    case AST_NAME:
        for (int k = 0; k < l->nidx; k++)
            if (n->u.name.sym && n->u.name.sym == l->idx[k].var) {
                if (*var && *var != n->u.name.sym)
                    return 0;     /* two indices */
                *var = n->u.name.sym;
                *alpha = 1;
                *beta = 0;
                return 1;
            }
        break;
    default:
        break;
    }
    if (mentions_index(n, l) || !fi_eval_int(e->fi, n, beta))
        return 0;
    *alpha = 0;
    return 1;
}

/* An intrinsic reference id(x, y): x and y in *x, *y. */
static int call2(const Node *n, const char *id, const Node **x, const Node **y)
{
    if (!n || n->kind != AST_REF || n->u.ref.args.n != 2 || strcmp(n->u.ref.id, id))
        return 0;
    *x = n->u.ref.args.v[0];
    *y = n->u.ref.args.v[1];
    return 1;
}

/* The pairs of a CSHIFT's gather in closed form (doc/predict.md): the
 * shifted dimension's subscript is X + mod(mod(q, N) + N, N) (as the
 * lowering writes it), q = alpha*i + beta with alpha = +-1 for a FORALL
 * index i, and the array's other dimensions are not distributed. Over the
 * i whose q / N has the same floor, the element's cell is affine in i, so
 * the points that processor coordinate r runs and whose element coordinate
 * q owns are counted from the mapping's segments (hpfmap_segments), with
 * no evaluation per element: a shift by the loop's variable costs the same
 * at any size. 0 when it does not apply. */
static int pairs_cshift(Eng *e, const CommEntry *c, PairList *pl)
{
    const SpLoop *l = c->loop;
    if (c->kind != CM_GATHER || !c->g || c->g->pat != PAT_CSHIFT || l->mask || l->nguard ||
        c->g->ctx != l->ctx_iter || e->ec || !c->g->r || !c->g->r->arr || !c->g->r->arr->tmpl)
        return 0;
    const SpRef *r = c->g->r;
    const SpArr *arr = r->arr;
    Grid *lg = arr_grid(e, l->arr), *rg = arr_grid(e, arr);
    if (!rg)
        return 0;
    /* the one distributed dimension, shifted */
    int ds = -1;
    for (int d = 0; d < arr->rank; d++) {
        int t = arr->tdim[d];
        if (t < 0 || arr->tmpl->gdim[t] < 0)
            continue;
        if (ds >= 0)
            return 0;
        ds = d;
    }
    if (ds < 0 || !arr->cknown[ds])
        return 0;
    for (int t = 0; t < arr->tmpl->rank; t++)
        if (arr->fix[t] && mentions_index(arr->fix[t], l))
            return 0;
    const Node *sub = r->sub[ds], *m = NULL, *x1, *x2, *x3, *x4, *q, *nn;
    long long X = 0, N, alpha, beta, a0;
    if (sub && sub->kind == AST_BINARY && sub->u.binary.op == OP_ADD) {
        const Symbol *none = NULL;
        if (!affine_in(e, sub->u.binary.lhs, l, &none, &a0, &X) || a0)
            return 0;
        m = sub->u.binary.rhs;
    } else {
        m = sub;
    }
    /* mod(mod(q, N) + N, N) */
    if (!call2(m, "mod", &x1, &nn) || !x1 || x1->kind != AST_BINARY || x1->u.binary.op != OP_ADD
        || !call2(x1->u.binary.lhs, "mod", &q, &x2) || (x3 = x1->u.binary.rhs, 0))
        return 0;
    x4 = nn;
    const Symbol *none = NULL;
    long long n1, n2, n3;
    if (!affine_in(e, x4, l, &none, &a0, &n1) || a0 || !affine_in(e, x2, l, &none, &a0, &n2) ||
        a0 || !affine_in(e, x3, l, &none, &a0, &n3) || a0 || n1 != n2 || n1 != n3 || n1 < 1)
        return 0;
    N = n1;
    const Symbol *iv = NULL;
    if (!affine_in(e, q, l, &iv, &alpha, &beta) || !iv || (alpha != 1 && alpha != -1))
        return 0;
    int ki = -1;
    for (int k = 0; k < l->nidx; k++)
        if (l->idx[k].var == iv)
            ki = k;
    if (ki < 0)
        return 0;
    /* the loop: its maps, each index's counts (the others multiply) */
    Runners ru;
    if (!runners_init(e, l, lg, 0, &ru))
        return 0;
    const IxMap *map = ru.map;
    const SpIndex *ix = &l->idx[ki];
    long long lo = eval_int(e, ix->lo, 1, 0, "FORALL bound");
    long long hi = eval_int(e, ix->hi, 0, 0, "FORALL bound");
    long long st = eval_int(e, ix->st, 1, 0, "FORALL stride");
    if (e->failed || st == 0)
        return 0;
    if (st < 0) {                 /* the same iterations, ascending */
        long long t = hpfmap_trip((long)lo, (long)hi, (long)st);
        if (t <= 0)
            return 0;
        long long last = lo + (t - 1) * st;
        hi = lo;
        lo = last;
        st = -st;
    }
    int gdL = lg ? map[ki].gd : -1;
    int PL = gdL >= 0 ? lg->shape[gdL] : 1;
    Tmpl *mt = tmpl_of(e, arr->tmpl);
    int tR = arr->tdim[ds], gdR = arr->tmpl->gdim[tR];
    const HpfDim *hdR = &mt->d[tR];
    int PR = rg->shape[gdR];
    double *C = xcalloc((size_t)PL * (size_t)PR, sizeof *C);
    /* the pieces of i over which floor(q / N) is one k */
    long long qa = alpha * lo + beta, qb = alpha * hi + beta;
    long long qmin = qa < qb ? qa : qb, qmax = qa < qb ? qb : qa;
    long long kmin = qmin >= 0 ? qmin / N : -((-qmin + N - 1) / N);
    long long kmax = qmax >= 0 ? qmax / N : -((-qmax + N - 1) / N);
    HpfSeg sbuf[64], rbuf[64];
    for (long long k = kmin; k <= kmax; k++) {
        /* i with kN <= alpha i + beta <= kN + N - 1 */
        long long i1 = alpha > 0 ? k * N - beta : beta - k * N - N + 1;
        long long i2 = alpha > 0 ? k * N + N - 1 - beta : beta - k * N;
        if (i1 < lo)
            i1 = lo;
        if (i2 > hi)
            i2 = hi;
        if (i1 > i2)
            continue;
        i1 = lo + ((i1 - lo + st - 1) / st) * st;     /* on the triplet */
        if (i1 > i2)
            continue;
        /* the element's cell: ca (X + alpha i + beta - k N) + cb */
        long long A2 = arr->ca[ds] * alpha, B2 = arr->ca[ds] * (X + beta - k * N) + arr->cb[ds];
        for (int rc = 0; rc < PL; rc++) {
            HpfSeg one = {(long)i1, (long)i2, (long)st, 0, 0}, *ls = &one;
            long nl = 1;
            if (gdL >= 0) {
                nl = hpfmap_segments(map[ki].hd, rc, (long)map[ki].A, (long)map[ki].B, (long)i1,
                                     (long)i2, (long)st, sbuf, 64);
                if (nl > 64) {
                    free(C);
                    return 0;     /* many pieces: the general count */
                }
                ls = sbuf;
            }
            for (long s = 0; s < nl; s++)
                for (int qc = 0; qc < PR; qc++) {
                    if (ls[s].is == 1 && (A2 == 1 || A2 == -1)) {
                        /* consecutive cells: counted in closed form */
                        long c1 = (long)(A2 * ls[s].i1 + B2), c2 = (long)(A2 * ls[s].i2 + B2);
                        C[(size_t)rc * (size_t)PR + (size_t)qc] +=
                            (double)hpfmap_count_range(hdR, qc, c1 < c2 ? c1 : c2, c1 < c2 ? c2 : c1);
                        continue;
                    }
                    long nr = hpfmap_segments(hdR, qc, (long)A2, (long)B2, ls[s].i1, ls[s].i2,
                                              ls[s].is, rbuf, 64);
                    if (nr > 64) {
                        free(C);
                        return 0;
                    }
                    for (long u = 0; u < nr; u++)
                        C[(size_t)rc * (size_t)PR + (size_t)qc] +=
                            (double)((rbuf[u].i2 - rbuf[u].i1) / rbuf[u].is + 1);
                }
        }
    }
    /* by processor: its points of the other indices times the table */
    long long sub0[MAX_RANK];
    for (int d = 0; d < arr->rank; d++)
        sub0[d] = 1;
    int own0[MAX_RANK];
    owner_coords(e, arr, sub0, own0);
    PairMap pm = {0};
    int P = e->P;
    for (int p = 0; p < (lg ? P : 1); p++) {
        int coord[MAX_RANK];
        double n = runner_points(&ru, l, lg, p, ki, coord);
        if (n <= 0)
            continue;
        int rc = gdL >= 0 ? coord[gdL] : 0;
        for (int qc = 0; qc < PR; qc++) {
            double v = C[(size_t)rc * (size_t)PR + (size_t)qc] * n;
            if (v <= 0)
                continue;
            int own[MAX_RANK];
            for (int d = 0; d < rg->rank; d++)
                own[d] = d == gdR ? qc : own0[d] >= 0 ? own0[d] : rg == lg ? coord[d] : 0;
            int owner = hpfmap_rank(rg->rank, rg->shape, own);
            if (owner < P)
                pm_add(&pm, p, owner, v);
        }
    }
    free(C);
    pl_of_map(e, &pm, pl);
    return 1;
}

static int gather_pairs(Eng *e, Aau *a, const CommEntry *c, PairList *pl)
{
    /* the closed forms (HPFPREDICT_ELEMENTWISE set: the general count, for
       the tests that compare them) */
    if (!e->elementwise && (pairs_fixed_owner(e, c, pl, a->line) || pairs_cshift(e, c, pl)))
        return 1;
    PairMap pairs = {0}, *pm = &pairs;
    const SpLoop *l = c->loop;
    const SpArr *arr = c->g ? c->g->r->arr : c->arr;
    FiRefs rf;
    FiSpace sp;
    const Node *ref = c->kind == CM_SCATTER ? l->lhs : c->g->ref;
    const SpCtx *ctx = c->kind == CM_SCATTER ? (l->mask ? l->ctx_mask : l->ctx_iter) : c->g->ctx;
    if (!fi_space(e->fi, l, &sp)) {
        fi_missing_space(e->fi, l, a->line);
        e->failed = 1;
        return 0;
    }
    if (!fi_refs(e->fi, l, ref, ctx, &rf)) {
        fi_missing(e->fi, ref, a->line, "the index vector of a gather");
        e->failed = 1;
        return 0;
    }
    Grid *lg = arr_grid(e, l->arr), *rg = arr_grid(e, arr);
    int coord[MAX_RANK], own[MAX_RANK];
    long long sub[MAX_RANK];
    int P = e->P;
    IxMap map[MAX_RANK];
    if (lg)
        index_maps(e, l, map);
    if (pairs_dense(e, c, l, arr, lg, rg, map, &sp, &rf, pl))
        return 1;
    for (long i = 0; i < rf.n; i++) {
        int runner = 0;
        if (lg) {
            point_coords(l, map, lg, &sp, rf.point[i], coord);
            runner = hpfmap_rank(lg->rank, lg->shape, coord);
        }
        int owner = 0;
        if (rg) {
            for (int d = 0; d < rf.rank; d++)
                sub[d] = rf.sub[d][i];
            owner_coords(e, arr, sub, own);
            for (int d = 0; d < rg->rank; d++)
                if (own[d] < 0)
                    own[d] = rg == lg ? coord[d] : 0;
            owner = hpfmap_rank(rg->rank, rg->shape, own);
        } else
            owner = runner;
        if (runner >= P || owner >= P)
            continue;
        if (c->kind == CM_SCATTER)
            pm_add(pm, owner, runner, 1);
        else
            pm_add(pm, runner, owner, 1);
    }
    pl_of_map(e, pm, pl);
    return 1;
}

/* An expression whose value cannot change while the program runs: constants,
 * PARAMETERs, FORALL indices and intrinsics of those. */
static int invariant(const Node *n)
{
    if (!n)
        return 1;
    switch (n->kind) {
    case AST_INT_CONST: case AST_REAL_CONST: case AST_LOGICAL_CONST: return 1;
    case AST_NAME:
        return n->u.name.sym && (n->u.name.sym->kind == SYM_PARAMETER ||
                                 n->u.name.sym->kind == SYM_INDEX);
    case AST_BINARY: return invariant(n->u.binary.lhs) && invariant(n->u.binary.rhs);
    case AST_UNARY: case AST_PAREN: return invariant(n->u.unary.operand);
    case AST_REF:
        /* an intrinsic of the source, or one the lowering built (mod,
           max, min, merge of a CSHIFT's or EOSHIFT's subscripts) */
        if (!(n->u.ref.what == REF_INTRINSIC && !n->ir) &&
            !(n->u.ref.what == REF_FUNCTION && !n->u.ref.sym))
            return 0;
        for (int i = 0; i < n->u.ref.args.n; i++)
            if (!invariant(n->u.ref.args.v[i]))
                return 0;
        return 1;
    default: return 0;
    }
}

/* The pairs of a gather whose subscripts, loop bounds and mask are all
 * invariant are the same at every execution: computed once. */
static int gather_invariant(const CommEntry *c)
{
    const SpLoop *l = c->loop;
    const SpRef *r = c->kind == CM_SCATTER ? l->lhs->ir : c->g->r;
    const SpCtx *ctx = c->kind == CM_SCATTER ? NULL : c->g->ctx;
    if (ctx && ctx != l->ctx_iter && ctx != l->ctx_guard && ctx != l->ctx_mask)
        return 0;                 /* inside an inline reduction */
    if (!invariant(l->mask))
        return 0;
    for (int k = 0; k < l->nidx; k++)
        if (!invariant(l->idx[k].lo) || !invariant(l->idx[k].hi) || !invariant(l->idx[k].st))
            return 0;
    for (int d = 0; d < r->arr->rank; d++)
        if (!invariant(r->sub[d]))
            return 0;
    return 1;
}

static void gather(Eng *e, Aau *a, const CommEntry *c)
{
    const SpArr *arr = c->g ? c->g->r->arr : c->arr;
    PairList local = {0}, *pl = &local;
    if (!e->ginv)
        e->ginv = xcalloc((size_t)e->g->ncomm, 1);
    if (!e->ginv[c->id - 1])
        e->ginv[c->id - 1] = gather_invariant(c) ? 1 : -1;
    GatherCache *gc = NULL;
    if (e->ginv[c->id - 1] > 0) {
        for (int i = 0; i < e->ngcache && !gc; i++)
            if (e->gcache[i].c == c)
                gc = &e->gcache[i];
        if (!gc) {
            if (!gather_pairs(e, a, c, &local))
                return;
            e->gcache = xrealloc(e->gcache, (size_t)(e->ngcache + 1) * sizeof *e->gcache);
            e->gcache[e->ngcache] = (GatherCache){c, local, 0, NULL};
            gc = &e->gcache[e->ngcache++];
        }
        pl = &gc->pl;
    } else if (!gather_pairs(e, a, c, &local))
        return;
    int es = elsize(arr->type);
    double req = c->kind == CM_SCATTER ? 0 : 8.0 * arr->rank;
    double val = c->kind == CM_SCATTER ? es + 8.0 * arr->rank : es;
    if (gc && !gc->nround)
        make_rounds(e, gc, req, val);
    pairs_exchange(e, a, pl, req, val, gc);
    if (pl == &local)
        pl_free(&local);
}

/* The name of a communication in a trace. */
static const char *comm_name(int kind)
{
    switch (kind) {
    case CM_OVERLAP: return "shift";
    case CM_GATHER: return "gather";
    case CM_SCATTER: return "scatter";
    case CM_BCAST: case CM_BCASTIO: return "broadcast";
    case CM_REDUCE: return "allreduce";
    case CM_BARRIER: return "barrier";
    default: return "communication";
    }
}

/* The first collective of its kind in a run on several processors costs
 * MPI's set-up of it (coll.first.*) on every processor, once. */
static void first_coll(Eng *e, Aau *a, int *done, double t)
{
    if (*done || e->NP < 2)
        return;
    *done = 1;
    charge_all(e, a, M_COMM, t, NULL);
}

static void comm(Eng *e, Aau *a)
{
    const CommEntry *c = a->comm;
    begin(e);
    if (!c) {
        end(e, a, e->NP);
        return;
    }
    /* traced: one collective event on each processor encloses its steps */
    double *c0 = e->tr ? buf_get(e) : NULL;
    if (c0)
        memcpy(c0, e->clock, (size_t)e->P * sizeof *c0);
    if (e->pr.jitter > 0 && e->NP > 1) {
        /* the processes' times since their last communication vary (the
           operating system, the other processes of the node): the last of
           the k that meet arrives later than the model's time by the
           expected maximum of k normals times the deviation of that time;
           a shift meets two. comm.jitter is the relative deviation of a
           time of comm.jitter.interval (tau); a longer time T is made of
           T/tau such intervals varying independently, so that its
           deviation is comm.jitter x sqrt(T tau), not comm.jitter x T:
           charged once per synchronization, it does not grow with the
           iterations before it as their sum does */
        double z = hpfmap_normal_max(c->kind == CM_OVERLAP ? 2 : e->NP) * e->pr.jitter;
        double tau = e->pr.jitter_tau;
        for (int p = 0; p < e->P; p++) {
            double t = e->clock[p] - e->last_sync[p];
            charge(e, a, M_WAIT, p, z * (t <= tau ? t : sqrt(t * tau)));
        }
    }
    switch (c->kind) {
    case CM_OVERLAP: overlap_shift(e, a, c); break;
    case CM_GATHER:
    case CM_SCATTER: gather(e, a, c); break;
    case CM_BCAST: {
        int root = 0;
        const SpRef *r = c->elem ? c->elem->ir : NULL;
        if (r && r->arr && r->arr->tmpl) {
            long long sub[MAX_RANK];
            int own[MAX_RANK];
            for (int d = 0; d < r->arr->rank; d++)
                sub[d] = eval_int(e, r->sub[d], 1, a->line, "the owner of an element");
            owner_coords(e, r->arr, sub, own);
            Grid *g = arr_grid(e, r->arr);
            for (int d = 0; d < g->rank; d++)
                if (own[d] < 0)
                    own[d] = 0;
            root = hpfmap_rank(g->rank, g->shape, own);
        }
        charge_all(e, a, M_OVHD, e->pr.call_ovhd, NULL);
        first_coll(e, a, &e->bcast_done, e->pr.first_bcast);
        broadcast(e, a, root, elsize(c->type));
        break;
    }
    case CM_BCASTIO:
        charge_all(e, a, M_OVHD, e->pr.call_ovhd, NULL);
        first_coll(e, a, &e->bcast_done, e->pr.first_bcast);
        broadcast(e, a, 0, c->bytes > 0 ? (double)c->bytes : 8);
        break;
    case CM_REDUCE:
        charge_all(e, a, M_OVHD, e->pr.call_ovhd, NULL);
        first_coll(e, a, &e->red_done, e->pr.first_red);
        reduce_all(e, a, c->red_op, (double)c->bytes, c->type);
        break;
    case CM_BARRIER:
        sync_all(e, a);
        charge_all(e, a, M_OVHD, e->pr.sync, NULL);
        break;
    }
    if (e->pr.jitter > 0)
        memcpy(e->last_sync, e->clock, (size_t)e->P * sizeof *e->last_sync);
    if (c0) {
        for (int p = 0; p < e->P; p++)
            if (e->clock[p] > c0[p]) {
                TraceEvent ev = {c0[p], e->clock[p], p, TR_COLL, a->line, a->id, -1, -1, 0,
                                 comm_name(c->kind)};
                trace_add(e->tr, &ev);
            }
        buf_put(e, c0);
    }
    end(e, a, e->NP);
}

/* ---- dispatch -------------------------------------------------------------- */

static void walk(Eng *e, Aau *a, const double *mult)
{
    if (stopping(e) || e->failed)
        return;
    switch (a->cls) {
    case AAU_START:
    case AAU_END:
        begin(e);
        if (a->cls == AAU_START && !e->started) {
            /* the run-time library's first calls lay the data out
               (rt.start: the processor arrangement, the templates, the
               first descriptor; once a run) */
            e->started = 1;
            charge_all(e, a, M_OVHD, e->pr.rt_start, NULL);
        }
        end(e, a, e->NP);
        return;
    case AAU_SPAWN:
        walk_list(e, &a->kids, mult);
        return;
    case AAU_SEQ:
        seq(e, a, mult);
        return;
    case AAU_SYNCSEQ:
    case AAU_COMM:
    case AAU_SYNC:
        if (mult) {
            /* a communication inside a closed form cannot happen: the
               abstraction parse makes its loop IterSync */
            return;
        }
        comm(e, a);
        effect(e, a);
        return;
    case AAU_CALL:
        call(e, a, mult);
        return;
    case AAU_CONDTD:
    case AAU_CONDTSYNC:
        condt(e, a, mult);
        return;
    case AAU_ITERD:
    case AAU_ITERSYNC:
    case AAU_ITERND:
        switch (a->iter) {
        case ITER_DO: do_loop(e, a, mult); return;
        case ITER_WHILE: while_loop(e, a, mult); return;
        case ITER_FORALL:
        case ITER_COPY:
            if (e->loop == a->loop)
                forall_level(e, a, mult);
            else
                forall_nest(e, a, mult);
            if (!mult && a->tail)
                effect(e, a);
            return;
        case ITER_RED: red_loop(e, a, mult); return;
        }
        return;
    case AAU_NCLASS:
        return;
    }
}

/* A GOTO is resolved in the innermost list holding its target label: the
 * walk goes on from there. */
static void walk_list(Eng *e, const PtrVec *l, const double *mult)
{
    for (int i = 0; i < l->n; i++) {
        walk(e, l->v[i], mult);
        if (e->ctl == AST_GOTO) {
            int j;
            for (j = 0; j < l->n; j++) {
                const Aau *t = l->v[j];
                if (t->stmt && t->head && t->stmt->label == e->ctl_target)
                    break;
            }
            if (j == l->n)
                return;
            e->ctl = 0;
            i = j - 1;
            continue;
        }
        if (stopping(e) || e->failed)
            return;
    }
}

/* Whether the program allows classes: one processor grid for all its
 * templates (its shape in *shape), no gathers or scatters (their pairs are
 * per processor), tree or recursive-doubling collectives. */
static int classes_apply(Eng *e, int *shape)
{
    if (e->pr.bcast_alg == ALG_LINEAR || e->pr.red_alg == ALG_LINEAR)
        return 0;
    for (int i = 0; i < e->g->ncomm; i++)
        if (e->g->comm[i]->kind == CM_GATHER || e->g->comm[i]->kind == CM_SCATTER)
            return 0;
    int rank = 0;
    for (int u = 0; u < e->g->prog->units.n; u++) {
        const SpUnit *su = e->g->prog->units.v[u];
        for (int i = 0; i < su->tmpls.n; i++) {
            const SpTmpl *t = su->tmpls.v[i];
            int sh[MAX_RANK];
            int rk = grid_shape(e, t->onto, sh);
            if (rank && (rk != rank || memcmp(sh, shape, (size_t)rk * sizeof *sh)))
                return 0;
            rank = rk;
            memcpy(shape, sh, (size_t)rk * sizeof *sh);
        }
    }
    if (!rank) {
        shape[0] = e->NP;
        rank = 1;
    }
    return rank;
}

/* The classes of this run: from the cuts kept in o->cls, made on the first
 * run where the grid's boundaries and the templates' ownership change. */
static void setup_classes(Eng *e, const EngineOptions *o)
{
    EngineClasses *k = o->cls;
    if (!k || k->off || o->trace || o->classes == ENGINE_CLASSES_NEVER ||
        (o->classes == ENGINE_CLASSES_AUTO && e->NP <= ENGINE_CLASSES_FROM))
        return;
    if (++k->runs > 8) {
        /* refined again and again: every processor on its own */
        k->off = 1;
        return;
    }
    int shape[MAX_RANK];
    int rank = classes_apply(e, shape);
    if (!rank) {
        k->off = 1;
        return;
    }
    if (!k->rank) {
        k->rank = rank;
        memcpy(k->shape, shape, sizeof shape);
        for (int d = 0; d < rank; d++) {
            int n = shape[d];
            k->cut[d] = xcalloc((size_t)n + 1, 1);
            /* the boundary layers of the grid, three deep, on their own */
            for (int c = 0; c <= n && c <= 3; c++) {
                k->cut[d][c] = 1;
                k->cut[d][n - c] = 1;
            }
        }
        /* where the processors' holdings change (the templates set up
           for one processor: the grids' coordinates are not needed) */
        e->P = 1;
        for (int u = 0; u < e->g->prog->units.n; u++) {
            const SpUnit *su = e->g->prog->units.v[u];
            for (int i = 0; i < su->tmpls.n; i++) {
                const SpTmpl *t = su->tmpls.v[i];
                Tmpl *m = tmpl_of(e, t);
                for (int td = 0; td < t->rank; td++) {
                    int gd = t->gdim[td];
                    if (gd < 0)
                        continue;
                    for (int c = 1; c < shape[gd]; c++)
                        if (hpfmap_count(&m->d[td], c) != hpfmap_count(&m->d[td], c - 1))
                            k->cut[gd][c] = 1;
                }
            }
        }
        /* the templates were set up for all processors: again below */
        for (int i = 0; i < e->grids.n; i++) {
            free(((Grid *)e->grids.v[i])->coords);
            free(e->grids.v[i]);
        }
        for (int i = 0; i < e->tmpls.n; i++)
            free(e->tmpls.v[i]);
        e->grids.n = e->tmpls.n = e->laid.n = 0;
    }
    k->pending = 0;
    e->ec = k;
    long C = 1;
    int co[MAX_RANK];
    for (int d = 0; d < rank; d++) {
        e->of[d] = xmalloc((size_t)k->shape[d] * sizeof *e->of[d]);
        int i = -1;
        for (int c = 0; c < k->shape[d]; c++)
            e->of[d][c] = i += c == 0 || k->cut[d][c];
        e->nint[d] = i + 1;
        e->ilo[d] = xmalloc((size_t)e->nint[d] * sizeof *e->ilo[d]);
        e->ihi[d] = xmalloc((size_t)e->nint[d] * sizeof *e->ihi[d]);
        for (int c = k->shape[d] - 1; c >= 0; c--)
            e->ilo[d][e->of[d][c]] = c;
        for (int c = 0; c < k->shape[d]; c++)
            e->ihi[d][e->of[d][c]] = c;
        e->stride[d] = (int)C;
        C *= e->nint[d];
    }
    e->P = (int)C;
    e->rep = xmalloc((size_t)C * sizeof *e->rep);
    e->cnt = xmalloc((size_t)C * sizeof *e->cnt);
    /* the representative: the last coordinate of each interval (the one a
       binomial tree reaches last) */
    int *last[MAX_RANK], *len[MAX_RANK];
    for (int d = 0; d < rank; d++) {
        last[d] = xcalloc((size_t)e->nint[d], sizeof **last);
        len[d] = xcalloc((size_t)e->nint[d], sizeof **len);
        for (int c = 0; c < k->shape[d]; c++) {
            last[d][e->of[d][c]] = c;
            len[d][e->of[d][c]]++;
        }
    }
    for (long v = 0; v < C; v++) {
        long x = v;
        double n = 1;
        for (int d = 0; d < rank; d++) {
            int i = (int)(x % e->nint[d]);
            x /= e->nint[d];
            co[d] = last[d][i];
            n *= len[d][i];
        }
        e->rep[v] = hpfmap_rank(rank, k->shape, co);
        e->cnt[v] = n;
    }
    for (int d = 0; d < rank; d++) {
        free(last[d]);
        free(len[d]);
    }
}

int engine_run(Aag *g, Fi *fi, const SagGraph *sag, const EngineOptions *o, EngineResult *r)
{
    Eng E = {0}, *e = &E;
    e->g = g;
    e->fi = fi;
    e->node = engine_node_unit(sag);
    read_params(&e->pr, e->node);
    e->overlap = o->overlap < 0 ? 0 : o->overlap > 1 ? 1 : o->overlap;
    e->NP = e->P = o->np > 0 ? o->np : 1;
    e->cube_dim = bits_for(e->NP);
    e->tr = o->trace;
    e->inline_calls = o->inline_calls;
    e->trips = o->trips;
    e->ntrips = o->ntrips;
    e->unroll = o->unroll;
    e->elementwise = getenv("HPFPREDICT_ELEMENTWISE") != NULL;
    e->res = r;
    memset(r, 0, sizeof *r);
    setup_classes(e, o);
    e->clock = vec_new(e);
    e->ex = vec_new(e);
    e->v1 = vec_new(e);
    e->last_sync = vec_new(e);
    for (int m = 0; m < M_N; m++)
        e->acc[m] = vec_new(e);
    for (int i = 0; i < g->naau; i++) {
        Aau *a = g->aau[i];
        memset(a->m_sum, 0, sizeof a->m_sum);
        a->m_max = a->m_min = a->execs = a->calls = 0;
    }
    walk(e, g->root, NULL);
    if (e->ctl == AST_STOP)
        e->ctl = 0;
    r->np = e->NP;
    r->min_total = INFINITY;
    int slow = 0;
    for (int p = 0; p < e->P; p++) {
        if (p == 0 || e->clock[p] > r->total) {
            r->total = e->clock[p];
            slow = p;
        }
        if (e->clock[p] < r->min_total)
            r->min_total = e->clock[p];
        for (int m = 0; m < M_N; m++)
            r->mean[m] += e->acc[m][p] * weight(e, p) / e->NP;
    }
    for (int m = 0; m < M_N; m++)
        r->part[m] = e->acc[m][slow];
    r->slowest = rank_of(e, slow);
    r->aau_visits = e->visits;
    r->extrapolated = e->extrapolated;
    r->fi_steps = fi_steps(fi);
    r->node = sag_unit_name(e->node);
    r->cube_dim = e->cube_dim;
    int failed = e->failed || fi_stopped(fi);
    for (int k = 0; failed && k < e->nloops && k < 4; k++) {
        r->stop[k].line = e->loops[k].a->line;
        r->stop[k].iter = e->loops[k].iter;
        r->stop[k].trips = e->loops[k].trips;
        r->nstop = k + 1;
    }
    int again = 0;
    if (e->ec) {
        e->ec->used = e->P;
        again = e->ec->pending;
        for (int d = 0; d < e->ec->rank; d++) {
            free(e->of[d]);
            free(e->ilo[d]);
            free(e->ihi[d]);
        }
        free(e->rep);
        free(e->cnt);
    }
    free(e->clock);
    free(e->ex);
    free(e->v1);
    free(e->last_sync);
    for (int m = 0; m < M_N; m++)
        free(e->acc[m]);
    for (int i = 0; i < e->grids.n; i++) {
        free(((Grid *)e->grids.v[i])->coords);
        free(e->grids.v[i]);
    }
    for (int i = 0; i < e->tmpls.n; i++)
        free(e->tmpls.v[i]);
    free(e->grids.v);
    free(e->tmpls.v);
    free(e->laid.v);
    free(e->cvar);
    for (int i = 0; e->memo && i < g->naau; i++) {
        free(e->memo[i].cv);
        free(e->memo[i].fp);
        free(e->memo[i].cost);
        free(e->memo[i].fp_steps);
        free(e->memo[i].fpk);
    }
    free(e->memo);
    free(e->ginv);
    for (int i = 0; e->pcc && i < PC_KEEP; i++)
        free(e->pcc[i].out);
    for (int i = 0; e->lcc && i < g->naau; i++)
        free(e->lcc[i].v);
    free(e->lcc);
    free(e->pcc);
    for (int i = 0; i < e->ngcache; i++) {
        pl_free(&e->gcache[i].pl);
        rounds_free(&e->gcache[i]);
    }
    for (size_t i = 0; i < e->ixcap; i++)
        free(e->ixc[i].c);
    free(e->ixc);
    free(e->gcache);
    for (int i = 0; i < e->npool; i++)
        free(e->pool[i]);
    free(e->pool);
    return failed ? -1 : again ? 1 : 0;
}
