/* spmd.h - the SPMD IR: what the owner-computes lowering makes of a checked
 * program, read by the Fortran emitter (hpfc -o) and by the abstraction
 * parse of hpfpredict. One structure with two readers: what hpfc emits is
 * what hpfpredict predicts. Documented in doc/spmd.md.
 *
 * Expressions stay AST nodes (copies made by the lowering); an array
 * element reference in lowered code is an AST_REF whose `ir` points to an
 * SpRef saying how it is accessed (local, gathered into a temporary, ...),
 * and an inline reduction (SUM(a(i,:)) inside a FORALL, a DIM= reduction,
 * MATMUL) is an AST_REF to the intrinsic whose `ir` points to an SpRed. */
#ifndef HPF_SPMD_H
#define HPF_SPMD_H

#include "sema.h"

/* ---- the data mapping ------------------------------------------------- */

typedef struct SpProcs {
    int id;                       /* from 1, in declaration order */
    const char *name;
    int rank;
    Node *ext[MAX_RANK];          /* declared extents; NULL: NUMBER_OF_PROCESSORS() */
} SpProcs;

typedef struct SpTmpl {
    int id;
    const char *name;             /* the TEMPLATE, or the array distributed directly */
    int rank;
    Node *lo[MAX_RANK], *hi[MAX_RANK];
    int fmt[MAX_RANK];            /* HPFMAP_STAR, _BLOCK, _BLOCKK, _CYCLIC */
    Node *k[MAX_RANK];            /* argument of BLOCK(k) / CYCLIC(k), or NULL */
    SpProcs *onto;                /* NULL: the default 1-D arrangement */
    int gdim[MAX_RANK];           /* grid dimension of a distributed dimension, or -1 */
    int at_alloc;                 /* an ALLOCATABLE array distributed directly: laid out
                                     by its ALLOCATE, its bounds hpfc's variables */
    const struct Symbol *array;   /* that array (at_alloc; a REDISTRIBUTE's version too) */
    int glo[MAX_RANK], ghi[MAX_RANK];   /* overlap areas around every block of a CYCLIC(k)
                                     or BLOCK(k) dimension: the widest ghost cells of the
                                     arrays aligned with it or with a dimension laid out
                                     alike (pass_ghosts), which then all have them */
} SpTmpl;

typedef struct SpArr {
    int id;
    Symbol *sym;                  /* NULL for a temporary */
    const char *name;
    Type type;
    int rank;
    Node *lo[MAX_RANK], *hi[MAX_RANK];   /* declared bounds */
    SpTmpl *tmpl;                 /* NULL: a full copy on every processor */
    int tdim[MAX_RANK];           /* distributed template dimension it is aligned with, or -1 (local) */
    Node *alpha[MAX_RANK], *beta[MAX_RANK];   /* template cell = alpha*i + beta */
    long long ca[MAX_RANK], cb[MAX_RANK];     /* their values when known (cknown) */
    int cknown[MAX_RANK];
    Node *fix[MAX_RANK];          /* per template dimension no array dimension is aligned
                                     with: the constant cell, or NULL: replicated */
    int glo[MAX_RANK], ghi[MAX_RANK];   /* ghost cells for overlap shifts */
    int allocatable;
    int adim[MAX_RANK];           /* the template dimension it is aligned with, distributed
                                     or not (alpha, beta hold for it), or -1 */
    int version;                  /* 0, or k for the k-th mapping a REDISTRIBUTE or REALIGN
                                     gave it: allocated only while it holds the array */
    int at_alloc;                 /* ALLOCATABLE: its descriptor made by its ALLOCATE, its
                                     bounds (lo, hi) hpfc's variables that the ALLOCATE sets */
    int passed;                   /* a dummy argument as its actual is mapped: storage and
                                     descriptor come with the call (dummy: its position, 1..);
                                     2: the actual's bounds are known at run time only, and
                                     the callee checks they are the dummy's */
    int dummy;
    struct Symbol *bvar[MAX_RANK];   /* passed: an integer variable of the callee's holding
                                     beta when the actual's is not constant (ALIGN
                                     b(:) WITH a(:) of ALLOCATABLE arrays), set on
                                     entry from the descriptor (hpfrt_beta) */
} SpArr;

/* ---- accesses ------------------------------------------------------------ */

