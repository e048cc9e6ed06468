/* hpfrt_impl.h - the inside of libhpfrt, shared by hpfrt.c (start and end,
 * descriptors, iteration sets, timers) and hpfrt_comm.c (communication).
 * Not installed. All the library's state is the one struct hpfrt_rt. */
#ifndef HPFRT_IMPL_H
#define HPFRT_IMPL_H

#include <stddef.h>

#include <mpi.h>

#include "hpfmap.h"
#include "hpfrt.h"

enum { RT_MAXR = HPFMAP_MAX_RANK };

/* A processor arrangement (a handle from hpfrt_procs_new). */
typedef struct {
    int used, committed;
    char *name;
    int r;
    long declared[RT_MAXR];   /* as given by hpfrt_procs_dim (0 if not given) */
    int shape[RT_MAXR];       /* after re-forming */
} RtProcs;

/* The grid a template is distributed onto, with this process's place. */
typedef struct {
    int r;                    /* grid rank */
    int shape[RT_MAXR];
    int coords[RT_MAXR];      /* this process's coordinates */
} RtGrid;

/* A template (a handle from hpfrt_tmpl_new). */
typedef struct {
    int used, committed;
    int refs;                 /* arrays laid out on it */
    int released;             /* hpfrt_tmpl_free called: freed with its last array */
    char *name;
    int r;
    int set[RT_MAXR];                       /* hpfrt_tmpl_dim called */
    long lb[RT_MAXR], ub[RT_MAXR];
    int fmt[RT_MAXR], k[RT_MAXR];
    int plo[RT_MAXR], phi[RT_MAXR];         /* hpfrt_tmpl_ghost */
    /* after commit */
    long serial;                            /* identity of this commit */
    RtGrid grid;
    int gdim[RT_MAXR];                      /* grid dimension, -1 for '*' */
    HpfDim hd[RT_MAXR];
} RtTmpl;

/* What a grid dimension is to an array. */
enum { G_REPL = 0,     /* replicated: every coordinate holds a copy */
       G_ALIGNED = 1,  /* an array dimension is distributed along it */
       G_FIXED = 2 };  /* the array sits at one coordinate of it */

/* One dimension of an array. */
typedef struct {
    int set;
    long lb, ub;
    int tdim;                 /* 1-based template dimension, 0: local */
    long alpha, beta;         /* cell = alpha*i + beta */
    int glo, ghi;             /* ghost widths */
    /* after commit */
    int g;                    /* grid dimension (0-based), -1 when local */
    HpfDim hd;                /* the template dimension (when distributed) */
    long count;               /* cells owned here (distributed dims) */
    long lo, hi;              /* allocation bounds, ghosts included */
    size_t stride;            /* in elements, column-major */
} RtArrDim;

/* A distributed array descriptor (a handle from hpfrt_arr_new). */
typedef struct {
    int used, committed;
    char *name;
    int ht;                   /* template handle, 0: unmapped */
    int r;
    int esize;
    RtArrDim dim[RT_MAXR];
    int fixset[RT_MAXR];      /* per template dimension: hpfrt_arr_fix */
    long fixcell[RT_MAXR];
    /* after commit: a snapshot of the template's mapping */
    long tserial;             /* identity of the template commit */
    long serial;              /* identity of this commit (rt.serial) */
    RtGrid grid;              /* grid.r == 0 for an unmapped array */
    int grole[RT_MAXR];       /* G_* per grid dimension */
    int gfix[RT_MAXR];        /* G_FIXED: the coordinate holding the array */
    int gdim[RT_MAXR];        /* G_ALIGNED: the array dimension (0-based) */
    int present, primary;
    int everywhere;           /* every process holds all of it */
    size_t nloc;              /* local elements, ghosts included */
} RtArr;

/* A memoized local iteration set. */
typedef struct {
    long key[10];
    long nseg, ntrip;
    HpfSeg *seg;
} RtLoop;

/* Accumulated times of one source region on this process. */
typedef struct {
    int line;
    long calls;
    double time, comm;
    double iters;             /* the points of the statement's loops, summed */
} RtRegion;