typedef enum {
    ACC_GLOBAL,      /* an array with a full copy everywhere: global subscripts */
    ACC_LOCAL,       /* owned here (or in the ghost cells): local indices */
    ACC_TEMP,        /* fetched before the loop into a temporary */
    ACC_BCAST,       /* scalar context: broadcast into a scalar temporary */
    ACC_SCATTER      /* left-hand side through an index vector: sent to its owners */
} AccKind;

/* Communication patterns, classified by comparing a reference's mapping
 * with the left-hand side's (or the reduction driver's). */
typedef enum {
    PAT_NONE,        /* aligned */
    PAT_OVERLAP,     /* constant offset on a BLOCK dimension: ghost cells */
    PAT_BCAST,       /* one element to every processor */
    PAT_MULTICAST,   /* fixed index on a distributed dimension, or replicated use */
    PAT_TRANSPOSE,   /* permuted indices */
    PAT_CSHIFT,      /* circular shift (CSHIFT, EOSHIFT) */
    PAT_INDIRECT,    /* through an index vector: inspector/executor */
    PAT_REMAP,       /* differently mapped: general redistribution */
    PAT_REDUCE,      /* combining partial results */
    PAT_COUNT
} Pattern;

extern const char *const pattern_name[PAT_COUNT];

typedef struct SpGather SpGather;

typedef struct SpRef {
    AccKind acc;
    SpArr *arr;
    Node *sub[MAX_RANK];          /* global subscripts, lowered */
    int lvar[MAX_RANK];           /* ACC_LOCAL: the loop index (SpLoop.idx) whose local
                                     index the dimension uses; -1: a local dimension
                                     (global subscript); -2: hpfrt_g2l of the subscript */
    long long delta[MAX_RANK];    /* ACC_LOCAL: offset in template cells (overlap) */
    SpGather *g;                  /* ACC_TEMP */
    int temp;                     /* ACC_BCAST: the scalar temporary */
} SpRef;

/* A contiguous place in a loop body where references are evaluated the same
 * number of times: the iteration itself, under the mask, inside an inline
 * reduction's loop, under its mask. Each has a counter variable. */
typedef struct SpCtx {
    int id;                       /* counter variable number */
    struct SpCtx *parent;
    int minround;                 /* gathers here wait for the rounds of their conditions */
    int used;                     /* some gather counts here */
} SpCtx;

struct SpGather {
    Node *ref;                    /* the AST_REF being fetched */
    SpRef *r;
    SpCtx *ctx;
    int round;                    /* gathers of round k use values of rounds < k */
    int buf, idx;                 /* temporaries: values, global indices */
    Pattern pat;
};

typedef struct SpRed {
    int op;                       /* HPFRT_SUM ... (runtime/hpfrt.h); MAXLOC/MINLOC below */
    int loc;                      /* 1: MAXLOC/MINLOC with DIM=: the result is a position */
    Symbol *var;                  /* the index it runs (0-based position) */
    Node *n;                      /* trip count */
    Node *body, *mask;            /* lowered; mask may be NULL */
    SpCtx *ctx_iter, *ctx_body;   /* contexts: each iteration, and under the mask */
    int acc, pos;                 /* scalar temporaries: accumulator, position */
    Type type;
} SpRed;

/* ---- loops --------------------------------------------------------------- */

/* One overlap exchange of a loop: an array dimension, the widest ghost
 * widths, below and above, that the loop's references need, and the box
 * the references shifted along it read: per array dimension the lowest
 * and highest subscript over the loop's iterations (global subscripts,
 * evaluated as the loop starts; NULL: the whole dimension), and per
 * distributed dimension how far past its own block a processor reads
 * (ext[e][0] cells below, ext[e][1] above: the offsets of those
 * references there; 0 0: its own cells only, no ghost cells of that
 * dimension). Only that part of the boundary is exchanged. */
typedef struct {
    const SpArr *arr;
    int dim;
    long long below, above;
    Node *lo[MAX_RANK], *hi[MAX_RANK];
    int ext[MAX_RANK][2];
} SpOverlap;

typedef struct SpIndex {
    Symbol *var;
    Node *lo, *hi, *st;           /* lowered */
    int dist;                     /* iterations are the owned ones of arr's dimension dim */
    SpArr *arr;
    int dim;
    Node *a, *b;                  /* the subscript there: a*var + b */
    long long a_const;            /* a; 0: a constant cell b (a loop of one trip) */
    int lp;                       /* number of its loop handle and segment variables */
} SpIndex;