/* An open region (the stack of nested regions). */
typedef struct {
    int line;
    double t0;                /* MPI_Wtime at begin */
    double inner;             /* time of the regions nested in it */
    double comm;              /* communication time while innermost */
    double points;            /* this execution's points: the product of its levels'
                                 iterations (hpfrt_loop, hpfrt_region_trips) */
    int looped;               /* a level was counted */
} RtFrame;

struct hpfrt_state {
    int inited, finalized;
    int profile;              /* HPFRT_PROFILE set (as rank 0 sees it): the
                                 region timers run; without it they return at once */
    MPI_Comm comm;            /* a duplicate of MPI_COMM_WORLD */
    int rank, np;
    int placement;            /* HPFMAP_LINEAR or HPFMAP_GRAY (HPFRT_PLACEMENT) */
    long serial;              /* template commits so far */
    RtProcs *procs; int nprocs_tab, maxprocs_tab;
    RtTmpl *tmpl; int ntmpl, maxtmpl;
    RtArr *arr; int narr, maxarr;
    RtLoop *loop; int nloop, maxloop;
    int *hash; int hashsize;  /* open addressing: loop index + 1, 0 empty */
    RtRegion *reg; int maxreg;   /* indexed by source line */
    char *values;                 /* hpfrt_values: "n=256\nmaxit=10\n" */
    double region_cost;           /* seconds a region's timers take (profiling) */
    long long entries;            /* region entries so far (hpfrt_region_begin) */
    long long probe_count;        /* the software probe's count of them (a loop it leaves
                                     early moves it to the loop's end) */
    long long probe_next;         /* the count at which the probe next starts or stops a
                                     timer (rt_probe_region); -1: none */
    double t_start;               /* MPI_Wtime at hpfrt_init */
    RtFrame *stack; int depth, maxdepth;
    struct RtSite *site; int nsite, maxsite;   /* gather schedules (hpfrt_comm.c) */
    long sched_clock;         /* gathers with a schedule so far: their LRU order */
};

extern struct hpfrt_state hpfrt_rt;

/* Element types of the _T routines: RT_i4, RT_i8, ... (HPFRT_TYPES). */
#define RT_TYPE_ENUM(T, C) RT_##T,
enum { HPFRT_TYPES(RT_TYPE_ENUM) RT_NTYPES };
#undef RT_TYPE_ENUM

/* The functions shared by the two files: exported from the static
 * library, so under names in the library's own name space. */
#define rt_error hpfrt__error
#define rt_alloc hpfrt__alloc
#define rt_grow hpfrt__grow
#define rt_need_init hpfrt__need_init
#define rt_arr hpfrt__arr
#define rt_offset hpfrt__offset
#define rt_g2l hpfrt__g2l
#define rt_owner_rank hpfrt__owner_rank
#define rt_comm_begin hpfrt__comm_begin
#define rt_comm_end hpfrt__comm_end
#define rt_sched_free hpfrt__sched_free
#define rt_probe_init hpfrt__probe_init
#define rt_probe_region hpfrt__probe_region
#define rt_probe_finish hpfrt__probe_finish

/* Errors: "hpfrt: error: ..." on stderr, then the whole run ends. */
_Noreturn void rt_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void *rt_alloc(size_t n);                        /* malloc or error */
void *rt_grow(void *p, size_t n);                /* realloc or error */
void rt_need_init(const char *fn);
RtArr *rt_arr(int ha, const char *fn);           /* a committed array */
size_t rt_offset(const RtArr *a, const long *l); /* local indices -> element */
long rt_g2l(const RtArr *a, int d, long i);      /* global -> local index */
int rt_owner_rank(const RtArr *a, const long *cell, int repl_mine);
/* Time spent in communication, charged to the innermost open region. */
double rt_comm_begin(void);
void rt_comm_end(double t0);
/* The gather schedules kept (hpfrt_finalize). */
void rt_sched_free(void);
/* The software probe (hpfrt_probe.c, HPFRT_PROBE): set up at the start
 * (on every process, when rank 0 has HPFRT_PROBE), told of each region
 * entry, ended with the run. */
void rt_probe_init(void);
void rt_probe_region(long long pos);
void rt_probe_finish(void);

#endif