typedef struct SpGuard {          /* left-hand dimension held by a test */
    int dim;
    Node *sub;
} SpGuard;

/* A lowered FORALL (one assignment), or a reduction to a scalar. */
typedef struct SpLoop {
    int nidx;
    SpIndex *idx;                 /* FORALL order; the emitter nests the first innermost */
    int nguard;
    SpGuard guard[MAX_RANK];
    Node *mask;                   /* lowered, or NULL */
    Node *lhs;                    /* AST_REF (ACC_LOCAL or ACC_GLOBAL); NULL: reduction */
    Node *rhs;
    SpArr *arr;                   /* the left-hand array, or the driver of a reduction or a
                                     scatter (NULL: none, every processor runs everything) */
    int lhs_temp;                 /* assign through a temporary (the array is read too) */
    int apart;                    /* it gathers from the array it assigns, and the
                                     elements assigned and those gathered are apart
                                     (a range each, apart in one dimension): always, or
                                     when direct_if holds; one process may then read
                                     them in place (spmd_direct_one) */
    Node *direct_if;
    int tbuf, tmask;              /* its temporaries: values, and the mask when there is one */
    int scatter;                  /* the left-hand side goes through an index vector: the
                                     iterations run where the driver arr is owned, values
                                     and indices go to tbuf and tidx, then hpfrt_scatter */
    int tidx;
    SpCtx *ctx_iter;              /* each iteration: guard subscripts */
    SpCtx *ctx_guard;             /* past the guards: the mask */
    SpCtx *ctx_mask;              /* under the mask: the assignment */
    PtrVec gathers;               /* SpGather */
    int nrounds;
    PtrVec overlaps;              /* SpRef of the references needing ghost cells */
    SpOverlap *ovl;               /* the exchanges they make, in the order they run (arrays
                                     in the order of their first reference, dimensions
                                     ascending) */
    int novl;
    /* reductions */
    int red_op;                   /* HPFRT_SUM ...; 0 for an assignment */
    int red_loc;                  /* MAXLOC/MINLOC: the result is red_pos, the position
                                     (of rank > 1: in array element order, from 1) */
    int red_rank;                 /* MAXLOC/MINLOC: the rank of the argument (its first
                                     red_rank indices are the positions) */
    int red_acc, red_pos;         /* scalar temporaries: the extreme, its position */
    Type red_type;
    int primary;                  /* only the first copy of the driver contributes */
    int remap;                    /* a copy between two versions of an array (dynamic.c) */
} SpLoop;

/* ---- statements ---------------------------------------------------------- */

typedef enum {
    SP_SEQ,          /* executed by every processor: scalar assignment, CALL, EXIT ... */
    SP_STORE,        /* a scalar value into an element of a mapped array: its owners */
    SP_FORALL,       /* SpLoop */
    SP_REDUCE,       /* SpLoop with red_op: a scalar temporary from all processors */
    SP_BCAST,        /* a scalar temporary = an element of a mapped array */
    SP_DO, SP_WHILE, SP_IF,
    SP_IO,           /* PRINT, WRITE, OPEN, CLOSE on the I/O processor; READ there, then broadcast */
    SP_ALLOC, SP_DEALLOC,
    SP_STOP, SP_RETURN
} SpKind;

typedef struct SpStmt SpStmt;

typedef struct SpBranch {
    PtrVec pre;                   /* statements computing the condition's parts */
    Node *cond;                   /* NULL: ELSE */
    PtrVec body;
} SpBranch;

struct SpStmt {
    SpKind kind;
    int line;                     /* source line */
    Loc loc;                      /* the source statement's span */
    int label;                    /* statement label, 0 if none */
    Node *src;                    /* the source statement */
    int remap;                    /* SP_ALLOC, SP_DEALLOC: a version's storage around a
                                     remap (dynamic.c); the array's values and allocation
                                     status are not changed */
    union {
        Node *seq;                /* SP_SEQ: a lowered statement */
        struct { Node *lhs, *rhs; } store;        /* lhs: AST_REF, ACC_GUARD */
        SpLoop *loop;             /* SP_FORALL, SP_REDUCE */
        struct { int temp; Node *ref; } bcast;    /* ref: AST_REF with global subscripts */
        struct { Node *var, *lo, *hi, *st; PtrVec body; int end_label; } do_;
        struct { PtrVec pre; Node *cond; PtrVec body; int end_label; } while_;   /* cond NULL: DO forever */
        struct { PtrVec branches; } if_;          /* SpBranch */
        struct { Node *stmt; PtrVec reads; } io;   /* reads: the variables READ fills */
        struct { PtrVec items; } alloc;            /* AST_REF items; ir: SpArr when mapped */
        struct { Node *code; } stop;
    } u;
};

/* ---- temporaries and units ------------------------------------------------- */

typedef struct SpTemp {
    int id;
    Type type;
    int rank;                     /* 0 scalar, 1 buffer, 2 index list */
} SpTemp;

/* A replicated temporary array (a WHERE mask, data gathered for output,
 * an array constructor): an SpArr with no template and no symbol. */

typedef struct SpUnit {
    Node *unit;                   /* the AST_UNIT */
    Scope *scope;
    PtrVec procs, tmpls, arrs;    /* SpProcs, SpTmpl, SpArr (mapped arrays only) */
    PtrVec body;                  /* SpStmt */
    PtrVec temps;                 /* SpTemp */
    int ncounters;                /* counter variables */
    int nloopvars;                /* loop handles / segment variables */
    PtrVec index_syms;            /* FORALL indices turned into loop variables */
    PtrVec temp_arrs;             /* SpArr: replicated temporary arrays */
    PtrVec hidden;                /* Symbol: integer variables of hpfc's (the bounds of
                                     mapped ALLOCATABLE arrays), in the unit's scope */
    PtrVec passed;                /* SpArr: its mapped dummies, as their actuals are mapped;
                                     their descriptors and local bounds are extra arguments */
    int main;                     /* the main program: init and finalize the run time */
    int internal;                 /* after CONTAINS in its host */
    struct SpUnit *host;          /* its host: its mapped arrays are visible here too */
    const char *name;             /* the name it is compiled and called by (a clone's is
                                     hpfc's); NULL for an unnamed main program */
    const struct SpUnit *clone_of;   /* a copy compiled for other mappings of the dummies
                                        (passing.c): the procedure as written; else NULL */
    PtrVec fclones;               /* SpUnit: clones of external functions it references
                                     (their names are declared with their type) */
    PtrVec hostvers;              /* SpArr: an internal procedure's copy compiled for
                                     these versions of its host's arrays (remapped in
                                     the host, dynamic.c), in place of their first */
} SpUnit;

/* The synthetic probe (hpfc --probe, probe_synth.c): per phase of
 * hpfpredict --save-phases, the main program's statements its
 * representative interval runs and their executions there. */
typedef struct {
    int phase;
    double rep_work, phase_work;  /* operations: the representative's, the phase's */
    int top_line;                 /* the main program's DO it lies in (0: none) */
    long long top_iter;           /* and its iteration */
    PtrVec stmts;                 /* const SpStmt *: regions of the main program */
    PtrVec counts;                /* double *: each one's executions in the interval */
    PtrVec wraps;                 /* const SpStmt *: the DO nested in the phase's DO that
                                     a statement runs in, whose variable it reads (run
                                     whole around it, its bounds known); or the DO WHILE
                                     of the phase's DO's body it lies in (run whole after
                                     the assignments before it); or NULL */
    PtrVec wrap_in;               /* const PtrVec *: for a DO WHILE in wraps, the statements
                                     it lies among (its prelude: the scalar assignments
                                     before it there); else NULL */
} SpProbePhase;

typedef struct SpProbe {
    const char *fingerprint;      /* of the program the phases were found for */
    int np;
    PtrVec phases;                /* SpProbePhase */
    PtrVec setup;                 /* const SpStmt *: the main program's statements before
                                     its first DO loop the probe runs first: its scalar
                                     assignments, and the statements that set arrays
                                     from what the probe knows */
} SpProbe;

typedef struct SpProgram {
    PtrVec units;                 /* SpUnit, in source order (internal ones after their host) */
    const char *prefix;           /* of generated names, not clashing with the program's */
    const char *values;           /* the PARAMETERs -D set, "n=256 maxit=10" (NULL: none):
                                     the program tells the run time (hpfrt_values), which
                                     writes them into its profile for hpfpredict --fit */
    const SpProbe *probe;         /* hpfc --probe: emit the synthetic probe (NULL: the
                                     program) */
} SpProgram;

/* Lowers a checked file; diagnostics for what the lowering cannot handle
 * (each names the construct and why). NULL when there were errors. */
SpProgram *spmd_lower(Node *file, Arena *a, Diag *d);

void spmd_dump(FILE *out, const SpProgram *p);                 /* spmd_dump.c */

/* The procedure of the program a CALL or a function reference in unit from
 * calls, found as sema finds it: by its symbol, else by name among the
 * internal procedures of from and of its hosts, then the file's; NULL if
 * it is not in the file (passing.c). In the lowered program a call to a
 * clone names the clone. */
const SpUnit *spmd_callee(const SpProgram *p, const SpUnit *from, const Node *call);
const SpUnit *spmd_unit_named(const SpProgram *p, const SpUnit *from, const char *name);


/* An expression whose value cannot change while the program runs:
 * constants, PARAMETERs, FORALL indices and intrinsics of those. */
int spmd_invariant(const Node *n);
/* An expression of constants, PARAMETERs, scalar INTEGER variables and
 * intrinsics of those, no FORALL index: it keeps its value while a
 * FORALL runs. */
int spmd_scalar_expr(const Node *n);
/* Whether the index vector of a gather of r in loop l (at context ctx;
 * NULL: its left-hand side, a scatter's) depends only on the mappings of
 * r's array and of the loop's home array l->arr: its subscripts, the
 * loop's bounds, alignment subscripts and guards, and its mask are
 * invariant, and it is not inside an inline reduction. */
int spmd_gather_invariant(const SpLoop *l, const SpRef *r, const SpCtx *ctx);
/* The same, scalar INTEGER variables allowed as well (ipnt in
 * x(ipnt + 2*i)): the index vector is then a function of the mappings and
 * of their values, which every process holds alike (scalars are
 * replicated). Returns how many such scalars there are, a name node of
 * each written to keys (NULL: not written; at most SPMD_MAX_KEYS, beyond which the gather is
 * not keyed), 0 for an invariant gather, -1 when the index vector depends
 * on something else. hpfc passes their values to the library as the
 * site's key (hpfrt_gkey): a schedule is kept per key, with no
 * MPI_Allreduce and no index vector recorded while it is kept. */
enum { SPMD_MAX_KEYS = 8 };
int spmd_gather_keys(const SpLoop *l, const SpRef *r, const SpCtx *ctx, const Node **keys);
/* Whether hpfc emits the innermost level of loop lp (distributed, step 1)
 * twice, once for segments whose local index steps by 1, marked for the
 * vectorizer (!GCC$ vector): no mask, guard, gather, scatter, temporary
 * or location, no floating-point product (a sum is vectorized in order). */
int spmd_vector_loop(const SpLoop *lp);
/* Level k of the nest is a distributed level inside another level: its
 * iteration set does not change within one execution of the nest, so the
 * emitted code asks for all its segments once, before the nest, in a
 * table (hpf_qN, hpfrt_segs), and reads them from it at every entry; the
 * engine charges rt.seg once an execution for it. */
int spmd_seg_hoisted(const SpLoop *lp, int k);
/* The loop's gathers have a second way on one process, where every array
 * is held whole: the emitted code reads the gathered references in place
 * at their global subscripts (hpfrt_lin: local = y*i + z), with no
 * inspector, buffers or gathers. When the loop has gathers, no scatter or
 * temporary left-hand side, and writes none of the arrays it gathers
 * from (whose old values the buffers hold). The engine charges the
 * inspector, the buffers and the gathers on more than one processor
 * only. */
int spmd_direct_one(const SpLoop *lp);
/* A FORALL or reduction with a constant empty index range: hpfc emits
 * nothing of it (no region: libhpfrt's timers do not see it). */
int spmd_loop_empty(const SpLoop *lp);

/* hpfc --probe FILE: reads the phases file and matches its statements to
 * p's main program (sets p->probe). 0, or -1 with the reason in err. */
int spmd_probe_read(SpProgram *p, const char *path, Arena *a, char *err, size_t errlen);
/* A statement of the main program's set-up the synthetic probe runs: an
 * assignment of scalar arithmetic to a scalar variable. */
int spmd_probe_setup_stmt(const SpStmt *s);

/* Writes the program as Fortran calling libhpfrt: fixed form when fixed is
 * set (.f), free form otherwise. Returns 0, or -1 on a write error. */
int spmd_emit(FILE *out, const SpProgram *p, int fixed, const char *srcname);

#endif
